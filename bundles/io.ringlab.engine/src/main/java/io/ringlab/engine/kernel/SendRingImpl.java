package io.ringlab.engine.kernel;

import io.ringlab.buffer.api.Buffer;
import io.ringlab.buffer.api.BufferPool;
import io.ringlab.buffer.api.BufferVisitor;
import io.ringlab.driver.api.SendRing;
import io.ringlab.sim.api.ElementContext;

/** {@link SendRing}: arrays of skbs and their descriptor counts from {@code head}. Allocation-free after construction. */
public final class SendRingImpl implements SendRing {
    private final ElementContext ctx;
    private final int core;
    private final BufferPool wirePool;
    private final Buffer[] skb;
    private final int[] descs;
    private int head, count, done, used, lastSent = -1;

    /**
     * @param ctx the driver's context
     * @param core the core it runs on
     * @param size descriptors (slots) in the ring
     * @param wirePool where the wire's copies come from
     */
    public SendRingImpl(ElementContext ctx, int core, int size, BufferPool wirePool) {
        if (size < 1) {
            throw new IllegalArgumentException("send ring size=" + size + ", must be at least 1");
        }
        this.ctx = ctx;
        this.core = core;
        this.wirePool = wirePool;
        this.skb = new Buffer[size];
        this.descs = new int[size];
    }

    private int slot(int i) {
        int s = head + i;
        return s >= skb.length ? s - skb.length : s;
    }

    @Override public int size() { return skb.length; }
    @Override public int used() { return used; }
    @Override public int queued() { return count; }
    @Override public int sent() { return done; }
    @Override public int lastSent() { return lastSent; }

    @Override
    public int post(Buffer b, int descriptors) {
        if (count == skb.length) {
            throw new IllegalStateException("send ring full: " + count + " skbs posted");
        }
        int s = slot(count);
        skb[s] = b;
        descs[s] = descriptors;
        count++;
        used += descriptors;
        return s;
    }

    @Override
    public Buffer toWire() {
        if (done == count) {
            return null;
        }
        int s = slot(done);
        Buffer bits = wirePool.alloc(core, ctx.index());
        if (bits == null) {
            ctx.fail("wire copy pool empty: pool=" + wirePool.name() + ", capacity=" + wirePool.capacity());
            return null;
        }
        ctx.transferPacket(skb[s], bits); // the packet travels on the wire; the skb waits for its clean
        done++;
        lastSent = s;
        return bits;
    }

    @Override
    public Buffer clean() {
        if (done == 0) {
            return null;
        }
        Buffer b = skb[head];
        skb[head] = null;
        used -= descs[head];
        if (++head == skb.length) {
            head = 0;
        }
        count--;
        done--;
        return b;
    }

    @Override
    public void forEachHeld(BufferVisitor visitor) {
        for (int i = 0; i < count; i++) {
            visitor.visit(skb[slot(i)]);
        }
    }
}
