package io.ringlab.sim.api.dto;

import java.util.LinkedHashMap;
import java.util.Map;

/** One element of a pipeline file: type, name and properties in file order. */
public class ElementSpecDTO {
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
