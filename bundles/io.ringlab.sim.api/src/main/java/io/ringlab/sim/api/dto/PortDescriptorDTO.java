package io.ringlab.sim.api.dto;

import java.util.ArrayList;
import java.util.List;

/** One port of an element type. */
public class PortDescriptorDTO {
    /** Port direction. */
    public enum Direction {
        /** Packets arrive here. */
        IN,
        /** Packets leave here. */
        OUT
    }

    /** How packets cross the port. */
    public enum Mode {
        /** Upstream calls downstream. */
        PUSH,
        /** Downstream pulls from upstream after a ready signal. */
        PULL
    }

    /** The port's name, unique per direction within the element type. */
    public String name;
    /** IN or OUT. */
    public Direction direction;
    /** PUSH or PULL; a connection joins ports of the same mode. */
    public Mode mode;
    /** {@code true} if the pipeline must connect this port. */
    public boolean required;
    /** What flows through it. */
    public String description;
    /**
     * For a PUSH input: the element's PUSH outputs that a packet arriving here may be pushed out of within the same call,
     * no virtual time passing (a demux's every output; a TCP sender's {@code out}, which an ACK clocks). The engine
     * refuses a pipeline whose connections close a cycle through such forwards, when it is built, at the connection that
     * closes it; whatever the declarations, a run stops when pushes nest deeper than its limit in one call. Empty (the
     * default) for an input whose packets leave, if at all, after time passes (a link's, a queue's) or never.
     *
     * @since 1.4
     */
    public List<String> pushesInCall = new ArrayList<>();

    /**
     * @param name name
     * @param direction direction
     * @param mode mode
     * @param required whether it must be connected
     * @param description description
     * @return a new descriptor
     */
    public static PortDescriptorDTO of(String name, Direction direction, Mode mode, boolean required, String description) {
        PortDescriptorDTO p = new PortDescriptorDTO();
        p.name = name;
        p.direction = direction;
        p.mode = mode;
        p.required = required;
        p.description = description;
        return p;
    }
}
