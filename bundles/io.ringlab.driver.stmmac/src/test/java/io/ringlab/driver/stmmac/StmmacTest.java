package io.ringlab.driver.stmmac;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.util.List;

import org.junit.jupiter.api.Test;

import io.ringlab.sim.api.dto.RunResultDTO;

import io.ringlab.conformance.ModelTests;

/** The stmmac model: CPU-bound throughput from the fitted cost, coalesced TX interrupts, BQL moving the queue. */
class StmmacTest {

    private static final String BOARD = """
            duration = 2s
            profile = amlogic-s805
            element bulk : source { rate = %s; size = 1518B; flows = 4 }
            element ping : ping { interval = 10ms; tos = 0x10 }
            element q : pfifo_fast
            element eth0 : stmmac { bql = %s }
            element wire : link { rate = %s; delay = 50us }
            element far : host
            element acks : source { rate = %s; size = 64B }
            element back : pfifo
            element eth1 : netdev
            element rwire : link { rate = %s; delay = 50us }
            bulk -> q
            ping -> q
            q -> eth0 -> wire -> far
            far.out -> back -> eth1 -> rwire -> eth0.rx
            acks -> back
            eth0.stack -> ping.in
            """;

    /** @param acks the reverse traffic that makes the board's RX interrupt (TCP's ACKs stand-in), as a wire rate */
    private static RunResultDTO board(String offered, boolean bql, String link, String acks) throws Exception {
        return ModelTests.run(BOARD.formatted(offered, bql, link, acks, link), 1);
    }

    @Test
    void bqlMovesTheBacklogOutOfTheRingSoABandZeroPingWaitsLess() throws Exception {
        // 120 Mbit/s of bulk frames into a 100 Mbit/s link; the ping sits in pfifo_fast band 0 (TOS 0x10); 4,000 small
        // frames per second come back, as the ACKs of 100 Mbit/s of TCP would, and make the board's RX interrupts
        RunResultDTO off = board("120Mbit", false, "100Mbit", "2688kbit");
        RunResultDTO on = board("120Mbit", true, "100Mbit", "2688kbit");
        double rttOff = off.elements.get("ping").get("rttP50Millis");
        double rttOn = on.elements.get("ping").get("rttP50Millis");
        // without BQL the ring holds up to 256 - 18 = 238 frames: about 29 ms of 1538-byte frames at 100 Mbit/s
        assertTrue(rttOff > 15 && rttOff < 35, "rtt without BQL = " + rttOff + " ms");
        assertTrue(rttOn < rttOff / 3, "rtt with BQL = " + rttOn + " ms, without = " + rttOff + " ms");
        assertTrue(on.elements.get("eth0").get("limit") > 0);
        for (RunResultDTO r : List.of(off, on)) {
            assertEquals("FINISHED", r.state, r.error);
            assertTrue(r.invariants.packetConservation, r.invariants.violations.toString());
            assertTrue(r.invariants.bufferConservation, r.invariants.violations.toString());
            // the link runs full either way
            assertEquals(100.0, r.elements.get("wire").get("utilisationPercent"), 1.0);
        }
    }

    @Test
    void txInterruptsAreCoalescedEvery64Frames() throws Exception {
        RunResultDTO r = board("120Mbit", false, "100Mbit", "1kbit");
        double frames = r.elements.get("eth0").get("txPackets");
        double irqs = r.elements.get("eth0").get("txIrqs");
        assertEquals(frames / 64, irqs, frames / 64 * 0.05 + 2, "txPackets=" + frames);
    }

    @Test
    void atOneGigabitTheFittedCpuCostLimitsTransmit() throws Exception {
        // no ACK load here: 1.5 GHz / 21,741 cycles per frame = 68,994 frames/s of 1514 bytes = 835.6 Mbit/s
        RunResultDTO r = board("1Gbit", false, "1Gbit", "1kbit");
        double tx = r.elements.get("eth0").get("txMbitPerSecond");
        assertEquals(835.6, tx, 835.6 * 0.02, "txMbitPerSecond");
        assertTrue(r.elements.get("cpu0").get("utilisationPercent") > 99);
        assertEquals(21741.0, r.elements.get("eth0").get("cpuCyclesPerPacket"), 200.0);
    }

    /** About 7,600 small frames a second into the board's RX ring and nothing to send: only the RIWT watchdog interrupts. */
    private static final String RX_ONLY = """
            duration = 1s
            profile = amlogic-s805
            element bulk : source { rate = 1bit; size = 1518B; start = 2s }
            element q : pfifo_fast
            element eth0 : stmmac { riwtRestart = %s; riwt = %d }
            element wire : link { rate = 100Mbit; delay = 50us }
            element far : sink
            element frames : source { rate = 5120kbit; size = 64B }
            element back : pfifo
            element eth1 : netdev
            element rwire : link { rate = 100Mbit; delay = 50us }
            element up : sink
            bulk -> q -> eth0 -> wire -> far
            frames -> back -> eth1 -> rwire -> eth0.rx
            eth0.stack -> up
            """;

    @Test
    void theRiwtWatchdogCountsFromTheFirstFrameIn256CyclesOfClk81() throws Exception {
        // RIWT 0xff on the S805: 255 x 256 / 159.375 MHz = 409.6 us from the frame that starts it to the interrupt
        RunResultDTO r = ModelTests.run(RX_ONLY.formatted("first", 255), 1);
        double frames = r.elements.get("eth0").get("rxPackets");
        double irqs = r.elements.get("eth0").get("rxIrqs");
        assertTrue(frames > 5000, frames + " frames");
        assertEquals(0, r.elements.get("eth0").get("rxRingFullDrops"), 0.0);
        // the watchdog starts with the first frame after the poll that followed the last interrupt, at most one frame
        // gap later (the poll itself takes 11.4 us per frame), so interrupts come every 409.6 us + up to a gap, never sooner
        double gap = 1e6 / frames;
        double period = 1e6 / irqs;
        assertTrue(period >= 409.6 && period < 409.6 + gap + 60,
                "an RX interrupt every " + period + " us with a frame every " + gap + " us");
        // half the count, half the period
        RunResultDTO half = ModelTests.run(RX_ONLY.formatted("first", 127), 1);
        double halfPeriod = 1e6 / half.elements.get("eth0").get("rxIrqs");
        assertTrue(halfPeriod >= 204 && halfPeriod < 204 + gap + 60, "RIWT 127: an RX interrupt every " + halfPeriod + " us");
    }

    @Test
    void aWatchdogReloadedByEveryFrameNeverRunsOutUnderSteadyTraffic() throws Exception {
        // the literal reading of the databook, kept as riwtRestart = frame: frames 131 us apart keep reloading a
        // 409.6 us count, so an RX interrupt comes only where the sender pauses longer than that, and the 256-frame
        // ring (33 ms of these frames) overflows in between
        RunResultDTO r = ModelTests.run(RX_ONLY.formatted("frame", 255), 1);
        RunResultDTO first = ModelTests.run(RX_ONLY.formatted("first", 255), 1);
        // only where the sending side leaves a gap longer than the count (a few times a second here)
        assertTrue(r.elements.get("eth0").get("rxIrqs") < first.elements.get("eth0").get("rxIrqs") / 20,
                r.elements.get("eth0").get("rxIrqs") + " RX interrupts");
        assertTrue(r.elements.get("eth0").get("rxRingFullDrops") > 0, "the ring fills: "
                + r.elements.get("eth0").get("rxRingFullDrops") + " drops");
    }
}
