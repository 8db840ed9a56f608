package io.ringlab.engine.kernel;

import io.ringlab.buffer.api.Buffer;
import io.ringlab.buffer.api.BufferPool;
import io.ringlab.buffer.api.BufferVisitor;
import io.ringlab.driver.api.TxSegments;
import io.ringlab.sim.api.ElementContext;
import io.ringlab.sim.api.InputPort;

/**
 * {@link TxSegments}: a holding list for the segments of one GSO skb, and for the skb the driver gave back
 * ({@link #requeue}: the one {@link #next} returned last goes back into the slot it left). Allocation-free after
 * construction.
 */
public final class TxSegmentsImpl implements TxSegments {
    /** Segments of one GSO skb at most: 65,536 / 88 ({@code TCP_MIN_MSS}) + 1. */
    static final int MAX_GSO_SEGS = 65536 / 88 + 1;

    private final ElementContext ctx;
    private final int core;
    private final InputPort in;
    private final BufferPool pool;
    private final int dropFailed;
    private final Buffer[] held = new Buffer[MAX_GSO_SEGS];
    private int head, count;

    /**
     * @param ctx the driver's context
     * @param core the core it transmits on
     * @param in its input from the qdisc
     * @param pool its segment pool
     */
    public TxSegmentsImpl(ElementContext ctx, int core, InputPort in, BufferPool pool) {
        this.ctx = ctx;
        this.core = core;
        this.in = in;
        this.pool = pool;
        this.dropFailed = ctx.dropReason("gso-segment-failed");
    }

    @Override
    public Buffer next() {
        if (count > 0) {
            Buffer skb = held[head];
            held[head++] = null;
            if (--count == 0) {
                head = 0;
            }
            return skb;
        }
        while (true) {
            Buffer skb = in.pull();
            if (skb == null || skb.segments() <= 1) {
                return skb;
            }
            int n = ctx.segment(skb, pool, held);
            if (n == 0) {
                ctx.drop(core, skb, dropFailed);
                continue;
            }
            skb.pool().free(core, skb); // consume_skb of the GSO skb; its segments carry the packets on
            Buffer first = held[0];
            held[0] = null;
            head = 1;
            count = n - 1;
            if (count == 0) {
                head = 0;
            }
            return first;
        }
    }

    @Override
    public void requeue(Buffer skb) {
        if (skb == null) {
            throw new IllegalArgumentException("TxSegments.requeue: skb=null");
        }
        if (count == 0) {
            head = 0;
        } else if (head == 0) {
            // next() leaves the slot before the held segments free; a requeue of anything else finds none
            throw new IllegalStateException("TxSegments.requeue: skb=" + skb + " was not the skb next() returned last");
        } else {
            head--;
        }
        held[head] = skb;
        count++;
    }

    @Override
    public boolean holding() {
        return count > 0;
    }

    @Override
    public void forEachHeld(BufferVisitor visitor) {
        for (int i = 0; i < count; i++) {
            visitor.visit(held[head + i]);
        }
    }
}
