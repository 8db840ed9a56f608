package io.ringlab.engine.kernel;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertNotNull;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.util.concurrent.TimeUnit;
import java.util.function.Function;

import org.junit.jupiter.api.Test;

import io.ringlab.buffer.api.Buffer;
import io.ringlab.buffer.api.BufferVisitor;
import io.ringlab.pipeline.format.PipelineReader;
import io.ringlab.sim.api.Element;
import io.ringlab.sim.api.ElementContext;
import io.ringlab.sim.api.ElementFactory;
import io.ringlab.sim.api.RunState;
import io.ringlab.sim.api.dto.ElementDescriptorDTO;
import io.ringlab.sim.api.dto.PortDescriptorDTO;
import io.ringlab.sim.api.dto.RunOptionsDTO;
import io.ringlab.sim.api.dto.RunResultDTO;

/** Broken elements end their run with a result, never a hang, and the report names the right element. */
class RobustnessTest {
    static ElementFactory custom(String type, Function<ElementContext, Element> make) {
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
                return make.apply(ctx);
            }
        };
    }

    private static RunImpl one(ElementFactory f, String extra) throws Exception {
        return Pipelines.build(new TestRegistry().with(f), """
                duration = 1ms
                element src : source { rate = 1Gbit; size = 1518B %s }
                element s : %s
                src -> s
                """.formatted(extra, f.descriptor().type), 1);
    }

    @Test
    void aRunWhoseInvariantWalkThrowsStillEndsWithAResult() throws Exception {
        RunImpl run = one(custom("badwalk", ctx -> new Element() {
            @Override
            public void push(int p, Buffer b) {
                ctx.deliver(0, b);
            }

            @Override
            public void forEachHeld(BufferVisitor v) {
                throw new IllegalStateException("walk broken");
            }
        }), "");
        run.start();
        RunResultDTO r = run.await(30, TimeUnit.SECONDS);
        assertNotNull(r, "await never returned: " + run.state());
        assertEquals("FAILED", r.state);
        assertTrue(r.error.contains("walk broken"), r.error);
        assertEquals(RunState.FAILED, run.state());
        assertNotNull(run.completion().toCompletableFuture().getNow(null), "completion completed");
    }

    @Test
    void anAssertionErrorInAnElementEndsTheRun() throws Exception {
        RunImpl run = one(custom("asserter", ctx -> new Element() {
            @Override
            public void push(int p, Buffer b) {
                throw new AssertionError("model invariant");
            }
        }), "");
        run.start();
        RunResultDTO r = run.await(30, TimeUnit.SECONDS);
        assertNotNull(r);
        assertEquals("FAILED", r.state);
        assertTrue(r.error.startsWith("element s (type asserter): threw java.lang.AssertionError: model invariant"), r.error);
        assertTrue(r.events >= 1, "the failing event is counted: events=" + r.events);
    }

    @Test
    void theFailingElementIsNamedWhenTwoElementsShareAClass() throws Exception {
        ElementFactory f = custom("picky", ctx -> new Element() {
            @Override
            public void push(int p, Buffer b) {
                if (ctx.name().equals("second")) {
                    throw new IllegalStateException("boom");
                }
                ctx.deliver(0, b);
            }
        });
        RunResultDTO r = Pipelines.build(new TestRegistry().with(f), """
                duration = 1ms
                element a : source { rate = 1Gbit; size = 1518B }
                element first : picky
                element b : source { rate = 1Gbit; size = 1518B; start = 100us }
                element second : picky
                a -> first
                b -> second
                """, 1).run();
        assertTrue(r.error.startsWith("element second (type picky)"), r.error);
    }

    @Test
    void aRecycledBufferIsDroppedOnceAndNotAlsoInFlight() throws Exception {
        RunResultDTO r = one(custom("recycler", ctx -> new Element() {
            final Buffer[] ring = new Buffer[64];
            int used;
            final int reason = ctx.dropReason("rx-recycled");

            @Override
            public void push(int p, Buffer b) {
                ctx.recycle(b, reason);
                ring[used++] = b;
            }

            @Override
            public void forEachHeld(BufferVisitor v) {
                for (int i = 0; i < used; i++) {
                    v.visit(ring[i]);
                }
            }
        }), "; count = 10").run();
        assertTrue(r.invariants.packetConservation, r.invariants.violations.toString());
        assertTrue(r.invariants.bufferConservation, r.invariants.violations.toString());
        assertEquals(10L, r.invariants.droppedByReason.get("rx-recycled"));
        assertEquals(0, r.invariants.inFlight);
        assertEquals(10, r.invariants.buffersHeld, "the recycled buffers stay allocated, held by their element");
    }

    @Test
    void preparingWithOverridesLeavesTheCallersPipelineUnchanged() throws Exception {
        var pipeline = PipelineReader.read("ab.pipeline", """
                duration = 1ms
                element src : source { rate = 1Gbit; size = 1518B }
                element q : pfifo
                element eth0 : netdev
                element wire : link
                element sink : sink
                src -> q -> eth0 -> wire -> sink
                """);
        RunOptionsDTO a = new RunOptionsDTO();
        a.overrides.add("eth0.bql=true");
        new PipelineBuilder(new TestRegistry()).build(pipeline, a);
        assertFalse(pipeline.elements.get(2).properties.containsKey("bql"), "the caller's pipeline kept the override");
    }

    @Test
    void stoppingARunThatNeverStartedEndsItAtOnce() throws Exception {
        RunImpl run = one(custom("quiet", ctx -> new Element() {
            @Override
            public void push(int p, Buffer b) {
                ctx.deliver(0, b);
            }
        }), "");
        run.stop();
        RunResultDTO r = run.await(0, TimeUnit.SECONDS);
        assertNotNull(r);
        assertEquals("STOPPED", r.state);
        assertEquals(0, r.events);
    }
}
