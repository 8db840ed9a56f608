package io.ringlab.sim.api;

import java.util.List;

import io.ringlab.sim.api.dto.ProblemDTO;

/**
 * A pipeline could not be read or built. Carries every problem found, each with its file, line and column, and what was
 * expected; {@link #getMessage()} lists them one per line as {@code file:line:column: message}.
 */
public class PipelineException extends Exception {
    private static final long serialVersionUID = 1L;

    /** The problems, in file order; never empty (part of the serialized form). */
    private final List<ProblemDTO> problems;

    /** @param problems the problems, at least one; the list is copied. */
    public PipelineException(List<ProblemDTO> problems) {
        super(format(problems));
        this.problems = List.copyOf(problems);
    }

    /** @return the problems, in file order; never empty. */
    public List<ProblemDTO> problems() {
        return problems;
    }

    private static String format(List<ProblemDTO> problems) {
        StringBuilder sb = new StringBuilder();
        for (ProblemDTO p : problems) {
            if (sb.length() > 0) {
                sb.append('\n');
            }
            sb.append(p);
        }
        return sb.toString();
    }
}
