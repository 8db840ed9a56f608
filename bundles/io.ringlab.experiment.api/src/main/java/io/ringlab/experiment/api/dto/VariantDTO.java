package io.ringlab.experiment.api.dto;

import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;

/**
 * One variant of an experiment: the base pipeline with some element types replaced, then some properties overridden,
 * and optionally hot swaps during the run. A variant with nothing changed runs the base pipeline as it is.
 * <p>
 * Not thread-safe.
 */
public class VariantDTO {
    /** The variant's name, unique in the experiment, matching {@code [A-Za-z][A-Za-z0-9_-]*}. */
    public String name;
    /**
     * Element name to the element type id that replaces the pipeline's type for this variant; applied before
     * {@link #overrides}. The element's properties from the pipeline must exist in the new type. Never {@code null}.
     */
    public Map<String, String> types = new LinkedHashMap<>();
    /**
     * Property overrides in the {@code --set} grammar, {@code ELEMENT.PROPERTY=VALUE}, applied in order (a later one for
     * the same property wins): the experiment's common {@code set} statements first, then the variant's own. Never
     * {@code null}.
     */
    public List<String> overrides = new ArrayList<>();
    /** Swaps during each run, each {@code AT:ELEMENT[=TYPE[@VERSION]]} ({@code RunOptionsDTO.swaps}). Never {@code null}. */
    public List<String> swaps = new ArrayList<>();
    /** Line of the variant's declaration in the experiment file, from 1; 0 when built by hand. */
    public int line;
    /** Column of the declaration, from 1; 0 when built by hand. */
    public int column;
}
