package io.ringlab.engine.kernel;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.util.List;

import org.junit.jupiter.api.Test;

import io.ringlab.buffer.api.Buffer;
import io.ringlab.sim.api.Element;
import io.ringlab.sim.api.ElementContext;
import io.ringlab.sim.api.ElementFactory;
import io.ringlab.sim.api.OutputPort;
import io.ringlab.sim.api.PipelineException;
import io.ringlab.sim.api.dto.ElementDescriptorDTO;
import io.ringlab.sim.api.dto.ProblemDTO;
import io.ringlab.sim.api.dto.RunResultDTO;

import io.ringlab.conformance.ModelTests;

/**
 * Pushes with no time in them: a cycle of them is refused when the pipeline is built (where the elements declare their
 * in-call forwards), and whatever the declarations a run whose pushes nest deeper than {@link Simulation#MAX_PUSH_DEPTH}
 * ends FAILED with a report naming the cycle or the chain, not with a StackOverflowError (issue 15: {@code d.other -> d}
 * and a chain of 9,998 demux elements printed thousands of frames of it).
 */
class PushDepthTest {
    /** A relay that pushes what it receives straight on, and does not declare it (a third party's element). */
    private static final class Relay implements ElementFactory {
        @Override
        public ElementDescriptorDTO descriptor() {
            return TestTypes.descriptor("relay", TestTypes.in("in"), TestTypes.out("out"));
        }

        @Override
        public Element create(ElementContext ctx) {
            OutputPort out = ctx.output("out");
            return new Element() {
                @Override
                public void push(int port, Buffer b) {
                    out.push(b);
                }
            };
        }
    }

    /** An element whose push recurses without end in its own code. */
    private static final class Recursive implements ElementFactory {
        @Override
        public ElementDescriptorDTO descriptor() {
            return TestTypes.descriptor("recursive", TestTypes.in("in"));
        }

        @Override
        public Element create(ElementContext ctx) {
            return new Element() {
                @Override
                public void push(int port, Buffer b) {
                    depth(b, 0);
                }

                private long depth(Buffer b, long n) {
                    return depth(b, n + 1) + 1;
                }
            };
        }
    }

    private static List<ProblemDTO> refused(String text) {
        PipelineException e = assertThrows(PipelineException.class, () -> Pipelines.build(text, 1));
        return e.problems();
    }

    private static String chain(int n) {
        StringBuilder sb = new StringBuilder("duration = 1ms\nelement src : source { rate = 1Gbit; count = 1 }\n");
        for (int i = 0; i < n; i++) {
            sb.append("element d").append(i).append(" : demux\n");
        }
        sb.append("element sink : sink\nsrc -> d0\n");
        for (int i = 0; i < n - 1; i++) {
            sb.append("d").append(i).append(".other -> d").append(i + 1).append('\n');
        }
        return sb.append("d").append(n - 1).append(".other -> sink\n").toString();
    }

    @Test
    void aDemuxPushingIntoItselfIsRefusedAtTheConnectionThatClosesTheCycle() {
        List<ProblemDTO> p = refused("""
                duration = 1ms
                element src : source { rate = 1Gbit }
                element d : demux
                element sink : sink
                src -> d
                d.tcp -> sink
                d.other -> d
                """);
        assertEquals(1, p.size(), p.toString());
        assertEquals(7, p.get(0).line);
        assertEquals("connection d.other -> d.in closes a cycle of pushes with no time in it (d -> d): a packet would go"
                + " round within one call without end; put an element that takes time in the cycle (a link, or a qdisc"
                + " that a driver drains)", p.get(0).message);
    }

    @Test
    void aCycleThroughSeveralElementsIsNamedWholeAndACycleThroughALinkRuns() throws Exception {
        List<ProblemDTO> p = refused("""
                duration = 1ms
                element src : source { rate = 1Gbit }
                element a : demux
                element b : demux
                element sink : sink
                src -> a
                a.other -> b
                b.tcp -> sink
                b.other -> a
                """);
        assertEquals(1, p.size(), p.toString());
        assertEquals(9, p.get(0).line);
        assertTrue(p.get(0).message.contains("(a -> b -> a)"), p.get(0).message);

        // through a link the packets take time: a loop (the packets go round until the run ends), not a cycle in a call
        RunResultDTO r = ModelTests.runConserved("""
                duration = 1ms
                element src : source { rate = 1Gbit; count = 3 }
                element a : demux
                element q : pfifo
                element wire : link { delay = 10us }
                element sink : sink
                src -> a
                a.tcp -> sink
                a.other -> q -> wire -> a
                """, 1);
        // the three share the 1 Gbit/s wire: a round is their three 12.3 us wire times, the delay overlapping them
        assertTrue(r.elements.get("a").get("otherPackets") >= 3 * 20, "each packet went round many times: "
                + r.elements.get("a"));
    }

    @Test
    void aChainLongerThanTheLimitEndsFailedWithAReportNotAStackOverflow() throws Exception {
        RunResultDTO ok = ModelTests.runConserved(chain(Simulation.MAX_PUSH_DEPTH - 1), 1);
        assertEquals(1, ok.elements.get("sink").get("rxPackets"), "a chain within the limit delivers");

        RunResultDTO r = Pipelines.build(chain(9_998), 1).run();
        assertEquals("FAILED", r.state);
        assertTrue(r.error.contains("1,000 pushes nested within one call, from src.out -> d0 (line 10002) to d999.other"
                + " -> d1000 (line 11002): a chain of more than 1,000 elements that push on at once"), r.error);
    }

    @Test
    void anUndeclaredCycleIsStoppedAtTheLimitAndNamed() throws Exception {
        RunResultDTO r = Pipelines.build(new TestRegistry().with(new Relay()), """
                duration = 1ms
                element src : source { rate = 1Gbit; count = 1 }
                element x : relay
                element y : relay
                src -> x
                x.out -> y
                y.out -> x
                """, 1).run();
        assertEquals("FAILED", r.state);
        assertTrue(r.error.contains("a cycle of pushes with no time in it: "), r.error);
        assertTrue(r.error.contains("x.out -> y (line 6)") && r.error.contains("y.out -> x (line 7)"), r.error);
        assertTrue(r.error.contains("; a packet went round it within one call until 1,000 pushes were nested"), r.error);
    }

    @Test
    void anElementsOwnEndlessRecursionEndsTheRunWithAReport() throws Exception {
        RunResultDTO r = Pipelines.build(new TestRegistry().with(new Recursive()), """
                duration = 1ms
                element src : source { rate = 1Gbit; count = 1 }
                element r : recursive
                src -> r
                """, 1).run();
        assertEquals("FAILED", r.state);
        assertTrue(r.error.startsWith("element r (type recursive"), r.error);
        assertTrue(r.error.contains("overflowed the engine thread's stack (java.lang.StackOverflowError"), r.error);
    }
}
