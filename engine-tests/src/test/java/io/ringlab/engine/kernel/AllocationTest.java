package io.ringlab.engine.kernel;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;
import static org.junit.jupiter.api.Assumptions.assumeTrue;

import org.junit.jupiter.api.Test;

/** The engine allocates nothing per event or per packet in steady state: a measurement of bytes, not of time. */
class AllocationTest {

    private static final String LINE_RATE = """
            name = "alloc"
            element src : source { rate = 100Gbit; size = 64B; burst = 64; flows = 16 }
            element q : pfifo { limit = 1000 }
            element eth0 : netdev { ring = 1024; bql = true }
            element wire : link { rate = 100Gbit; batch = 64; delay = 1us }
            element sink : sink
            src -> q -> eth0 -> wire -> sink
            """;

    private static long steadyStateBytes(String pipeline) throws Exception {
        RunImpl run = Pipelines.build(pipeline, 1);
        Simulation sim = run.simulation();
        long end = 1_000L * 1_000_000_000_000L; // far beyond both windows
        sim.start(end, end / 10);
        sim.advance(end, 2_000_000); // warm-up: rings reach their sizes, the JIT compiles the hot paths
        long before = Allocation.currentThreadAllocatedBytes();
        long events = sim.advance(end, 2_000_000);
        long after = Allocation.currentThreadAllocatedBytes();
        assertEquals(2_000_000, events, "the window must be all steady state");
        assertTrue(sim.generated > 1_000_000, "packets=" + sim.generated);
        return after - before;
    }

    @Test
    void aLineRatePipelineAllocatesNothingInSteadyState() throws Exception {
        assumeTrue(Allocation.currentThreadAllocatedBytes() >= 0, "this JVM does not count allocated bytes");
        assertEquals(0, steadyStateBytes(LINE_RATE));
    }

    @Test
    void aPipelineWithCpuWorkAndRandomnessAllocatesNothingInSteadyState() throws Exception {
        assumeTrue(Allocation.currentThreadAllocatedBytes() >= 0, "this JVM does not count allocated bytes");
        assertEquals(0, steadyStateBytes(Pipelines.RANDOM));
    }
}
