package io.ringlab.sim.api.dto;

import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;

/**
 * A pipeline: elements, connections, the headline metric, run defaults, and a layout block that only the console reads.
 * The layout is kept apart from the semantics, so moving a box never changes a result.
 */
public class PipelineDTO {
    /** The file the pipeline came from, as the user named it; {@code "<input>"} if none. */
    public String file = "<input>";
    /** The pipeline's name; defaults to the file name without extension. */
    public String name;
    /** A one-paragraph description; may be {@code null}. */
    public String description;
    /** The headline metric as {@code element.metric}; may be {@code null}. */
    public ValueDTO headline;
    /**
     * The pipeline's key series, as written in its {@code plot = [ ... ]} header: the series a plot draws when it is
     * not told which ({@code element.metric} each, in file order, with its source position); never {@code null}, empty
     * when the file names none.
     *
     * @since 1.4
     */
    public List<ValueDTO> plot = new ArrayList<>();
    /** Default duration as written (for example {@code "2s"}); {@code null} for the runner's default. */
    public ValueDTO duration;
    /** Default seed; {@code null} for the runner's default. */
    public ValueDTO seed;
    /** Cost profile name; {@code null} for the default profile. */
    public ValueDTO profile;
    /** Elements in file order; never {@code null}. */
    public List<ElementSpecDTO> elements = new ArrayList<>();
    /** Connections in file order; never {@code null}. */
    public List<ConnectionDTO> connections = new ArrayList<>();
    /** Layout: element name to {x, y} in console canvas units; never {@code null}, may be empty. */
    public Map<String, double[]> layout = new LinkedHashMap<>();
}
