package io.ringlab.workspace.tests;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertNotNull;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.nio.file.Path;
import java.util.LinkedHashMap;
import java.util.Map;
import java.util.concurrent.TimeUnit;

import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.ExtendWith;
import org.junit.jupiter.api.io.TempDir;
import org.osgi.framework.Bundle;
import org.osgi.framework.BundleContext;
import org.osgi.test.common.annotation.InjectBundleContext;
import org.osgi.test.common.annotation.InjectService;
import org.osgi.test.junit5.context.BundleContextExtension;
import org.osgi.test.junit5.service.ServiceExtension;

import io.ringlab.pipeline.format.PipelineReader;
import io.ringlab.sim.api.SimulationRun;
import io.ringlab.sim.api.Simulator;
import io.ringlab.sim.api.dto.RunOptionsDTO;
import io.ringlab.sim.api.dto.RunResultDTO;
import io.ringlab.workspace.tests.faulty.FaultyFactory;

/**
 * Fault isolation with a real third-party bundle ({@code io.ringlab.test.faulty}, built here from the classes of
 * {@code io.ringlab.workspace.tests.faulty}): an element that throws, loops, leaks buffers or frees one twice is stopped
 * with a report that names its element, type and bundle and what it did, and the engine goes on: another run in the
 * same framework finishes, before and after. (The console's child process for untrusted bundles: the tests in workspace-tests/gui:
 * DropInGuiTest.)
 */
@ExtendWith({BundleContextExtension.class, ServiceExtension.class})
class FaultIsolationTest {
    private static final String BSN = "io.ringlab.test.faulty";
    private static final String BUNDLE = "bundle " + BSN + ":1.0.0";

    @InjectBundleContext
    BundleContext context;

    @InjectService
    Simulator simulator;

    @TempDir
    Path dir;

    /** Installs the faulty bundle (the injected context uninstalls it after each test) and waits for its four types. */
    @BeforeEach
    void installTheFaultyBundle() throws Exception {
        Map<String, String> components = new LinkedHashMap<>();
        for (String type : FaultyFactory.TYPES) {
            components.put(type + ".xml", TestBundles.component(type, FaultyFactory.class, type, "activate", ""));
        }
        Path jar = TestBundles.write(context.getBundle(), dir.resolve("faulty.jar"), BSN, FaultyFactory.class, components,
                TestBundles.imports(""));
        Bundle b = context.installBundle(jar.toUri().toString());
        b.start();
        Await.until(() -> simulator.elementTypes().stream().filter(d -> d.type.startsWith("faulty-")).count() == 4,
                "the four faulty element types");
    }

    @AfterAll
    static void releaseTheLoop() {
        System.setProperty(FaultyFactory.RELEASE, "true"); // the abandoned engine thread leaves its loop
    }

    private SimulationRun prepare(String type, long watchdogMillis) throws Exception {
        RunOptionsDTO o = new RunOptionsDTO();
        o.seed = 1L;
        o.eventWatchdogMillis = watchdogMillis;
        return simulator.prepare(PipelineReader.read("faulty.pipeline", """
                duration = 1ms
                element src : source { rate = 1Gbit; size = 1518B }
                element bad : %s
                src -> bad
                """.formatted(type)), o);
    }

    private RunResultDTO run(String type) throws Exception {
        return prepare(type, 0).run();
    }

    /** @return a run of Ringlab's own elements: it finishes whatever the faulty ones did */
    private RunResultDTO healthyRun() throws Exception {
        RunOptionsDTO o = new RunOptionsDTO();
        o.durationPicos = 1_000_000_000L;
        return simulator.prepare(PipelineReader.read("healthy.pipeline", """
                element src : source { rate = 1Gbit; size = 1518B }
                element snk : sink
                src -> snk
                """), o).run();
    }

    private static String element(String type) {
        return "element bad (type " + type + ", " + BUNDLE + ")";
    }

    @Test
    void anElementThatThrowsEndsItsRunWithTheExceptionItsBundleAndTheFrame() throws Exception {
        assertEquals("FINISHED", healthyRun().state, "before");
        RunResultDTO r = run(FaultyFactory.THROW);

        assertEquals("FAILED", r.state);
        assertTrue(r.error.startsWith(element(FaultyFactory.THROW) + ": threw java.lang.IllegalStateException: descriptor"
                + " ring corrupted at packet 3") && r.error.contains("at " + FaultyFactory.class.getName()), r.error);
        assertEquals(3, r.invariants.generated, "stopped at the third packet");
        assertEquals("FINISHED", healthyRun().state);
    }

    @Test
    void anElementThatLoopsIsStoppedByTheWatchdogAndAnotherRunFinishesMeanwhile() throws Exception {
        SimulationRun stuck = prepare(FaultyFactory.LOOP, 2000);
        stuck.start();
        Await.until(() -> Boolean.getBoolean(FaultyFactory.LOOPING), "the element in its loop");
        assertEquals(null, stuck.await(0, TimeUnit.SECONDS), "still stuck when the other run starts");
        RunResultDTO other = healthyRun();
        RunResultDTO r = stuck.await(30, TimeUnit.SECONDS);

        assertEquals("FINISHED", other.state, other.error);
        assertNotNull(r, "the watchdog ended the stuck run");
        assertEquals("FAILED", r.state);
        assertTrue(r.error.startsWith(element(FaultyFactory.LOOP) + " has run one event for ")
                && r.error.contains("without returning (an endless loop?) at " + FaultyFactory.class.getName())
                && r.error.contains("stopped by the watchdog"), r.error);
        assertEquals("FINISHED", healthyRun().state, "the engine goes on with a thread abandoned");
    }

    @Test
    void anElementThatLeaksIsNamedWithItsBundleByTheEndOfRunWalk() throws Exception {
        RunResultDTO r = run(FaultyFactory.LEAK);

        assertEquals("FINISHED", r.state, r.error);
        assertFalse(r.invariants.bufferConservation);
        long generated = r.invariants.generated;
        assertEquals(generated - 2, r.invariants.leaksByOwner.get("bad"), r.invariants.leaksByOwner.toString());
        assertTrue(r.invariants.violations.stream().anyMatch(v -> v.contains("leak") && v.contains(element(
                FaultyFactory.LEAK).substring("element ".length()))), r.invariants.violations.toString());
    }

    @Test
    void anElementThatFreesABufferTwiceIsStoppedAtOnce() throws Exception {
        RunResultDTO r = run(FaultyFactory.TWICE);

        assertEquals("FAILED", r.state);
        assertTrue(r.error.matches(java.util.regex.Pattern.quote(element(FaultyFactory.TWICE)) + ": freed buffer \\d+ of"
                + " pool src.pool a second time \\(a double free, refused; its last owner was bad\\)"), r.error);
        assertEquals(1L, r.invariants.doubleFreesByOwner.get("bad (pool src.pool)"));
        assertEquals(3, r.invariants.generated, "stopped at the first");
        assertEquals("FINISHED", healthyRun().state);
    }
}
