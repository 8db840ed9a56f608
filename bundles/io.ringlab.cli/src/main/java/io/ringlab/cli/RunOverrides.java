package io.ringlab.cli;

import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;

import io.ringlab.sim.api.dto.RunOverridesDTO;

/**
 * The command line's overrides of a pipeline file, recorded in the result ({@code RunResultDTO.overrides}) and shown in
 * the summary's header and the plot's title, so that two results of one pipeline can be told apart.
 */
final class RunOverrides {
    private RunOverrides() {
    }

    /** @return what {@code ringlab run}'s options overrode, as written; never {@code null} */
    static RunOverridesDTO of(Runner.Request q, List<Path> plugins) {
        RunOverridesDTO o = new RunOverridesDTO();
        o.set.addAll(q.sets());
        o.swap.addAll(q.swaps());
        o.duration = q.duration();
        o.warmup = q.warmup();
        o.seed = q.seed();
        o.seriesInterval = q.seriesInterval();
        plugins.forEach(p -> o.plugins.add(p.toString()));
        return o;
    }

    /**
     * @return the overrides as the options that made them ({@code --set eth0.bql=false --duration 1s}), empty for none or
     *         {@code null}
     */
    static String describe(RunOverridesDTO o) {
        if (o == null) {
            return "";
        }
        List<String> parts = new ArrayList<>();
        o.set.forEach(s -> parts.add("--set " + s));
        o.swap.forEach(s -> parts.add("--swap " + s));
        if (o.duration != null) {
            parts.add("--duration " + o.duration);
        }
        if (o.warmup != null) {
            parts.add("--warmup " + o.warmup);
        }
        if (o.seed != null) {
            parts.add("--seed " + o.seed);
        }
        if (o.seriesInterval != null) {
            parts.add("--series-interval " + o.seriesInterval);
        }
        o.plugins.forEach(p -> parts.add("--plugins " + p));
        return String.join(" ", parts);
    }
}
