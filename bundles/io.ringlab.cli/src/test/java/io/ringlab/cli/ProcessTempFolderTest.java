package io.ringlab.cli;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.io.BufferedReader;
import java.io.IOException;
import java.io.InputStreamReader;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;

import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * {@link ProcessTempFolder}: a starting process removes the folders of processes that are gone, never one whose lock is
 * held by another process or whose process lives.
 */
class ProcessTempFolderTest {
    @TempDir
    Path base;

    /** @return the PID of a process that has ended */
    private static long deadPid() throws Exception {
        Process p = new ProcessBuilder("true").start();
        assertEquals(0, p.waitFor());
        return p.pid();
    }

    private Path folder(String name, long pid) throws IOException {
        Path d = Files.createDirectories(base.resolve(name));
        Files.writeString(d.resolve("pid"), Long.toString(pid));
        Files.writeString(d.resolve("osgi.123.fw"), "cache");
        return d;
    }

    /** Starts a JVM that holds the lock of {@code folder} until its standard input closes; returns once it holds it. */
    private static Process holdLock(Path folder, Path dir) throws IOException {
        Path src = dir.resolve("Hold.java");
        Files.writeString(src, """
                import java.nio.channels.FileChannel;
                import java.nio.file.*;
                class Hold {
                    public static void main(String[] a) throws Exception {
                        FileChannel ch = FileChannel.open(Path.of(a[0]), StandardOpenOption.CREATE, StandardOpenOption.WRITE);
                        ch.lock();
                        System.out.println("locked");
                        System.in.read();
                    }
                }
                """);
        String java = ProcessHandle.current().info().command().orElseThrow();
        Process p = new ProcessBuilder(java, src.toString(), folder.resolve("lock").toString())
                .redirectError(ProcessBuilder.Redirect.INHERIT).start();
        BufferedReader r = new BufferedReader(new InputStreamReader(p.getInputStream(), StandardCharsets.UTF_8));
        assertEquals("locked", r.readLine(), "the child took the lock");
        return p;
    }

    @Test
    void aStaleFolderIsRemovedAndAHeldOrLiveOneSurvives(@TempDir Path work) throws Exception {
        long dead = deadPid();
        Path own = Files.createDirectories(base.resolve("own"));
        Path stale = folder("stale", dead);
        Files.writeString(stale.resolve("lock"), ""); // its process ended: the lock is free
        Path held = folder("held", dead); // a PID that is gone, but a process holds the lock
        Path starting = folder("starting", ProcessHandle.current().pid()); // alive, no lock taken yet
        Process holder = holdLock(held, work);
        try {
            List<Path> removed = ProcessTempFolder.claim(own);

            assertEquals(List.of(stale), removed);
            assertFalse(Files.exists(stale), "the stale folder is gone with its files");
            assertTrue(Files.exists(held.resolve("osgi.123.fw")), "a held lock keeps the folder");
            assertTrue(Files.exists(starting.resolve("osgi.123.fw")), "a live process keeps its folder");
            assertEquals(Long.toString(ProcessHandle.current().pid()), Files.readString(own.resolve("pid")));
        } finally {
            holder.getOutputStream().close();
            assertEquals(0, holder.waitFor());
        }
        assertEquals(List.of(held), ProcessTempFolder.removeStale(base, own), "its holder has ended");
        assertTrue(Files.exists(own.resolve("lock")), "a process never removes its own folder");
        assertFalse(ProcessTempFolder.stale(own), "this process lives");
    }
}
