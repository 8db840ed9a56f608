package io.ringlab.engine.kernel;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.util.ArrayList;
import java.util.List;

import org.junit.jupiter.api.Test;

import io.ringlab.buffer.api.Buffer;
import io.ringlab.sim.api.Element;
import io.ringlab.sim.api.ElementContext;
import io.ringlab.sim.api.ElementFactory;
import io.ringlab.sim.api.dto.ElementDescriptorDTO;
import io.ringlab.sim.api.dto.PortDescriptorDTO;
import io.ringlab.sim.api.dto.RunResultDTO;

/** A burst costs one event, yet every packet keeps its own wire timestamps. */
class BurstTest {

    /** Records each packet's arrival stamp and the event time at which it was delivered. */
    static final class Recorder implements ElementFactory {
        final List<long[]> seen = new ArrayList<>();

        @Override
        public ElementDescriptorDTO descriptor() {
            ElementDescriptorDTO d = new ElementDescriptorDTO();
            d.type = "recorder";
            d.category = ElementDescriptorDTO.SINK;
            d.ports.add(PortDescriptorDTO.of("in", PortDescriptorDTO.Direction.IN, PortDescriptorDTO.Mode.PUSH, true, "x"));
            return d;
        }

        @Override
        public Element create(ElementContext ctx) {
            return new Element() {
                @Override
                public void push(int port, Buffer b) {
                    seen.add(new long[] {b.stampPicos(), ctx.nowPicos(), b.createdPicos()});
                    ctx.deliver(0, b);
                }
            };
        }
    }

    @Test
    void packetKOfABackToBackBurstLeavesTheLinkKWireTimesAfterTheFirst() throws Exception {
        Recorder rec = new Recorder();
        // 64 frames of 1518 B created at once; the link (10 Gbit/s, batch 64) serialises them back to back
        RunImpl run = Pipelines.build(new TestRegistry().with(rec), """
                duration = 1ms
                element src : source { rate = 1Gbit; size = 1518B; burst = 64; count = 64 }
                element q : pfifo
                element eth0 : netdev { ring = 256 }
                element wire : link { rate = 10Gbit; delay = 5us; batch = 64 }
                element rec : recorder
                src -> q -> eth0 -> wire -> rec
                """, 1);
        RunResultDTO r = run.run();
        assertEquals(64, rec.seen.size());
        long wire = (1514 + 24) * 8 * 1_000_000_000_000L / 10_000_000_000L; // 1538 bytes at 10 Gbit/s = 1230.4 ns
        long first = rec.seen.get(0)[0];
        assertEquals(wire + 5_000_000, first, "first frame: one wire time plus the propagation delay");
        for (int k = 0; k < 64; k++) {
            assertEquals(first + k * wire, rec.seen.get(k)[0], "arrival stamp of packet " + k);
            assertEquals(0, rec.seen.get(k)[2], "all packets of the burst were created at time 0");
        }
        // one source event, one link pull, one delivery, one end-of-transmission (the series sampler aside): far fewer than 64
        long samples = r.series.rows.size();
        assertTrue(r.events - samples < 8, "events=" + r.events + ", samples=" + samples);
    }

    @Test
    void withBatchOneEveryFrameIsDeliveredAtItsOwnArrivalTime() throws Exception {
        Recorder rec = new Recorder();
        RunImpl run = Pipelines.build(new TestRegistry().with(rec), """
                duration = 1ms
                element src : source { rate = 1Gbit; size = 64B; burst = 8; count = 8 }
                element q : pfifo
                element eth0 : netdev
                element wire : link { rate = 1Gbit }
                element rec : recorder
                src -> q -> eth0 -> wire -> rec
                """, 1);
        run.run();
        long wire = 84 * 8 * 1000; // a 64-byte frame occupies 84 bytes on the wire: 672 ns at 1 Gbit/s
        for (int k = 0; k < 8; k++) {
            assertEquals((k + 1) * wire, rec.seen.get(k)[0]);
            assertEquals(rec.seen.get(k)[0], rec.seen.get(k)[1], "delivered at its own arrival time");
        }
    }

    @Test
    void aFrameOf6Point72NanosecondsIsNotRoundedAway() throws Exception {
        Recorder rec = new Recorder();
        RunImpl run = Pipelines.build(new TestRegistry().with(rec), """
                duration = 1us
                element src : source { rate = 100Gbit; size = 64B; burst = 2; count = 2 }
                element q : pfifo
                element eth0 : netdev
                element wire : link { rate = 100Gbit }
                element rec : recorder
                src -> q -> eth0 -> wire -> rec
                """, 1);
        run.run();
        assertEquals(6_720, rec.seen.get(0)[0]);
        assertEquals(13_440, rec.seen.get(1)[0]);
    }

    @Test
    void aGroupedDeliveryNeverTakesFramesOfALaterPull() throws Exception {
        Recorder rec = new Recorder();
        // bursts of 4 every 4 wire times at 1 Gbit/s; a 100 us wire holds many groups at once
        RunImpl run = Pipelines.build(new TestRegistry().with(rec), """
                duration = 2ms
                element src : source { rate = 1Gbit; size = 1518B; burst = 4 }
                element q : pfifo
                element eth0 : netdev
                element wire : link { rate = 1Gbit; delay = 100us; batch = 4 }
                element rec : recorder
                src -> q -> eth0 -> wire -> rec
                """, 1);
        run.run();
        long wire = 1538L * 8 * 1000; // 12.304 us at 1 Gbit/s
        assertTrue(rec.seen.size() > 100, "frames=" + rec.seen.size());
        for (long[] s : rec.seen) {
            long early = s[0] - s[1]; // arrival stamp minus delivery time
            assertTrue(early >= 0 && early <= 3 * wire, "delivered " + early + " ps before its arrival");
        }
    }

    @Test
    void imixSizesFollowTheSevenFourOneMix() throws Exception {
        var r = Pipelines.build("""
                duration = 20ms
                element src : source { rate = 10Gbit; sizes = imix }
                element sink : sink
                src -> sink
                """, 1).run();
        double packets = r.elements.get("sink").get("rxPackets");
        double meanFrame = r.elements.get("sink").get("rxBytes") / packets + 4; // + FCS
        // simple IMIX mean: (7 * 64 + 4 * 594 + 1518) / 12 = 361.83 bytes
        assertEquals(361.83, meanFrame, 5.0);
    }

    @Test
    void theDropElementCountsItsNamedReason() throws Exception {
        var r = Pipelines.build("""
                duration = 1ms
                element src : source { rate = 1Gbit; size = 64B; count = 100 }
                element d : drop { reason = early-drop }
                src -> d
                """, 1).run();
        assertEquals(100L, r.invariants.droppedByReason.get("early-drop"));
        assertEquals(100.0, r.elements.get("d").get("drops"));
        assertTrue(r.invariants.packetConservation && r.invariants.bufferConservation);
    }
}
