package io.ringlab.engine.kernel;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertNull;
import static org.junit.jupiter.api.Assertions.assertSame;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.util.ArrayList;
import java.util.List;

import org.junit.jupiter.api.Test;

import io.ringlab.buffer.api.Buffer;
import io.ringlab.buffer.api.BufferDestructor;
import io.ringlab.sim.api.ElementContext;
import io.ringlab.sim.api.dto.InvariantReportDTO;

/** {@code skb_gso_segment} through {@code ElementContext.segment}: ids, lengths, sequence numbers, truesize, destructor. */
class GsoSegmentTest {
    private static final int MSS = 1448;
    private static final int HEADERS = ElementContext.GSO_HEADER_BYTES;

    private final Simulation sim = new Simulation(new TestRegistry(), new TestRegistry().profile("generic-x86-4ghz"), 1);

    @Test
    void aGsoBufferIsSplitIntoOneFramePerSegmentWithItsShareOfTheTruesize() {
        FixedPool tcpPool = new FixedPool(sim, "tcp", 4, 65536);
        FixedPool gsoPool = new FixedPool(sim, "gso", 64, 9018);
        sim.pools.add(tcpPool);
        sim.pools.add(gsoPool);
        List<Long> destroyed = new ArrayList<>();
        List<Integer> truesizes = new ArrayList<>();
        BufferDestructor wfree = b -> {
            destroyed.add(b.packetId());
            truesizes.add(b.truesize());
        };
        Buffer first = tcpPool.alloc(0, -1); // one ordinary packet first, so the GSO buffer's ids do not start at 0
        sim.generated((PacketBuffer) first);
        int n = 10;
        Buffer gso = tcpPool.alloc(0, -1);
        gso.length(HEADERS + n * MSS);
        gso.segments(n);
        gso.seq(1_000_000);
        gso.flow(7);
        gso.truesize(2304 + (n - 1) * MSS);
        gso.destructor(wfree);
        sim.generated((PacketBuffer) gso);
        assertEquals(1 + n, sim.ledger.generated, "a buffer of n segments counts n packets");
        assertEquals(1, gso.packetId());

        Buffer[] dst = new Buffer[45];
        assertEquals(n, sim.segment(0, gso, gsoPool, dst));
        int truesizeSum = 0;
        for (int k = 0; k < n; k++) {
            Buffer s = dst[k];
            assertEquals(1 + k, s.packetId(), "segment " + k + " id");
            assertEquals(1, s.segments());
            assertEquals(HEADERS + MSS, s.length(), "segment " + k + " length");
            assertEquals(1_000_000 + (long) k * MSS, s.seq(), "segment " + k + " seq");
            assertEquals(7, s.flow());
            assertSame(wfree, s.destructor());
            truesizeSum += s.truesize();
        }
        assertEquals(2304 + (n - 1) * MSS, truesizeSum, "sum_truesize: the segments carry the GSO skb's truesize");
        assertEquals(-1, gso.packetId());
        assertEquals(0, gso.truesize());
        assertNull(gso.destructor());

        tcpPool.free(0, gso); // consume_skb of the GSO skb: no destructor runs
        assertTrue(destroyed.isEmpty());
        sim.delivered(-1, 0, first);
        for (int k = 0; k < n; k++) {
            sim.delivered(-1, 0, dst[k]);
        }
        assertEquals(n, destroyed.size(), "tcp_wfree runs once per segment freed");
        assertEquals(truesizeSum, truesizes.stream().mapToInt(Integer::intValue).sum());

        InvariantReportDTO r = sim.checkInvariants();
        assertEquals(1 + n, r.delivered);
        assertTrue(r.packetConservation, () -> r.violations.toString());
        assertTrue(r.bufferConservation, () -> r.violations.toString());
    }

    @Test
    void aShortPoolGivesNothingAndLeavesTheGsoBufferAsItWas() {
        FixedPool tcpPool = new FixedPool(sim, "tcp", 1, 65536);
        FixedPool gsoPool = new FixedPool(sim, "gso", 3, 9018);
        Buffer gso = tcpPool.alloc(0, -1);
        gso.length(HEADERS + 4 * MSS);
        gso.segments(4);
        gso.truesize(9000);
        sim.generated((PacketBuffer) gso);
        Buffer[] dst = new Buffer[45];
        assertEquals(0, sim.segment(0, gso, gsoPool, dst));
        assertEquals(0, gsoPool.inUse());
        assertEquals(0, gso.packetId());
        assertEquals(9000, gso.truesize());
        sim.dropped(-1, 0, gso, sim.dropReason("gso-segment-failed"));
        assertEquals(4, sim.totalDropped(), "the GSO skb's drop counts its four packets");
    }

    @Test
    void theInvariantWalkCountsEverySegmentOfAHeldGsoBuffer() {
        FixedPool tcpPool = new FixedPool(sim, "tcp", 1, 65536);
        sim.pools.add(tcpPool);
        Buffer gso = tcpPool.alloc(0, 0);
        gso.segments(5);
        sim.generated((PacketBuffer) gso);
        sim.elements = new io.ringlab.sim.api.Element[] { new io.ringlab.sim.api.Element() {
            @Override public void forEachHeld(io.ringlab.buffer.api.BufferVisitor v) { v.visit(gso); }
        } };
        sim.addContext(new ElementContextImpl(sim, 0, "holder", "holder", descriptor(), null, 1)); // the walk's holder
        InvariantReportDTO r = sim.checkInvariants();
        assertEquals(5, r.inFlight);
        assertTrue(r.packetConservation, () -> r.violations.toString());
    }

    private static io.ringlab.sim.api.dto.ElementDescriptorDTO descriptor() {
        io.ringlab.sim.api.dto.ElementDescriptorDTO d = new io.ringlab.sim.api.dto.ElementDescriptorDTO();
        d.type = "holder";
        return d;
    }
}
