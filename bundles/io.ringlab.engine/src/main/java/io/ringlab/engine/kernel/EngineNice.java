package io.ringlab.engine.kernel;

import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicBoolean;

/**
 * Lowers the calling thread's scheduling priority to a nice value, on Linux: the framework property
 * {@code ringlab.engineNice} (the console sets it) asks each engine thread to do so as it starts, so that a run going
 * flat out leaves the UI thread (and the X server) the CPU when both want it: on this 2-core machine the console's
 * first snapshot of a full-speed run stalled its UI thread 90-180 ms while the engine thread and the JIT's compiler
 * threads held both cores (ConsoleBenchmarkGuiTest, issue 20). Only the engine thread is lowered; the simulation's
 * results do not depend on it.
 * <p>
 * Java has no call for a thread's nice value (its priorities are ignored on Linux unless the JVM runs with
 * {@code -XX:ThreadPriorityPolicy=1}, which warns every unprivileged user), so the thread finds its own kernel id
 * ({@code /proc/thread-self} links to {@code PID/task/TID}) and runs util-linux's {@code renice -n N -p TID}. Raising a
 * nice value needs no privilege. Where that cannot be done (no {@code /proc/thread-self}, no {@code renice}), the run
 * goes on at the normal priority and the process says why once, on standard error.
 */
final class EngineNice {
    /** The highest nice value Linux allows (the lowest priority). */
    static final int MAX = 19;
    private static final AtomicBoolean TOLD = new AtomicBoolean();

    private EngineNice() {
    }

    /**
     * Lowers the calling thread to {@code nice}.
     *
     * @param nice 1 to {@link #MAX}
     * @return {@code null} when done, else why not
     */
    static String lower(int nice) {
        if (nice < 1 || nice > MAX) {
            throw new IllegalArgumentException("nice " + nice + ": allowed 1 to " + MAX);
        }
        Path self = Path.of("/proc/thread-self");
        String tid;
        try {
            tid = Files.readSymbolicLink(self).getFileName().toString();
        } catch (IOException | UnsupportedOperationException e) {
            return "no " + self + " to find the engine thread's id (" + e.getMessage() + ")";
        }
        try {
            Process p = new ProcessBuilder("renice", "-n", Integer.toString(nice), "-p", tid).redirectErrorStream(true)
                    .start();
            String out = new String(p.getInputStream().readAllBytes(), StandardCharsets.UTF_8).strip();
            if (!p.waitFor(10, TimeUnit.SECONDS)) {
                p.destroyForcibly();
                return "renice did not finish within 10 s";
            }
            return p.exitValue() == 0 ? null : "renice -n " + nice + " -p " + tid + " exited with " + p.exitValue() + ": " + out;
        } catch (IOException e) {
            return "cannot run renice (util-linux): " + e.getMessage();
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
            return "interrupted";
        }
    }

    /**
     * {@link #lower}, saying on standard error, once per process, why it could not.
     *
     * @return the thread's nice value now, as the kernel reports it; -1 when it cannot be read
     */
    static int lowerOrSay(int nice) {
        String why = lower(nice);
        if (why != null && TOLD.compareAndSet(false, true)) {
            System.err.println("ringlab: the engine thread runs at the normal priority (ringlab.engineNice=" + nice + "): "
                    + why);
        }
        try {
            return current();
        } catch (IOException | RuntimeException e) {
            return -1;
        }
    }

    /** @return the calling thread's nice value, from field 19 of {@code /proc/thread-self/stat} */
    static int current() throws IOException {
        String stat = Files.readString(Path.of("/proc/thread-self/stat"));
        String[] f = stat.substring(stat.lastIndexOf(')') + 2).split(" ");
        return Integer.parseInt(f[16]); // fields from 3 on: nice is field 19
    }
}
