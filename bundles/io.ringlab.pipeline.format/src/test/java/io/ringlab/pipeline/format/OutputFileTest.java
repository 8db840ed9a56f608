package io.ringlab.pipeline.format;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertNotEquals;
import static org.junit.jupiter.api.Assertions.assertNull;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.LinkOption;
import java.nio.file.Path;
import java.nio.file.attribute.PosixFilePermissions;
import java.util.List;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.TimeUnit;
import java.util.stream.Stream;

import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/** {@link OutputFile}: devices and FIFOs written in place, links kept, regular files replaced whole, problems in words. */
class OutputFileTest {
    @TempDir
    Path dir;

    private static OutputFile.Content text(String s) {
        return out -> out.write(s.getBytes(StandardCharsets.UTF_8));
    }

    private static int mode(Path p) throws IOException {
        return (Integer) Files.getAttribute(p, "unix:mode", LinkOption.NOFOLLOW_LINKS) & 0170000;
    }

    private static Object inode(Path p) throws IOException {
        return Files.getAttribute(p, "unix:ino", LinkOption.NOFOLLOW_LINKS);
    }

    private static List<String> names(Path folder) throws IOException {
        try (Stream<Path> s = Files.list(folder)) {
            return s.map(p -> p.getFileName().toString()).sorted().toList();
        }
    }

    @Test
    void aCharacterDeviceIsWrittenInPlaceNeverReplaced() throws IOException {
        Path devNull = Path.of("/dev/null");
        assertEquals(0020000, mode(devNull), "/dev/null is a character device on this machine");
        Object before = inode(devNull);
        OutputFile.write(devNull, text("{}\n"));
        assertEquals(0020000, mode(devNull), "still a character device (as root, a rename made it a regular file)");
        assertEquals(before, inode(devNull));
        assertNull(OutputFile.problem("/dev/null"));
    }

    @Test
    void aFifoIsWrittenInPlaceForItsReader() throws Exception {
        Path fifo = dir.resolve("results.fifo");
        Process mk = new ProcessBuilder("mkfifo", fifo.toString()).inheritIO().start();
        assertEquals(0, mk.waitFor(), "mkfifo " + fifo);
        assertEquals(0010000, mode(fifo));
        CompletableFuture<String> read = CompletableFuture.supplyAsync(() -> {
            try {
                return Files.readString(fifo, StandardCharsets.UTF_8); // blocks until a writer opens the FIFO
            } catch (IOException e) {
                throw new IllegalStateException(e);
            }
        });
        OutputFile.write(fifo, text("through the pipe"));
        assertEquals("through the pipe", read.get(60, TimeUnit.SECONDS));
        assertEquals(0010000, mode(fifo), "still a FIFO");
        assertEquals(List.of("results.fifo"), names(dir), "no temporary file");
    }

    @Test
    void aLinkStaysALinkAndItsTargetIsReplacedBesideIt() throws IOException {
        Path targets = Files.createDirectory(dir.resolve("targets"));
        Path links = Files.createDirectory(dir.resolve("links"));
        Path target = Files.writeString(targets.resolve("out.json"), "old");
        Path link = Files.createSymbolicLink(links.resolve("out.json"), Path.of("../targets/out.json"));
        List<List<String>> whileWriting = new java.util.ArrayList<>();
        OutputFile.write(link, out -> {
            whileWriting.add(names(targets));
            whileWriting.add(names(links));
            out.write("new".getBytes(StandardCharsets.UTF_8));
        });
        assertTrue(Files.isSymbolicLink(link), "the link is kept");
        assertEquals(Path.of("../targets/out.json"), Files.readSymbolicLink(link));
        assertEquals("new", Files.readString(target));
        assertEquals(2, whileWriting.get(0).size(), "the temporary file is beside the target: " + whileWriting);
        assertTrue(whileWriting.get(0).get(0).matches("\\.out\\.json\\.[0-9a-f]+\\.partial"), whileWriting.toString());
        assertEquals(List.of("out.json"), whileWriting.get(1), "nothing beside the link");
        assertEquals(List.of("out.json"), names(targets), "no temporary file left");
    }

    @Test
    void aDanglingLinkGetsItsTargetCreated() throws IOException {
        Path link = Files.createSymbolicLink(dir.resolve("latest.json"), Path.of("run-7.json"));
        assertNull(OutputFile.problem(link));
        OutputFile.write(link, text("seven"));
        assertTrue(Files.isSymbolicLink(link));
        assertEquals("seven", Files.readString(dir.resolve("run-7.json")));
    }

    @Test
    void aRegularFileIsReplacedWholeKeepingItsPermissions() throws IOException {
        Path f = Files.writeString(dir.resolve("out.json"), "old");
        Files.setPosixFilePermissions(f, PosixFilePermissions.fromString("rw-r-----"));
        Object before = inode(f);
        OutputFile.write(f, text("new"));
        assertEquals("new", Files.readString(f));
        assertNotEquals(before, inode(f), "a new file renamed over the old one");
        assertEquals("rw-r-----", PosixFilePermissions.toString(Files.getPosixFilePermissions(f)));
        assertEquals(List.of("out.json"), names(dir));
    }

    @Test
    void aFailedWriteLeavesTheOldFileAndNoTemporaryFile() throws IOException {
        Path f = Files.writeString(dir.resolve("out.json"), "old");
        IOException e = assertThrows(IOException.class, () -> OutputFile.write(f, out -> {
            out.write("half".getBytes(StandardCharsets.UTF_8));
            throw new IOException("disk full");
        }));
        assertEquals("disk full", e.getMessage());
        assertEquals("old", Files.readString(f));
        assertEquals(List.of("out.json"), names(dir));
        Path fresh = dir.resolve("new.json");
        assertThrows(IOException.class, () -> OutputFile.write(fresh, out -> {
            throw new IOException("disk full");
        }));
        assertFalse(Files.exists(fresh));
        assertEquals(List.of("out.json"), names(dir));
    }

    @Test
    void problemsAreNamedInWordsBeforeAnythingIsWritten() throws IOException {
        Files.writeString(dir.resolve("plain.txt"), "x");
        assertEquals("the path is empty: give a file name", OutputFile.problem(""));
        assertEquals("the folder " + dir.resolve("missing") + " does not exist",
                OutputFile.problem(dir.resolve("missing/o.json").toString()));
        assertEquals("is a folder: give a file name", OutputFile.problem(dir.toString()));
        assertEquals(dir.resolve("plain.txt") + " is not a folder",
                OutputFile.problem(dir.resolve("plain.txt/o.json").toString()));
        assertNull(OutputFile.problem(dir.resolve("o.json").toString()));
        assertNull(OutputFile.problem(dir.resolve("plain.txt").toString()), "an existing file is replaced");
        assertEquals(List.of("plain.txt"), names(dir), "checking writes nothing");
        IOException e = assertThrows(IOException.class, () -> OutputFile.write(dir, text("x")));
        assertEquals(dir + ": is a folder: give a file name", OutputFile.reason(e));
    }

    @Test
    void reasonsNameTheFileWithoutTheExceptionClass() {
        assertEquals("/x/y: no such file or folder", OutputFile.reason(new java.nio.file.NoSuchFileException("/x/y")));
        assertEquals("/x: permission denied", OutputFile.reason(new java.nio.file.AccessDeniedException("/x")));
        assertEquals("/x: Read-only file system",
                OutputFile.reason(new java.nio.file.FileSystemException("/x", null, "Read-only file system")));
    }
}
