package io.ringlab.sim.api.dto;

/** One problem in a pipeline or experiment file, with its position. */
public class ProblemDTO {
    /** The file as the user named it; {@code "<input>"} when there is none. */
    public String file;
    /** Line, from 1; 0 when the problem has no position (a missing element). */
    public int line;
    /** Column, from 1; 0 when unknown. */
    public int column;
    /** What is wrong and what is allowed. */
    public String message;

    /** Creates an empty problem. */
    public ProblemDTO() {
    }

    /**
     * @param file the file
     * @param line the line, from 1
     * @param column the column, from 1
     * @param message the message
     */
    public ProblemDTO(String file, int line, int column, String message) {
        this.file = file;
        this.line = line;
        this.column = column;
        this.message = message;
    }

    @Override
    public String toString() {
        return line > 0 ? file + ":" + line + ":" + column + ": " + message : file + ": " + message;
    }
}
