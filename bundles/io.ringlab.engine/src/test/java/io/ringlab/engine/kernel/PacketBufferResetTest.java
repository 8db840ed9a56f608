package io.ringlab.engine.kernel;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertSame;

import java.util.List;
import java.util.function.Consumer;

import org.junit.jupiter.api.Test;

import io.ringlab.buffer.api.Buffer;

/**
 * A buffer allocated again carries none of its last packet's TCP fields, whichever one was written and however (a setter,
 * a SACK block, {@code copyMetadataFrom}): {@link PacketBuffer#reset} clears them only when one was written since, so
 * each writer must say so. Each case writes one field alone, frees the buffer and allocates it again.
 */
class PacketBufferResetTest {
    private final Simulation sim = new Simulation(new TestRegistry(), new TestRegistry().profile("generic-x86-4ghz"), 1);

    @Test
    void everyTcpFieldWrittenAloneIsClearedOnTheNextAllocation() {
        FixedPool pool = new FixedPool(sim, "one", 1, 2048);
        List<Consumer<Buffer>> writers = List.of(b -> b.seq(7), b -> b.ack(7), b -> b.flags(7), b -> b.fragments(7),
                b -> b.tcpHeaderBytes(7), b -> b.tcpWindow(7), b -> b.tcpOptions(7), b -> b.tcpMssOption(7),
                b -> b.tcpWscaleOption(7), b -> b.tsVal(7), b -> b.tsEcr(7), b -> b.sackBlocks(1),
                b -> b.sackBlock(0, 7, 8), b -> {
                    PacketBuffer other = (PacketBuffer) sim.newBuffer(pool, 2048);
                    other.seq(9);
                    other.sackBlocks(2);
                    b.copyMetadataFrom(other);
                });
        for (int w = 0; w < writers.size(); w++) {
            Buffer b = pool.alloc(0, 0);
            writers.get(w).accept(b);
            pool.free(0, b);
            Buffer again = pool.alloc(0, 0);
            assertSame(b, again, "the pool's one buffer");
            String what = "writer " + w + ", then a free and an allocation";
            assertEquals(0, again.seq(), what);
            assertEquals(0, again.ack(), what);
            assertEquals(0, again.flags(), what);
            assertEquals(0, again.fragments(), what);
            assertEquals(0, again.tcpHeaderBytes(), what);
            assertEquals(0, again.tcpWindow(), what);
            assertEquals(0, again.tcpOptions(), what);
            assertEquals(0, again.tcpMssOption(), what);
            assertEquals(0, again.tcpWscaleOption(), what);
            assertEquals(0, again.tsVal(), what);
            assertEquals(0, again.tsEcr(), what);
            assertEquals(0, again.sackBlocks(), what);
            pool.free(0, again);
        }
    }
}
