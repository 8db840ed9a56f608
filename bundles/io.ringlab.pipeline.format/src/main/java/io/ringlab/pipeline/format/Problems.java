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
 * looked ahead) is kept once.
 * <p>
 * Not thread-safe.
 */
final class Problems {

    private final String file;
    private final List<ProblemDTO> list = new ArrayList<>();
    private final Set<String> seen = new HashSet<>();

    /**
     * Creates an empty list of problems.
     *
     * @param file the file as the user named it; must not be {@code null}
     */
    Problems(String file) {
        this.file = file;
    }

    /**
     * Adds a problem at a position.
     *
     * @param line line, from 1 (0 for none)
     * @param column column, from 1 (0 for none)
     * @param message what is wrong and what was expected; must not be {@code null}
     */
    void add(int line, int column, String message) {
        if (seen.add(line + ":" + column + ":" + message)) {
            list.add(new ProblemDTO(file, line, column, message));
        }
    }

    /**
     * Adds a problem at a token.
     *
     * @param at the token the problem is at; must not be {@code null}
     * @param message what is wrong and what was expected; must not be {@code null}
     */
    void add(Token at, String message) {
        add(at.line(), at.column(), message);
    }

    /**
     * Throws the problems, if there are any.
     *
     * @throws PipelineException with the problems in file order
     */
    void throwIfAny() throws PipelineException {
        if (!list.isEmpty()) {
            List<ProblemDTO> sorted = new ArrayList<>(list);
            sorted.sort(Comparator.comparingInt((ProblemDTO p) -> p.line).thenComparingInt(p -> p.column));
            throw new PipelineException(sorted);
        }
    }
}
