package io.ringlab.cli;

import java.io.IOException;
import java.nio.channels.FileChannel;
import java.nio.channels.FileLock;
import java.nio.channels.OverlappingFileLockException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.StandardOpenOption;
import java.util.ArrayList;
import java.util.Comparator;
import java.util.List;
import java.util.stream.Stream;

import org.osgi.service.component.annotations.Activate;
import org.osgi.service.component.annotations.Component;

/**
 * A process's temporary files (the framework's bundle cache {@code osgi.*.fw}, the launcher's extracted
 * {@code resource*.jar}, fileinstall's {@code fileinstall-*} copies, and any library's, since the JVM's
 * {@code java.io.tmpdir} points there) live in a folder of its own, {@code ${TMPDIR:-/tmp}/ringlab-USER/PID}, which the
 * {@code ringlab} launcher creates with a file {@code pid} and names in the system property {@value #PROPERTY}.
 * <p>
 * While the process lives it holds a lock on the folder's {@code lock} file ({@link FileChannel#lock()}; the operating
 * system releases it when the process ends, however it ends). At startup it removes the sibling folders of processes
 * that are gone: a folder whose lock is free and whose {@code pid} names no live process. A folder whose lock is held,
 * or whose process is alive (it may be starting, not yet holding its lock), is never touched: {@code ringlab ab} runs,
 * the console's child runs and parallel CI jobs run side by side. A child run of the console shares the console's
 * folder and claims none of its own.
 */
@Component(service = {}, immediate = true)
public class ProcessTempFolder {
    /** The system property that names this process's folder (the launcher sets it). */
    static final String PROPERTY = "ringlab.tmp";
    /** A folder without a {@code pid} file younger than this may be one the launcher is creating: it is kept. */
    static final long YOUNG_MILLIS = 60_000;

    /** The lock this process holds on its own folder, for the process's whole life; {@code null} before the claim. */
    private static FileChannel held;

    @Activate
    void activate() {
        String own = System.getProperty(PROPERTY);
        if (own != null) {
            try {
                claim(Path.of(own));
            } catch (IOException e) {
                System.err.println("ringlab: temporary folder " + own + ": "
                        + io.ringlab.pipeline.format.OutputFile.reason(e) + "; stale folders are not removed");
            }
        }
    }

    /**
     * Takes this process's lock on {@code own} (once per process: a bundle restart finds it held) and removes the stale
     * sibling folders.
     *
     * @return the folders removed
     */
    static synchronized List<Path> claim(Path own) throws IOException {
        if (held == null) {
            Files.writeString(own.resolve("pid"), Long.toString(ProcessHandle.current().pid()), StandardCharsets.UTF_8);
            FileChannel ch = FileChannel.open(own.resolve("lock"), StandardOpenOption.CREATE, StandardOpenOption.WRITE);
            ch.lock();
            held = ch;
        }
        return removeStale(own.getParent(), own);
    }

    /** @return the folders under {@code base} other than {@code own} whose process is gone, which it removed */
    static List<Path> removeStale(Path base, Path own) throws IOException {
        List<Path> removed = new ArrayList<>();
        List<Path> folders;
        try (Stream<Path> s = Files.list(base)) {
            folders = s.filter(Files::isDirectory).filter(d -> !d.equals(own)).toList();
        }
        for (Path d : folders) {
            if (stale(d)) {
                delete(d);
                removed.add(d);
            }
        }
        return removed;
    }

    /** @return whether {@code folder}'s lock is free and its process is gone */
    static boolean stale(Path folder) {
        Path pid = folder.resolve("pid");
        try {
            if (!Files.exists(pid)) {
                return System.currentTimeMillis() - Files.getLastModifiedTime(folder).toMillis() > YOUNG_MILLIS;
            }
            long p = Long.parseLong(Files.readString(pid, StandardCharsets.UTF_8).strip());
            if (ProcessHandle.of(p).map(ProcessHandle::isAlive).orElse(false)) {
                return false; // alive, perhaps still starting: its lock may not be taken yet
            }
            Path lock = folder.resolve("lock");
            if (!Files.exists(lock)) {
                return true;
            }
            try (FileChannel ch = FileChannel.open(lock, StandardOpenOption.WRITE)) {
                FileLock l = ch.tryLock();
                if (l == null) {
                    return false; // another process holds it
                }
                l.release();
                return true;
            } catch (OverlappingFileLockException mine) {
                return false; // this process holds it
            }
        } catch (IOException | NumberFormatException e) {
            return false; // not a folder this class can judge: left alone
        }
    }

    private static void delete(Path folder) {
        try (Stream<Path> s = Files.walk(folder)) {
            s.sorted(Comparator.reverseOrder()).forEach(p -> {
                try {
                    Files.deleteIfExists(p);
                } catch (IOException e) {
                    // another starting process removes the same folder, or a file is not ours: what is left stays
                }
            });
        } catch (IOException e) {
            // removed meanwhile
        }
    }
}
