package io.ringlab.engine.kernel;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.util.function.BiConsumer;

import org.junit.jupiter.api.Test;

import io.ringlab.buffer.api.Buffer;
import io.ringlab.sim.api.Element;
import io.ringlab.sim.api.ElementContext;
import io.ringlab.sim.api.ElementFactory;
import io.ringlab.sim.api.dto.ElementDescriptorDTO;
import io.ringlab.sim.api.dto.InvariantReportDTO;
import io.ringlab.sim.api.dto.PortDescriptorDTO;

/** The end-of-run checks find what they are meant to find, and name the owner. */
class InvariantTest {

    /** A sink whose behaviour per packet the test chooses. */
    static ElementFactory faulty(String type, BiConsumer<ElementContext, Buffer> onPacket) {
        return new ElementFactory() {
            @Override
            public ElementDescriptorDTO descriptor() {
                ElementDescriptorDTO d = new ElementDescriptorDTO();
                d.type = type;
                d.category = ElementDescriptorDTO.SINK;
                d.ports.add(PortDescriptorDTO.of("in", PortDescriptorDTO.Direction.IN, PortDescriptorDTO.Mode.PUSH, true, "x"));
                return d;
            }

            @Override
            public Element create(ElementContext ctx) {
                return new Element() {
                    @Override
                    public void push(int port, Buffer b) {
                        onPacket.accept(ctx, b);
                    }
                };
            }
        };
    }

    private static InvariantReportDTO run(ElementFactory sink) throws Exception {
        return Pipelines.build(new TestRegistry().with(sink), """
                duration = 1ms
                element src : source { rate = 1Gbit; size = 1518B; count = 10 }
                element bad : %s
                src -> bad
                """.formatted(sink.descriptor().type), 1).run().invariants;
    }

    @Test
    void aCleanPipelineHoldsBothInvariantsWithPacketsInFlight() throws Exception {
        // stopped while frames are on a long wire: in flight is counted by walking, not by subtraction
        var r = Pipelines.build("""
                duration = 1ms
                element src : source { rate = 1Gbit; size = 1518B }
                element q : pfifo
                element eth0 : netdev
                element wire : link { rate = 1Gbit; delay = 500us }
                element sink : sink
                src -> q -> eth0 -> wire -> sink
                """, 1).run().invariants;
        assertTrue(r.packetConservation, r.violations.toString());
        assertTrue(r.bufferConservation, r.violations.toString());
        assertTrue(r.inFlight > 30, "inFlight=" + r.inFlight);
        assertEquals(r.generated, r.delivered + r.dropped + r.inFlight);
        assertEquals(r.inFlight, r.buffersInUse);
    }

    @Test
    void aLeakedBufferIsReportedWithItsOwner() throws Exception {
        var r = run(faulty("leaker", (ctx, b) -> { }));
        assertFalse(r.packetConservation);
        assertFalse(r.bufferConservation);
        assertEquals(10L, r.leaksByOwner.get("bad"));
        assertTrue(r.violations.stream().anyMatch(v -> v.contains("leak") && v.contains("bad")), r.violations.toString());
    }

    @Test
    void aDoubleFreeIsRefusedAndReportedWithTheElementThatDidIt() throws Exception { // and stops the run (FaultTest)
        int[] reason = {-1};
        var r = run(faulty("doublefree", (ctx, b) -> {
            if (reason[0] < 0) {
                reason[0] = ctx.dropReason("test");
            }
            ctx.deliver(0, b);
            ctx.drop(0, b, reason[0]);
        }));
        assertFalse(r.bufferConservation);
        assertEquals(1L, r.doubleFreesByOwner.get("bad (pool src.pool)"), "the run stops at the first double free");
        assertEquals(1, r.buffersFreed, "the second free was not applied");
        assertTrue(r.violations.stream().anyMatch(v -> v.startsWith("double free") && v.contains("bad")), r.violations.toString());
    }

    @Test
    void dropsAreCountedByNamedReason() throws Exception {
        var r = Pipelines.build("""
                duration = 1ms
                element src : source { rate = 10Gbit; size = 1518B }
                element q : pfifo { limit = 5 }
                element eth0 : netdev { ring = 4 }
                element wire : link { rate = 1Gbit }
                element sink : sink
                src -> q -> eth0 -> wire -> sink
                """, 1).run().invariants;
        assertTrue(r.packetConservation, r.violations.toString());
        assertTrue(r.droppedByReason.get("qdisc-overlimit") > 0);
        assertEquals(r.dropped, r.droppedByReason.values().stream().mapToLong(Long::longValue).sum());
    }
}
