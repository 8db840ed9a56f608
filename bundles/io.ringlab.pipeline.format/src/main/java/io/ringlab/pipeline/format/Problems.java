package io.ringlab.pipeline.format;

import java.util.ArrayList;
import java.util.Comparator;
import java.util.HashSet;
import java.util.List;
import java.util.Set;

import io.ringlab.sim.api.PipelineException;
import io.ringlab.sim.api.dto.ProblemDTO;

/**
 * The problems found in one file. The same problem reported twice (the lexer may read a token again after the parser
 * looked ahead) is kept once. A reader collects them while it goes on reading, and throws them all at the end
 * ({@link #throwIfAny()}).
 * <p>
 * Not thread-safe.
 *
 * @since 1.2
 */
public final class Problems {

    private final String file;
    private final List<ProblemDTO> list = new ArrayList<>();
    private final Set<String> seen = new HashSet<>();

    /**
     * Creates an empty list of problems.
     *
     * @param file the file as the user named it; must not be {@code null}
     */
    public Problems(String file) {
        this.file = file;
    }

    /**
     * Adds a problem at a position.
     *
     * @param line line, from 1 (0 for none)
     * @param column column, from 1 (0 for none)
     * @param message what is wrong and what was expected; must not be {@code null}
     */
    public void add(int line, int column, String message) {
        add(new ProblemDTO(file, line, column, message));
    }

    /**
     * Adds a problem of another file this one refers to (an experiment's pipeline, say), as it is.
     *
     * @param problem the problem, with its own file and position; must not be {@code null}
     */
    public void add(ProblemDTO problem) {
        if (seen.add(problem.file + ":" + problem.line + ":" + problem.column + ":" + problem.message)) {
            list.add(problem);
        }
    }

    /**
     * Adds a problem at a token.
     *
     * @param at the token the problem is at; must not be {@code null}
     * @param message what is wrong and what was expected; must not be {@code null}
     */
    public void add(Token at, String message) {
        add(at.line(), at.column(), message);
    }

    /**
     * Says where a name was given first and where again, for "is set twice" messages.
     *
     * @param first the name's first token; must not be {@code null}
     * @param again the name's later token; must not be {@code null}
     * @return by line ({@code first at line 3, again at line 7}), or by column when both are on one line
     */
    public static String twice(Token first, Token again) {
        if (first.line() == again.line()) {
            return "first at line " + first.line() + " column " + first.column() + ", again at column " + again.column();
        }
        return "first at line " + first.line() + ", again at line " + again.line();
    }

    /** @return whether no problem has been added */
    public boolean isEmpty() {
        return list.isEmpty();
    }

    /**
     * Throws the problems, if there are any.
     *
     * @throws PipelineException with the problems in file order: this file's by line and column, then those of other
     *         files in the order they were added
     */
    public void throwIfAny() throws PipelineException {
        if (!list.isEmpty()) {
            List<ProblemDTO> sorted = new ArrayList<>(list);
            // a stable sort: this file's problems by position, then the other files' in the order they came
            sorted.sort(Comparator.comparing((ProblemDTO p) -> !file.equals(p.file))
                    .thenComparingInt(p -> file.equals(p.file) ? p.line : 0)
                    .thenComparingInt(p -> file.equals(p.file) ? p.column : 0));
            throw new PipelineException(sorted);
        }
    }
}
