package io.ringlab.pipeline.format;

import java.io.IOException;
import java.nio.charset.CharacterCodingException;
import java.nio.file.Files;
import java.nio.file.NoSuchFileException;
import java.nio.file.Path;
import java.util.List;
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
     * Reads a pipeline file as UTF-8. The file's name as given ({@link Path#toString()}) is used in problems and in
     * {@link PipelineDTO#file}.
     *
     * @param file the file; must not be {@code null}
     * @return the pipeline; never {@code null}
     * @throws PipelineException if the file cannot be read (one problem naming the file, without a position) or breaks
     *         the format's rules
     */
    public static PipelineDTO read(Path file) throws PipelineException {
        String text = text(file, "pipeline");
        return read(file.toString(), text);
    }

    /**
     * Reads a file of the text family (a pipeline, an experiment) as UTF-8.
     *
     * @param file the file; must not be {@code null}
     * @param what what the file holds, for the message, for example {@code "pipeline"}
     * @return the file's text; never {@code null}
     * @throws PipelineException if the file cannot be read: one problem without a position, naming the file as given
     *         ({@link Path#toString()}) and why, for example {@code pipelines/x.pipeline: cannot read the pipeline: no
     *         such file}
     * @since 1.2
     */
    public static String text(Path file, String what) throws PipelineException {
        Objects.requireNonNull(file, "file");
        String name = file.toString();
        try {
            return Files.readString(file);
        } catch (NoSuchFileException e) {
            throw fileProblem(name, "cannot read the " + what + ": no such file");
        } catch (CharacterCodingException e) {
            throw fileProblem(name, "cannot read the " + what + ": the file is not UTF-8 text");
        } catch (IOException e) {
            throw fileProblem(name, "cannot read the " + what + ": " + (Files.isDirectory(file) ? "it is a directory"
                    : e.getClass().getSimpleName() + ": " + e.getMessage()));
        }
    }

    private static PipelineException fileProblem(String file, String message) {
        return new PipelineException(List.of(new ProblemDTO(file, 0, 0, message)));
    }
}
