package io.ringlab.sim.api.dto;

import java.util.LinkedHashMap;
import java.util.Map;

/** One element of a pipeline file: type, name and properties in file order. */
public class ElementSpecDTO {
    /**
     * The type of a packet capture placed in a pipeline file ({@code element cap : tap { file = "x.pcapng" }} on one
     * connection, {@code a -> cap -> b}): the engine takes it out of the pipeline before the run and captures the
     * connection {@code a -> b} in its place (docs/pcap.md), so it is no element of the run and has no descriptor.
     *
     * @since 1.5
     */
    public static final String TAP = "tap";
    /** A tap's properties: its capture file ({@value}, required), its snap length ({@link #TAP_SNAPLEN}). */
    public static final String TAP_FILE = "file";
    /** @see #TAP_FILE */
    public static final String TAP_SNAPLEN = "snaplen";
    /** The element type id. */
    public String type;
    /** The element's name, unique in the pipeline, matching {@code [A-Za-z][A-Za-z0-9_-]*}. */
    public String name;
    /** Properties by name, in file order; never {@code null}. */
    public Map<String, ValueDTO> properties = new LinkedHashMap<>();
    /** Where the element is declared. */
    public int line;
    /** Column of the declaration. */
    public int column;
}
