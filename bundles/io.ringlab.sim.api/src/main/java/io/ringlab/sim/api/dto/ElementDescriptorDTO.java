package io.ringlab.sim.api.dto;

import java.util.ArrayList;
import java.util.List;

/** Describes an element type: what the palette shows and what the engine validates against. */
public class ElementDescriptorDTO {
    /** Category names used by the console palette. */
    public static final String SOURCE = "sources", QDISC = "qdiscs", DRIVER = "drivers", LINK = "links", SINK = "sinks",
            POOL = "pools", HOST = "hosts";

    /** The type id, as in {@code ElementFactory.TYPE}. */
    public String type;
    /** One of the category constants, or a new category name. */
    public String category;
    /** A one-line summary. */
    public String summary;
    /** Longer description: model, provenance, what is not modelled. */
    public String description;
    /** Symbolic name of the providing bundle; filled by the engine. */
    public String bundle;
    /** Version of the providing bundle; filled by the engine. */
    public String bundleVersion;
    /** Ports, inputs and outputs, in index order per direction; never {@code null}. */
    public List<PortDescriptorDTO> ports = new ArrayList<>();
    /** Properties; never {@code null}. */
    public List<PropertyDescriptorDTO> properties = new ArrayList<>();
    /**
     * Metric names the element reports, with units in the names; never {@code null}. The engine lists a type with the
     * names of its {@link #metricDescriptors} here when the factory gives none (a family such as {@code stream<i>Cwnd}
     * left out).
     */
    public List<String> metrics = new ArrayList<>();
    /**
     * The metrics the element reports, with unit, kind and meaning; never {@code null}. The engine lists a type that
     * gives only {@link #metrics} with a descriptor per name (unit from the name's suffix, no meaning).
     *
     * @since 1.4
     */
    public List<MetricDescriptorDTO> metricDescriptors = new ArrayList<>();
    /**
     * Where the type's model is documented: a path in the Ringlab source tree ({@code docs/models/stmmac.md}) or a URL;
     * {@code null} if there is no such page.
     *
     * @since 1.4
     */
    public String modelPage;
}
