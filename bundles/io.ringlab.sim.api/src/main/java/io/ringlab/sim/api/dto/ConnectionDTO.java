package io.ringlab.sim.api.dto;

/** A connection from an output port to an input port. */
public class ConnectionDTO {
    /** Upstream element name. */
    public String from;
    /** Upstream output port name; {@code null} means the element's first output. */
    public String fromPort;
    /** Downstream element name. */
    public String to;
    /** Downstream input port name; {@code null} means the element's first input. */
    public String toPort;
    /** Where the connection is written. */
    public int line;
    /** Column. */
    public int column;
}
