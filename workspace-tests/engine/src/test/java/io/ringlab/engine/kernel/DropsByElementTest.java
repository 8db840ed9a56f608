package io.ringlab.engine.kernel;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.TreeMap;

import org.junit.jupiter.api.Test;

import io.ringlab.sim.api.dto.RunResultDTO;
import io.ringlab.sim.api.dto.SeriesDTO;

/**
 * Drops are counted by the element that dropped them (the console's drop badges and its time slider): per element and
 * reason in the result's invariants and the snapshots, and as series columns {@code drops:ELEMENT.REASON}; the counts
 * add up to the run's drops by reason, and the qdisc's and link's own counters agree.
 */
class DropsByElementTest {

    @Test
    void eachElementsDropsByReasonAddUpToTheRunsAndAreSampled() throws Exception {
        // a 1.2 Gbit/s source into a 200-packet pfifo before a 1 Gbit/s link with 1 % loss: the qdisc tail-drops, the
        // wire loses frames
        RunImpl run = Pipelines.build(Pipelines.RANDOM, 7);
        RunResultDTO r = run.run();
        assertEquals("FINISHED", r.state, r.error);
        Map<String, Map<String, Long>> byElement = r.invariants.droppedByElement;
        assertEquals(Map.of("qdisc-overlimit", (long) Pipelines.metric(r, "q", "drops")), byElement.get("q"));
        assertEquals(Map.of("link-loss", (long) Pipelines.metric(r, "wire", "lost")), byElement.get("wire"));
        assertTrue(byElement.get("q").get("qdisc-overlimit") > 100, "the qdisc drops: " + byElement);
        assertTrue(byElement.get("wire").get("link-loss") > 10, "the wire loses: " + byElement);

        Map<String, Long> sum = new TreeMap<>();
        byElement.values().forEach(m -> m.forEach((reason, n) -> sum.merge(reason, n, Long::sum)));
        assertEquals(r.invariants.droppedByReason, sum, "the elements' drops add up to the run's, reason by reason");

        // the series: a column per reason each element registered, a running count whose last row is the whole run's
        SeriesDTO s = r.series;
        Map<String, Integer> col = new HashMap<>();
        for (int i = 0; i < s.columns.size(); i++) {
            col.put(s.columns.get(i), i);
        }
        List<String> dropColumns = s.columns.stream().filter(c -> c.startsWith(SeriesDTO.DROPS_PREFIX)).toList();
        assertTrue(dropColumns.containsAll(List.of("drops:q.qdisc-overlimit", "drops:wire.link-loss", "drops:eth0.gso-segment-failed")),
                "drop columns: " + dropColumns);
        // the last row is one interval before the end (rows at 0, 0.1 ms, ... 19.9 ms): most of the run's drops by then
        double[] last = s.rows.get(s.rows.size() - 1);
        assertEquals(r.simulatedSeconds - s.intervalSeconds, last[0], 1e-12, "the last row");
        for (String[] er : new String[][] { { "q", "qdisc-overlimit" }, { "wire", "link-loss" } }) {
            long total = byElement.get(er[0]).get(er[1]);
            double sampled = last[col.get("drops:" + er[0] + "." + er[1])];
            assertTrue(sampled <= total && sampled >= 0.9 * total, er[0] + " " + er[1] + ": " + sampled + " of " + total);
        }
        assertEquals(0, (long) last[col.get("drops:eth0.gso-segment-failed")]);
        double previous = -1;
        for (double[] row : s.rows) { // a running count never goes down
            double v = row[col.get("drops:q.qdisc-overlimit")];
            assertTrue(v >= previous, "drops fell from " + previous + " to " + v + " at " + row[0]);
            previous = v;
        }
        assertEquals(0, s.rows.get(0)[col.get("drops:q.qdisc-overlimit")], "nothing is dropped at time 0");

        // the canvas roles are sampled: the qdisc's backlog and its bytes, the link's wire bytes, BQL's inflight
        assertTrue(s.columns.containsAll(List.of("q.backlog", "q.backlogBytes", "q.sentBytes", "wire.wireBytes",
                "eth0.ringUsed", "eth0.inflight", "eth0.limit", "src.txBytes", "sink.rxBytes")), "columns: " + s.columns);
    }
}
