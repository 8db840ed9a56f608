package io.ringlab.engine.kernel;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.util.List;
import java.util.Map;

import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;

import io.ringlab.conformance.ModelTests;
import io.ringlab.sim.api.dto.RunResultDTO;

/**
 * stmmac-rrul-100m: TCP both ways through chained sockets ({@code tcp} and {@code ping} pass what is not theirs to the
 * next element of their host). Every stream moves data, every ping gets its own replies and none of another's, the two
 * receivers got what the senders of their direction had acknowledged, and nothing is dropped as not ours; without the
 * chain the same packets are dropped as not ours, which is what the chain is for.
 */
class RrulTest {
    static RunResultDTO r;

    @BeforeAll
    static void runRrulFor3s() throws Exception {
        r = PcapTest.run(ModelTests.sample("stmmac-rrul-100m.pipeline", "3s"), List.of());
    }

    @Test
    void everyStreamMovesDataAndEachReceiverGetsItsDirectionsBytes() {
        double up = 0;
        double down = 0;
        for (String c : List.of("be", "bk", "cs5", "ef")) {
            double u = r.elements.get("up_" + c).get("ackedBytes");
            double d = r.elements.get("dn_" + c).get("ackedBytes");
            assertTrue(u > 1e6 && d > 1e6, c + ": up " + u + " down " + d);
            up += u;
            down += d;
        }
        // a receiver has received at least what was acknowledged, and at most a window more (ACKs in flight)
        double board = r.elements.get("board").get("tcpRcvBytes");
        double far = r.elements.get("far").get("tcpRcvBytes");
        assertTrue(board >= down && board - down < 4 * 200_000, "board received " + board + ", downloads acked " + down);
        assertTrue(far >= up && far - up < 4 * 200_000, "far received " + far + ", uploads acked " + up);
        assertEquals(0L, r.invariants.droppedByReason.getOrDefault("tcp-not-ours", 0L), r.invariants.droppedByReason
                .toString());
    }

    @Test
    void eachPingGetsItsOwnRepliesAndNoOthers() {
        for (String p : List.of("ping", "ping_ef", "ping_bk", "ping_be")) {
            Map<String, Double> m = r.elements.get(p);
            assertEquals(0.0, m.get("duplicates"), p + ": " + m);
            assertTrue(m.get("received") >= m.get("sent") - 1 && m.get("received") > 10, p + ": " + m);
        }
    }

    @Test
    void withoutTheChainTheOtherSocketsPacketsAreNotOurs() throws Exception {
        // the board's receiver fed by a source that never sends: the downloads' segments end at up_ef
        String text = ModelTests.sample("stmmac-rrul-100m.pipeline", "1s").replace("up_ef.pass -> board\n",
                "idle -> board\n").replace("element board : host { kernel = v3.19 }",
                        "element board : host { kernel = v3.19 }\nelement idle : source { start = 100s }");
        RunResultDTO cut = PcapTest.run(text, List.of());
        assertTrue(cut.invariants.droppedByReason.getOrDefault("tcp-not-ours", 0L) > 0, "the downloads' segments reach"
                + " up_ef and stop there: " + cut.invariants.droppedByReason);
        assertEquals(0.0, cut.elements.get("board").get("tcpRcvBytes"));
    }
}
