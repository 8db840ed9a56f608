package io.ringlab.sim.api.dto;

/** A property value as written in a file, with its position, before conversion to base units. */
public class ValueDTO {
    /** The value's text without quotes (for example {@code "100Mbit"}, {@code "true"}, {@code "eth0 rx"}). */
    public String text;
    /** {@code true} if the file wrote the value as a quoted string. */
    public boolean quoted;
    /** Line, from 1 (0 for a value from the command line). */
    public int line;
    /** Column, from 1. */
    public int column;

    /** Creates an empty value. */
    public ValueDTO() {
    }

    /**
     * @param text the text
     * @param line the line
     * @param column the column
     */
    public ValueDTO(String text, int line, int column) {
        this.text = text;
        this.line = line;
        this.column = column;
    }
}
