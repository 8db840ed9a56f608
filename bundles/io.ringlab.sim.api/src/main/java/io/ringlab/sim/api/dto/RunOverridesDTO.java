package io.ringlab.sim.api.dto;

import java.util.ArrayList;
import java.util.List;

/**
 * What the command line (or the caller) overrode of a pipeline file for one run, as written: two results of one pipeline
 * tell how they were made. {@code null} fields and empty lists were not overridden.
 *
 * @since 1.4
 */
public class RunOverridesDTO {
    /** {@code --set ELEMENT.PROPERTY=VALUE}, in order. */
    public List<String> set = new ArrayList<>();
    /** {@code --swap AT:ELEMENT[=TYPE[@VERSION]]}, in order. */
    public List<String> swap = new ArrayList<>();
    /** {@code --duration}, as written. */
    public String duration;
    /** {@code --warmup}, as written. */
    public String warmup;
    /** {@code --seed}. */
    public Long seed;
    /** {@code --series-interval}, as written. */
    public String seriesInterval;
    /** {@code --plugins} folders, as given. */
    public List<String> plugins = new ArrayList<>();
}
