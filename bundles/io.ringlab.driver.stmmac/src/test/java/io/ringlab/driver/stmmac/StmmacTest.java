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
}
