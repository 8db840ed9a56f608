package io.ringlab.pipeline.format;

import java.io.IOException;
import java.io.InputStream;
import java.nio.ByteBuffer;
import java.nio.CharBuffer;
import java.nio.charset.CharsetDecoder;
import java.nio.charset.CoderResult;
import java.nio.charset.CodingErrorAction;
import java.nio.charset.StandardCharsets;
import java.nio.file.AccessDeniedException;
import java.nio.file.Files;
import java.nio.file.NoSuchFileException;
import java.nio.file.Path;
import java.nio.file.attribute.BasicFileAttributes;
import java.util.List;
import java.util.Locale;
import java.util.Objects;

import io.ringlab.sim.api.PipelineException;
import io.ringlab.sim.api.dto.PipelineDTO;
import io.ringlab.sim.api.dto.ProblemDTO;

/**
 * Reads pipeline files (format in {@code docs/pipeline-format.md}) into {@link PipelineDTO}s, with the line and column
 * of every element, connection and value.
 * <p>
 * The reader checks the syntax and the rules that need no knowledge of element types: name patterns, unique element
 * names, unique properties per element, unique header keys, known header keys, a {@code duration} and {@code seed} that
 * parse ({@link Units}), a headline of the form {@code ELEMENT.METRIC}, no port on the middle element of a chain, and
 * that connections, layout entries and the headline name declared elements. Whether a type exists, which properties
 * and ports it has, and whether values fit them is the engine's job.
 * <p>
 * A read collects as many problems as it can, recovering at the next statement, property or layout entry, and reports
 * them all in one {@link PipelineException}, in file order, each as {@code file:line:column: message} (lines and
 * columns from 1, columns counted in UTF-16 chars, a tab counting 1).
 * <p>
 * Stateless and thread-safe.
 */
public final class PipelineReader {

    private static final String NO_FILE = "<input>";

    private PipelineReader() {
    }

    /**
     * Reads a pipeline from text.
     *
     * @param fileName the file name as the user wrote it, used in problems, in {@link PipelineDTO#file} and, without
     *        folders and extension, as the default {@link PipelineDTO#name}; {@code null} for {@code "<input>"}
     * @param text the file's contents, with {@code \n}, {@code \r\n} or {@code \r} line breaks; a leading byte order
     *        mark is ignored; must not be {@code null}
     * @return the pipeline, never {@code null}; its lists and maps are in file order and may be empty (an empty text
     *         gives a pipeline without elements)
     * @throws PipelineException if the text breaks the format's rules, with every problem found
     */
    public static PipelineDTO read(String fileName, String text) throws PipelineException {
        Objects.requireNonNull(text, "text");
        String file = fileName != null ? fileName : NO_FILE;
        Problems problems = new Problems(file);
        PipelineDTO p = new Parser(file, text, problems).parse();
        problems.throwIfAny();
        return p;
    }

    /**
     * Reads a pipeline file as UTF-8 ({@link #text(Path, String)}). The file's name as given ({@link Path#toString()})
     * is used in problems and in {@link PipelineDTO#file}. An empty file gives a pipeline without elements (where an
     * editor starts); to run a file, read it with {@link #readRunnable(Path)}.
     *
     * @param file the file; must not be {@code null}
     * @return the pipeline; never {@code null}
     * @throws PipelineException if the file cannot be read (one problem naming the file, without a position) or breaks
     *         the format's rules
     */
    public static PipelineDTO read(Path file) throws PipelineException {
        return read(file.toString(), text(file, "pipeline"));
    }

    /**
     * Reads a pipeline file to run it: as {@link #read(Path)}, and the file must declare at least one element. An empty
     * file, or one of comments and header keys only, would run nothing and look like a success.
     *
     * @param file the file; must not be {@code null}
     * @return the pipeline, with at least one element; never {@code null}
     * @throws PipelineException if the file cannot be read, breaks the format's rules, or declares no element (one
     *         problem naming the file, without a position)
     * @since 1.3
     */
    public static PipelineDTO readRunnable(Path file) throws PipelineException {
        String text = text(file, "pipeline");
        PipelineDTO p = read(file.toString(), text);
        if (p.elements.isEmpty()) {
            throw fileProblem(file.toString(), "the pipeline declares no element"
                    + (text.isBlank() ? " (the file is empty)" : "") + ": nothing to run; declare the elements and connect"
                    + " them, as in 'element src : source', 'element snk : sink' and 'src -> snk' (docs/pipeline-format.md)");
        }
        return p;
    }

    /**
     * The largest file a reader of the text family reads: 16 MiB. Hand-written and generated pipelines, experiments and
     * cost profiles are far smaller (the largest shipped pipeline is a few kilobytes; a pipeline of 10,000 elements is
     * about 1 MiB); a larger file is refused before it is read, with its size, rather than filling the heap.
     *
     * @since 1.3
     */
    public static final long MAX_FILE_BYTES = 16L * 1024 * 1024;

    /**
     * Reads a file of the text family (a pipeline, an experiment, a cost profile) as UTF-8: the one function through
     * which Ringlab reads its input files. It reads only a regular file of at most {@link #MAX_FILE_BYTES}; a directory,
     * a FIFO, a device or a socket is refused without being opened (a FIFO would block, {@code /dev/zero} never ends).
     *
     * @param file the file; must not be {@code null}
     * @param what what the file holds, for the message, for example {@code "pipeline"}
     * @return the file's text; never {@code null}
     * @throws PipelineException if the file cannot be read: one problem naming the file as given ({@link
     *         Path#toString()}) and why, without a position (for example {@code pipelines/x.pipeline: cannot read the
     *         pipeline: no such file}), except for text that is not UTF-8, which is reported at the line and column of
     *         its first bad byte
     * @since 1.2
     */
    public static String text(Path file, String what) throws PipelineException {
        Objects.requireNonNull(file, "file");
        String name = file.toString();
        String cannot = "cannot read the " + what + ": ";
        String give = "; give " + ("aeiou".indexOf(what.isEmpty() ? 'x' : what.charAt(0)) >= 0 ? "an " : "a ") + what
                + " file";
        byte[] bytes;
        try {
            BasicFileAttributes a = Files.readAttributes(file, BasicFileAttributes.class);
            if (a.isDirectory()) {
                throw fileProblem(name, cannot + "it is a directory" + give);
            }
            if (!a.isRegularFile()) {
                throw fileProblem(name, cannot + "it is " + special(file) + ", not a regular file" + give);
            }
            if (a.size() > MAX_FILE_BYTES) {
                throw tooLarge(name, cannot, what, a.size());
            }
            try (InputStream in = Files.newInputStream(file)) {
                bytes = in.readNBytes((int) MAX_FILE_BYTES + 1);
            }
        } catch (NoSuchFileException e) {
            throw fileProblem(name, cannot + "no such file");
        } catch (AccessDeniedException e) {
            throw fileProblem(name, cannot + "permission denied");
        } catch (IOException e) {
            throw fileProblem(name, cannot + (e.getMessage() != null ? e.getMessage() : "an input/output error"));
        }
        if (bytes.length > MAX_FILE_BYTES) {
            throw tooLarge(name, cannot, what, bytes.length); // it grew while being read
        }
        return decode(name, cannot, bytes);
    }

    private static PipelineException tooLarge(String name, String cannot, String what, long size) {
        return fileProblem(name, cannot + "it is " + String.format(Locale.ROOT, "%,d", size) + " bytes ("
                + String.format(Locale.ROOT, "%.1f", size / 1048576.0) + " MiB), more than the " + (MAX_FILE_BYTES >> 20)
                + " MiB a " + what + " file may have");
    }

    /** @return what a file that is neither a regular file nor a directory is, in words */
    private static String special(Path file) {
        try {
            // the "unix" view (Linux, macOS) has the file type bits of st_mode
            int mode = (Integer) Files.getAttribute(file, "unix:mode");
            switch (mode & 0170000) {
                case 0010000:
                    return "a FIFO (named pipe)";
                case 0020000:
                    return "a character device";
                case 0060000:
                    return "a block device";
                case 0140000:
                    return "a socket";
                default:
                    break;
            }
        } catch (IOException | UnsupportedOperationException | IllegalArgumentException | ClassCastException e) {
            // no unix view: say what it may be
        }
        return "a FIFO, a device or a socket";
    }

    /**
     * @return the bytes as UTF-8 text
     * @throws PipelineException at the line and column of the first byte that is not UTF-8
     */
    private static String decode(String name, String cannot, byte[] bytes) throws PipelineException {
        CharsetDecoder decoder = StandardCharsets.UTF_8.newDecoder().onMalformedInput(CodingErrorAction.REPORT)
                .onUnmappableCharacter(CodingErrorAction.REPORT);
        ByteBuffer in = ByteBuffer.wrap(bytes);
        CharBuffer out = CharBuffer.allocate(bytes.length); // UTF-8 never gives more UTF-16 chars than bytes
        CoderResult r = decoder.decode(in, out, true);
        if (!r.isError()) {
            r = decoder.flush(out);
        }
        if (!r.isError()) {
            return out.flip().toString();
        }
        // the position of the bad byte, counted as the lexer counts: lines from 1 at \n, \r\n or \r, columns from 1 in
        // UTF-16 chars, a leading byte order mark not counted
        int line = 1;
        int column = 1;
        for (int i = 0; i < out.position(); i++) {
            char c = out.get(i);
            if (c == '\n' || (c == '\r' && (i + 1 >= out.position() || out.get(i + 1) != '\n'))) {
                line++;
                column = 1;
            } else if (c != '\r' && !(i == 0 && c == '\uFEFF')) {
                column++;
            }
        }
        int offset = in.position();
        throw new PipelineException(List.of(new ProblemDTO(name, line, column, cannot + "the file is not UTF-8 text: "
                + String.format(Locale.ROOT, "byte 0x%02X", bytes[offset] & 0xFF) + " (at byte offset "
                + String.format(Locale.ROOT, "%,d", offset) + ") is not valid UTF-8; save the file as UTF-8")));
    }

    private static PipelineException fileProblem(String file, String message) {
        return new PipelineException(List.of(new ProblemDTO(file, 0, 0, message)));
    }
}
