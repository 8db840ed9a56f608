package io.ringlab.engine.kernel;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertNull;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;
import java.util.concurrent.atomic.AtomicReference;

import org.junit.jupiter.api.Test;

import io.ringlab.sim.api.dto.RunResultDTO;

/**
 * An engine thread asked for a nice value runs at it (read back from the kernel, {@code /proc/thread-self/stat}), and so
 * do the JVM's JIT compiler threads; the thread that started the run keeps its own. Ringlab's machines are Linux; the test requires
 * {@code /proc/thread-self} rather than passing without it.
 */
class EngineNiceTest {

    @Test
    void aThreadLowersItselfAndOnlyItself() throws Exception {
        assertTrue(Files.isSymbolicLink(Path.of("/proc/thread-self")), "Linux's /proc/thread-self");
        int before = EngineNice.current();
        AtomicReference<Object> seen = new AtomicReference<>();
        Thread t = new Thread(() -> {
            try {
                String why = EngineNice.lower(Math.max(before, 0) + 7);
                seen.set(why != null ? why : EngineNice.current());
            } catch (Exception e) {
                seen.set(e);
            }
        });
        t.start();
        t.join();
        assertEquals(Math.max(before, 0) + 7, seen.get(), "the thread's nice value after lowering itself");
        assertEquals(before, EngineNice.current(), "the calling thread keeps its own");
        assertTrue(compilerThreadsRunning() > 0, "the JVM has JIT compiler threads");
        assertEquals(List.of(), EngineNice.compilerThreads(Math.max(before, 0) + 7),
                "no compiler thread below the nice value asked");
    }

    /** @return the JVM's threads named as HotSpot's C1 and C2 compiler threads */
    private static long compilerThreadsRunning() throws Exception {
        try (var tasks = Files.list(Path.of("/proc/self/task"))) {
            return tasks.filter(t -> {
                try {
                    return Files.readString(t.resolve("comm")).strip().matches("C[12] CompilerThre");
                } catch (Exception e) {
                    return false;
                }
            }).count();
        }
    }

    @Test
    void aRunsEngineThreadRunsAtTheNiceValueAsked() throws Exception {
        int before = EngineNice.current();
        int asked = Math.min(EngineNice.MAX, Math.max(before, 0) + 5);
        RunImpl run = Pipelines.build("""
                duration = 1ms
                element src : source { rate = 1Gbit; size = 64B }
                element sink : sink { }
                src -> sink
                """, 1);
        run.engineNice(asked);
        RunResultDTO r = run.run();
        assertNull(r.error, r.error);
        assertEquals(asked, run.engineNiceSeen(), "the engine thread's nice value, read back from the kernel");
        assertEquals(before, EngineNice.current(), "the caller's is untouched");
        assertThrows(IllegalArgumentException.class, () -> run.engineNice(20));
        assertThrows(IllegalArgumentException.class, () -> EngineNice.lower(0));
    }
}
