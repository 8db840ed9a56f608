package io.ringlab.engine.kernel;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.util.List;
import java.util.Map;

import org.junit.jupiter.api.Test;

import io.ringlab.buffer.api.Buffer;
import io.ringlab.sim.api.Element;
import io.ringlab.sim.api.ElementContext;
import io.ringlab.sim.api.ElementFactory;
import io.ringlab.sim.api.PipelineException;
import io.ringlab.sim.api.dto.ElementDescriptorDTO;
import io.ringlab.sim.api.dto.ProblemDTO;
import io.ringlab.sim.api.dto.PropertyDescriptorDTO;
import io.ringlab.sim.api.dto.PropertyDescriptorDTO.Kind;

/**
 * A run's pools and histograms are counted against the JVM's heap before they are created, and a pipeline that cannot
 * fit is refused with the element's position, the sizes and what to do (four sources with {@code buffers = 16777216}
 * died with OutOfMemoryError while they were created, issue 15). The budget is this JVM's: the test asks for a share of
 * {@code Runtime.maxMemory()}, which the refusal means nothing is allocated for.
 */
class HeapBudgetTest {
    /** A sink that asks for a pool of {@code buffers} buffers of 64 bytes. */
    private static final class Hoarder implements ElementFactory {
        @Override
        public ElementDescriptorDTO descriptor() {
            ElementDescriptorDTO d = TestTypes.descriptor("hoarder", TestTypes.in("in"));
            d.ports.get(0).required = false;
            d.properties.add(PropertyDescriptorDTO.of("buffers", Kind.INTEGER, "1", "1", "2147483647", "its pool's size"));
            return d;
        }

        @Override
        public Element create(ElementContext ctx) {
            ctx.pool("fixed", "hoard", (int) ctx.config().getLong("buffers"), 64, Map.of());
            return new Element() {
                @Override
                public void push(int port, Buffer b) {
                    ctx.deliver(0, b);
                }
            };
        }
    }

    @Test
    void poolsBeyondTheHeapAreRefusedBeforeTheyAreCreatedAtTheElementThatAsks() {
        long budget = (long) (Runtime.getRuntime().maxMemory() * HeapBudget.HEAP_SHARE);
        long tooMany = budget / HeapBudget.BUFFER_BYTES + 1; // alone past the budget: refused, so never allocated
        assertTrue(tooMany < Integer.MAX_VALUE, "a heap this large needs another test: " + budget);
        String text = """
                duration = 1ms
                element a : hoarder { buffers = 1000 }
                element b : hoarder { buffers = %d }
                element c : hoarder { buffers = %d }
                """.formatted(tooMany, Integer.MAX_VALUE);
        PipelineException e = assertThrows(PipelineException.class,
                () -> Pipelines.build(new TestRegistry().with(new Hoarder()), text, 1));
        List<ProblemDTO> p = e.problems();
        assertEquals(2, p.size(), p.toString());
        assertEquals(3, p.get(0).line);
        String m = p.get(0).message;
        assertTrue(m.startsWith("element b: pool b.hoard needs about "), m);
        assertTrue(m.contains("% of the JVM's ") && m.contains("the largest: pool b.hoard")
                && m.contains("JAVA_TOOL_OPTIONS=-Xmx"), m);
        assertEquals(4, p.get(1).line);
        assertTrue(p.get(1).message.startsWith("element c: pool c.hoard needs about ")
                && p.get(1).message.endsWith("more of heap, which the run has not got either (see the first such problem)"),
                p.get(1).message);
    }
}
