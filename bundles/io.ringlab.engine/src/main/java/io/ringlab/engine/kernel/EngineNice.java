package io.ringlab.engine.kernel;

import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.DirectoryStream;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicBoolean;

/**
 * Lowers the calling thread's scheduling priority to a nice value, and the JVM's JIT compiler threads' with it, on Linux:
 * the framework property {@code ringlab.engineNice} (the console sets it) asks each engine thread to do so as it starts,
 * so that a run going flat out leaves the UI thread (and the X server) the CPU when they want it. On this 2-core machine
 * the console's first snapshot of a full-speed run stalled its UI thread 90-180 ms, and the compiler threads took 1.8-2.0
 * s of CPU during a 1.7-1.9 s run, beside the engine thread (ConsoleBenchmarkGuiTest, issue 20). The compiler threads
 * stay lowered (raising a nice value back needs a privilege); threads the JVM starts later are lowered by the next run.
 * The simulation's results do not depend on any of it.
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

    /** The JVM's JIT compiler threads by their kernel names ({@code comm}, 15 characters): HotSpot's C1 and C2. */
    private static final List<String> COMPILER_THREADS = List.of("C1 CompilerThre", "C2 CompilerThre");

    /**
     * Lowers the calling thread to {@code nice}, and every JIT compiler thread of the JVM that runs at a lower one.
     *
     * @param nice 1 to {@link #MAX}
     * @return {@code null} when done, else why not
     */
    static String lower(int nice) {
        if (nice < 1 || nice > MAX) {
            throw new IllegalArgumentException("nice " + nice + ": allowed 1 to " + MAX);
        }
        Path self = Path.of("/proc/thread-self");
        List<String> tids = new ArrayList<>();
        try {
            tids.add(Files.readSymbolicLink(self).getFileName().toString());
        } catch (IOException | UnsupportedOperationException e) {
            return "no " + self + " to find the engine thread's id (" + e.getMessage() + ")";
        }
        tids.addAll(compilerThreads(nice));
        List<String> command = new ArrayList<>(List.of("renice", "-n", Integer.toString(nice), "-p"));
        command.addAll(tids);
        try {
            Process p = new ProcessBuilder(command).redirectErrorStream(true).start();
            String out = new String(p.getInputStream().readAllBytes(), StandardCharsets.UTF_8).strip();
            if (!p.waitFor(10, TimeUnit.SECONDS)) {
                p.destroyForcibly();
                return "renice did not finish within 10 s";
            }
            // a compiler thread may have ended since it was listed: only the engine thread's own failure counts
            return p.exitValue() == 0 || current() == nice ? null
                    : String.join(" ", command) + " exited with " + p.exitValue() + ": " + out;
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
        return nice(Path.of("/proc/thread-self/stat"));
    }

    /** @return the ids of the JVM's JIT compiler threads whose nice value is below {@code nice}; none off Linux */
    static List<String> compilerThreads(int nice) {
        List<String> tids = new ArrayList<>();
        try (DirectoryStream<Path> tasks = Files.newDirectoryStream(Path.of("/proc/self/task"))) {
            for (Path t : tasks) {
                try {
                    if (COMPILER_THREADS.contains(Files.readString(t.resolve("comm")).strip())
                            && nice(t.resolve("stat")) < nice) {
                        tids.add(t.getFileName().toString());
                    }
                } catch (IOException | RuntimeException e) {
                    // the thread ended meanwhile
                }
            }
        } catch (IOException e) {
            // no /proc: nothing to lower
        }
        return tids;
    }

    /** @return the nice value in a {@code /proc/.../stat} file (field 19) */
    private static int nice(Path stat) throws IOException {
        String s = Files.readString(stat);
        String[] f = s.substring(s.lastIndexOf(')') + 2).split(" ");
        return Integer.parseInt(f[16]); // fields from 3 on: nice is field 19
    }
}
