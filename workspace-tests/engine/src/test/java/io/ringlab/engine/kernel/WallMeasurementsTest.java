package io.ringlab.engine.kernel;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import org.junit.jupiter.api.Test;

import io.ringlab.sim.api.dto.RunResultDTO;

import io.ringlab.conformance.ModelTests;

/**
 * A run measures its host as well as it can: the engine thread's CPU time over the event loop and the rates per CPU
 * second and per wall second (what {@code ringlab bench} reports). Nothing here is timed: only that the figures exist
 * and agree with each other and with the packets simulated.
 */
class WallMeasurementsTest {
    @Test
    void aRunReportsTheEngineThreadsCpuTimeAndThePacketsPerCpuSecond() throws Exception {
        RunResultDTO r = ModelTests.runConserved(Pipelines.RANDOM, 1);
        double cpu = r.wallMeasurements.get("engineCpuSeconds");
        assertTrue(cpu > 0, "this JVM measures thread CPU time (HotSpot on Linux): " + r.wallMeasurements);
        assertEquals(r.packets / cpu, r.wallMeasurements.get("packetsPerCpuSecond"), 1e-6 * r.packets / cpu);
        assertTrue(r.wallMeasurements.get("packetsPerSecond") > 0, r.wallMeasurements.toString());
    }
}
