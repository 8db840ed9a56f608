package io.ringlab.qdisc;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertNotEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.TreeMap;
import java.util.TreeSet;

import org.junit.jupiter.api.Test;

import io.ringlab.buffer.api.Buffer;
import io.ringlab.conformance.ModelTests;
import io.ringlab.engine.standalone.Standalone;
import io.ringlab.sim.api.Element;
import io.ringlab.sim.api.ElementContext;
import io.ringlab.sim.api.ElementFactory;
import io.ringlab.sim.api.dto.ElementDescriptorDTO;
import io.ringlab.sim.api.dto.PortDescriptorDTO;
import io.ringlab.sim.api.dto.RunResultDTO;

/**
 * A sparse flow's latency under a bulk flow, through a whole pipeline: a non-responsive 12 Mbit/s bulk source and a
 * 10 kbit/s sparse source share one qdisc in front of a 10 Mbit/s wire. With {@code pfifo} the sparse packets wait behind
 * the full 1000-packet queue; {@code fq_codel} serves the sparse flow as a new flow ahead of the bulk one (and CoDel drops
 * the bulk flow's excess); {@code pfifo_fast} does the same by priority when the sparse packets carry priority 6.
 * <p>
 * Each source numbers its flows from its own base ({@code SourceElement}: a hash of the element's name times 65,536), so the
 * two sources are two flows that fq_codel tells apart (the test checks that their flow numbers differ). The test sink keeps
 * the latencies apart by frame length: 1514 bytes for the bulk source, 60 for the sparse one.
 */
class FqCodelPipelineTest {

    private static final double MS = 1e9;
    /** Key of the bulk source's packets (1518-B frames, 1514 B without FCS). */
    private static final int BULK = 0;
    /** Key of the sparse source's packets (64-B frames, 60 B without FCS). */
    private static final int SPARSE = 1;

    /** A sink that records one-way latency (creation to arrival, as {@code sink} measures it) and flow numbers per source. */
    private static final class FlowSink implements ElementFactory {
        final Map<Integer, List<Long>> latencies = new TreeMap<>();
        final Map<Integer, Set<Integer>> flows = new TreeMap<>();

        @Override
        public ElementDescriptorDTO descriptor() {
            ElementDescriptorDTO d = new ElementDescriptorDTO();
            d.type = "flowsink";
            d.category = ElementDescriptorDTO.SINK;
            d.ports.add(PortDescriptorDTO.of("in", PortDescriptorDTO.Direction.IN, PortDescriptorDTO.Mode.PUSH, true,
                    "packets"));
            return d;
        }

        @Override
        public Element create(ElementContext ctx) {
            return new Element() {
                @Override
                public void push(int port, Buffer b) {
                    long arrival = Math.max(ctx.nowPicos(), b.stampPicos());
                    int source = b.length() == 60 ? SPARSE : BULK;
                    latencies.computeIfAbsent(source, k -> new ArrayList<>()).add(arrival - b.createdPicos());
                    flows.computeIfAbsent(source, k -> new TreeSet<>()).add(b.flow());
                    ctx.deliver(0, b);
                }
            };
        }

        long percentile(int source, double p) {
            long[] sorted = latencies.get(source).stream().mapToLong(Long::longValue).sorted().toArray();
            return sorted[(int) Math.min(sorted.length - 1, Math.floor(p * sorted.length))];
        }

        int count(int source) {
            return latencies.get(source).size();
        }
    }

    private static String pipeline(String qdisc, int sparsePriority) {
        return """
                duration = 20s
                element bulk : source { rate = 12Mbit; size = 1518B; arrivals = poisson }
                element sparse : source { rate = 10kbit; size = 64B; arrivals = poisson; priority = %d }
                element q : %s
                element eth0 : netdev { ring = 2 }
                element wire : link { rate = 10Mbit }
                element sink : flowsink
                bulk -> q
                sparse -> q
                q -> eth0 -> wire -> sink
                """.formatted(sparsePriority, qdisc);
    }

    private record Outcome(RunResultDTO result, FlowSink sink) {
        double ms(int source, double p) {
            return sink.percentile(source, p) / MS;
        }
    }

    private static Outcome run(String qdisc, int sparsePriority, long seed) throws Exception {
        FlowSink sink = new FlowSink();
        RunResultDTO r = Standalone.builder().element(sink).build()
                .run(pipeline(qdisc, sparsePriority), ModelTests.options(seed));
        assertEquals("FINISHED", r.state, r.error);
        assertTrue(r.invariants.packetConservation, r.invariants.violations.toString());
        assertTrue(r.invariants.bufferConservation, r.invariants.violations.toString());
        assertEquals(1, sink.flows.get(BULK).size(), "one bulk flow");
        assertEquals(1, sink.flows.get(SPARSE).size(), "one sparse flow");
        assertNotEquals(sink.flows.get(BULK), sink.flows.get(SPARSE), "two flow numbers");
        return new Outcome(r, sink);
    }

    @Test
    void fqCodelKeepsTheSparseFlowsLatencyLowWhileCodelDropsTheBulkFlowsExcess() throws Exception {
        Outcome fq = run("fq_codel", 0, 1);
        Outcome fifo = run("pfifo", 0, 1);
        Map<String, Double> q = fq.result.elements.get("q");
        System.out.printf("pipeline, 20 s: sparse P50/P99/max %.2f/%.2f/%.2f ms, bulk P50/P99 %.1f/%.1f ms with fq_codel "
                + "(codelDrops %.0f, dropOverlimit %.0f); sparse P50 %.1f ms, bulk P50 %.1f ms with pfifo%n",
                fq.ms(SPARSE, 0.5), fq.ms(SPARSE, 0.99), fq.ms(SPARSE, 1.0), fq.ms(BULK, 0.5), fq.ms(BULK, 0.99),
                q.get("codelDrops"), q.get("dropOverlimit"), fifo.ms(SPARSE, 0.5), fifo.ms(BULK, 0.5));

        assertTrue(fq.sink.count(SPARSE) > 250, "sparse packets delivered: " + fq.sink.count(SPARSE));
        assertTrue(fq.ms(SPARSE, 1.0) < 5, "every sparse packet under the 5 ms target: max " + fq.ms(SPARSE, 1.0) + " ms");
        // the rest of the frame on the wire, the two frames in the driver's ring, its own: about three 1.23-ms frame times
        assertTrue(fq.ms(SPARSE, 0.5) < 4, "sparse P50 a few frame times: " + fq.ms(SPARSE, 0.5) + " ms");
        assertTrue(fq.ms(BULK, 0.5) > 5, "the bulk flow queues beyond the target: P50 " + fq.ms(BULK, 0.5) + " ms");
        assertTrue(q.get("codelDrops") > 0, "CoDel drops the bulk flow's excess");
        assertEquals(q.get("codelDrops") + q.get("dropOverlimit"), q.get("drops"), "drops split by reason");
        assertEquals(q.get("codelDrops"), fq.result.invariants.droppedByReason.get("qdisc-aqm").doubleValue(),
                "CoDel drops freed under qdisc-aqm");
        assertEquals(1514.0, q.get("maxPacket"), "maxPacket: a 1518-B frame without its FCS");
        assertTrue(q.get("newFlowCount") > 100, "the sparse flow comes back as a new flow: " + q.get("newFlowCount"));

        assertTrue(fifo.ms(SPARSE, 0.5) > 500, "with pfifo the sparse packets wait behind 1000 bulk frames: P50 "
                + fifo.ms(SPARSE, 0.5) + " ms");
        assertTrue(fifo.ms(SPARSE, 0.5) > 100 * fq.ms(SPARSE, 0.5), "fq_codel cuts the sparse flow's latency a hundredfold");
    }

    @Test
    void pfifoFastServesAPrioritySixSparseFlowFromBandZero() throws Exception {
        Outcome fast = run("pfifo_fast", 6, 1);
        Outcome sameBand = run("pfifo_fast", 0, 1);
        Map<String, Double> q = fast.result.elements.get("q");
        System.out.printf("pipeline, 20 s: sparse P50/max %.2f/%.2f ms in band 0, %.1f/%.1f ms in band 1 with pfifo_fast; "
                + "bulk P50 %.1f ms%n", fast.ms(SPARSE, 0.5), fast.ms(SPARSE, 1.0), sameBand.ms(SPARSE, 0.5),
                sameBand.ms(SPARSE, 1.0), fast.ms(BULK, 0.5));

        assertTrue(fast.ms(SPARSE, 1.0) < 5,
                "priority 6 -> band 0: never behind the bulk queue: max " + fast.ms(SPARSE, 1.0) + " ms");
        assertTrue(sameBand.ms(SPARSE, 0.5) > 500,
                "priority 0 -> band 1 with the bulk flow: P50 " + sameBand.ms(SPARSE, 0.5) + " ms");
        assertTrue(fast.ms(BULK, 0.5) > 500, "the bulk flow fills the 1000-packet limit: P50 " + fast.ms(BULK, 0.5) + " ms");
        assertEquals(q.get("drops"), fast.result.invariants.droppedByReason.get("qdisc-overlimit").doubleValue(),
                "tail drops under qdisc-overlimit");
        assertTrue(q.get("backlogBand1") > 900, "the bulk backlog sits in band 1 at the end: " + q.get("backlogBand1"));
        assertEquals(0.0, q.get("backlogBand2"), "band 2 unused");
    }

    @Test
    void theSameSeedGivesTheSameFqCodelRun() throws Exception {
        Outcome a = run("fq_codel", 0, 7);
        Outcome b = run("fq_codel", 0, 7);
        assertEquals(a.result.elements, b.result.elements, "identical metrics");
        assertEquals(a.sink.latencies, b.sink.latencies, "identical latencies, packet by packet");
        Outcome c = run("fq_codel", 0, 8);
        assertNotEquals(a.result.elements.get("q"), c.result.elements.get("q"), "another seed, another run");
    }
}
