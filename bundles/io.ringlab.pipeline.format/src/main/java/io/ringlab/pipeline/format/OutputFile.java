package io.ringlab.pipeline.format;

import java.io.BufferedOutputStream;
import java.io.IOException;
import java.io.OutputStream;
import java.nio.channels.Channels;
import java.nio.channels.FileChannel;
import java.nio.file.AccessDeniedException;
import java.nio.file.DirectoryNotEmptyException;
import java.nio.file.FileAlreadyExistsException;
import java.nio.file.FileSystemException;
import java.nio.file.FileSystemLoopException;
import java.nio.file.Files;
import java.nio.file.InvalidPathException;
import java.nio.file.LinkOption;
import java.nio.file.NoSuchFileException;
import java.nio.file.NotDirectoryException;
import java.nio.file.Path;
import java.nio.file.StandardCopyOption;
import java.nio.file.StandardOpenOption;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.ThreadLocalRandom;

import org.osgi.annotation.versioning.ConsumerType;

/**
 * How Ringlab writes an output file (a run's JSON, snapshots, plots, CSV, an exported or saved file), the one place that
 * does; the command line and the console both use it.
 * <ul>
 * <li>A path that exists and is not a regular file (a device such as {@code /dev/null}, a FIFO, {@code /dev/stdout} or
 * anything reached through {@code /proc} or {@code /dev/fd}) is written directly, in place: it is never replaced.</li>
 * <li>A symbolic link is followed to its target (also a dangling one): the link stays, the target is written.</li>
 * <li>A regular file, or one that does not exist yet, is written to a temporary file beside it (beside the link's target
 * for a link), named {@code .NAME.RANDOM.partial}, and renamed over it atomically once complete: a reader sees the old
 * file or the whole new one, never half. An existing file's permissions are kept. On any failure the temporary file is
 * removed.</li>
 * </ul>
 * {@link #problem} tells before any work whether a path can be written, in words a person reads (never an exception's
 * class name), and {@link #reason} words an {@link IOException} the same way. Thread-safe; its one state is the set of
 * writes under way, for {@link #abandonWrites}.
 *
 * @since 1.3
 */
public final class OutputFile {
    /** Links followed before a path counts as a loop (Linux's own limit, {@code MAXSYMLINKS}). */
    private static final int MAX_LINKS = 40;

    /** The temporary files of the writes under way, with their targets. */
    private static final Map<Path, Path> UNDER_WAY = new ConcurrentHashMap<>();

    /** Writes a file's content. */
    @ConsumerType
    @FunctionalInterface
    public interface Content {
        /**
         * @param out where the content goes; buffered; closed by the caller
         * @throws IOException when writing fails: the file is left as it was
         */
        void write(OutputStream out) throws IOException;
    }

    private OutputFile() {
    }

    /**
     * @param path an output path as given (an option's value)
     * @return why {@code path} cannot be written, in words ({@code "the folder /x does not exist"}), or {@code null}
     *         when it can
     */
    public static String problem(String path) {
        if (path == null || path.isBlank()) {
            return "the path is empty: give a file name";
        }
        Path p;
        try {
            p = Path.of(path);
        } catch (InvalidPathException e) {
            return "not a valid path (" + e.getReason() + ")";
        }
        return problem(p);
    }

    /**
     * @param path an output path
     * @return why {@code path} cannot be written, in words, or {@code null} when it can
     */
    public static String problem(Path path) {
        Path target;
        try {
            if (direct(path)) {
                return Files.isWritable(path) ? null : "not writable (permission denied)";
            }
            target = resolve(path);
        } catch (IOException e) {
            return reason(e);
        }
        if (Files.isDirectory(target)) {
            return (target.equals(path) ? "" : "it leads to " + target + ", which ") + "is a folder: give a file name";
        }
        Path folder = target.toAbsolutePath().getParent();
        if (folder == null) {
            return "has no folder to write in";
        }
        if (!Files.exists(folder)) {
            return "the folder " + folder + " does not exist";
        }
        if (!Files.isDirectory(folder)) {
            return folder + " is not a folder";
        }
        if (!Files.isWritable(folder)) {
            return "the folder " + folder + " is not writable (permission denied)";
        }
        if (Files.exists(target) && !Files.isWritable(target)) {
            return "the file " + target + " is not writable (permission denied)";
        }
        return null;
    }

    /**
     * Writes {@code content} to {@code path} by the rules of this class.
     *
     * @throws IOException when it cannot be written; its {@link #reason} says why in words
     */
    public static void write(Path path, Content content) throws IOException {
        if (direct(path)) {
            try (OutputStream out = new BufferedOutputStream(Files.newOutputStream(path, StandardOpenOption.WRITE,
                    StandardOpenOption.TRUNCATE_EXISTING), 1 << 16)) {
                content.write(out);
            }
            return;
        }
        Path target = resolve(path).toAbsolutePath();
        if (Files.isDirectory(target)) {
            throw new FileSystemException(target.toString(), null, "is a folder: give a file name");
        }
        Path partial = create(target);
        UNDER_WAY.put(partial, target);
        try {
            try (FileChannel ch = FileChannel.open(partial, StandardOpenOption.WRITE);
                    OutputStream out = new BufferedOutputStream(Channels.newOutputStream(ch), 1 << 16)) {
                content.write(out);
                out.flush();
                ch.force(true); // on disk before the rename makes it the file
            }
            if (Files.exists(target)) {
                keepPermissions(target, partial);
            }
            Files.move(partial, target, StandardCopyOption.REPLACE_EXISTING, StandardCopyOption.ATOMIC_MOVE);
        } finally {
            UNDER_WAY.remove(partial);
            Files.deleteIfExists(partial); // gone after the move; left after a failure
        }
    }

    /**
     * Removes the temporary files of the writes under way, for a process that ends before they complete (a signal's
     * time is up): their targets stay as they were, and the writes fail if they go on.
     *
     * @return the targets of the writes abandoned
     */
    public static List<Path> abandonWrites() {
        List<Path> targets = new ArrayList<>();
        for (Map.Entry<Path, Path> e : UNDER_WAY.entrySet()) {
            try {
                Files.deleteIfExists(e.getKey());
            } catch (IOException ignored) {
                // nothing more to do while the process ends
            }
            targets.add(e.getValue());
        }
        return targets;
    }

    /**
     * @param e why a file operation failed
     * @return the reason in words, without the exception's class: "no such file or folder: /x/y",
     *         "permission denied: /x"
     */
    public static String reason(IOException e) {
        String file = e instanceof FileSystemException f && f.getFile() != null ? f.getFile() : null;
        String words;
        if (e instanceof NoSuchFileException) {
            words = "no such file or folder";
        } else if (e instanceof AccessDeniedException) {
            words = "permission denied";
        } else if (e instanceof FileAlreadyExistsException) {
            words = "already exists";
        } else if (e instanceof NotDirectoryException) {
            words = "not a folder";
        } else if (e instanceof DirectoryNotEmptyException) {
            words = "a folder that is not empty";
        } else if (e instanceof FileSystemLoopException) {
            words = "too many levels of symbolic links";
        } else if (e instanceof java.nio.channels.ClosedByInterruptException) {
            words = "interrupted while writing";
        } else if (e instanceof FileSystemException f) {
            words = f.getReason() != null ? f.getReason() : "cannot be written";
        } else {
            words = e.getMessage() != null ? e.getMessage() : "input/output error";
        }
        return file == null ? words : file + ": " + words;
    }

    /** @return whether {@code path} exists and is not a regular file or folder, or is reached through /proc or /dev/fd */
    private static boolean direct(Path path) throws IOException {
        if (!Files.exists(path)) {
            return false; // a dangling link or a new file
        }
        if (!Files.isRegularFile(path) && !Files.isDirectory(path)) {
            return true; // a device, a FIFO, a socket (followed through links)
        }
        // /dev/stdout -> /proc/self/fd/1 -> the file the shell redirected to: the open descriptor is the output, and a
        // rename would replace the file without the descriptor seeing it
        Path p = path.toAbsolutePath();
        for (int i = 0; i < MAX_LINKS && Files.isSymbolicLink(p); i++) {
            p = p.resolveSibling(Files.readSymbolicLink(p)).normalize();
            if (p.startsWith("/proc") || p.startsWith("/dev/fd")) {
                return true;
            }
        }
        return false;
    }

    /** @return {@code path} with every symbolic link along it followed, also a dangling last one */
    private static Path resolve(Path path) throws IOException {
        Path p = path.toAbsolutePath();
        for (int i = 0; Files.isSymbolicLink(p); i++) {
            if (i == MAX_LINKS) {
                throw new FileSystemLoopException(path.toString());
            }
            p = p.resolveSibling(Files.readSymbolicLink(p)).normalize();
        }
        Path folder = p.getParent();
        if (folder != null && Files.isDirectory(folder)) {
            p = folder.toRealPath().resolve(p.getFileName()); // links among the folders
        }
        return p;
    }

    /** @return a new empty temporary file beside {@code target} */
    private static Path create(Path target) throws IOException {
        while (true) {
            Path partial = target.resolveSibling("." + target.getFileName() + "."
                    + Long.toHexString(ThreadLocalRandom.current().nextLong() & Long.MAX_VALUE) + ".partial");
            try {
                return Files.createFile(partial);
            } catch (FileAlreadyExistsException taken) {
                // another writer's: pick another name
            }
        }
    }

    private static void keepPermissions(Path from, Path to) {
        try {
            Files.setPosixFilePermissions(to, Files.getPosixFilePermissions(from, LinkOption.NOFOLLOW_LINKS));
        } catch (IOException | UnsupportedOperationException e) {
            // a file system without POSIX permissions: the new file has the default ones
        }
    }
}
