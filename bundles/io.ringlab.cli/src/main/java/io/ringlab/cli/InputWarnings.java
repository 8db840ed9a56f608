package io.ringlab.cli;

import java.io.PrintStream;
import java.util.ArrayList;
import java.util.HashSet;
import java.util.List;
import java.util.Set;
import java.util.function.Function;

import io.ringlab.experiment.api.dto.ExperimentDTO;
import io.ringlab.experiment.api.dto.VariantDTO;
import io.ringlab.pipeline.format.ByteRates;
import io.ringlab.pipeline.format.MetricNames;
import io.ringlab.sim.api.dto.ElementDescriptorDTO;
import io.ringlab.sim.api.dto.PipelineDTO;
import io.ringlab.sim.api.dto.ProblemDTO;
import io.ringlab.sim.api.dto.ValueDTO;

/**
 * Warnings about what the user wrote that is valid but probably not meant: an old metric name ({@link MetricNames}),
 * a rate in tc's bytes per second ({@link ByteRates}). Each goes to standard error once per command, as
 * {@code [FILE:LINE:COLUMN: ]warning: ...}; a warning never changes the exit code. One per command; not thread-safe.
 */
final class InputWarnings {
    private final PrintStream err;
    private final Function<String, ElementDescriptorDTO> types;
    /** What was said already: an old metric name, or a whole warning line. */
    private final Set<String> said = new HashSet<>();

    /**
     * @param err where warnings go
     * @param types an installed element type's descriptor by name, {@code null} for one not installed
     */
    InputWarnings(PrintStream err, Function<String, ElementDescriptorDTO> types) {
        this.err = err;
        this.types = types;
    }

    /**
     * @param where what named the metrics, for example {@code --print}
     * @param names metric names as the user wrote them
     * @return today's names, in the same order; each old name warned about once
     */
    List<String> metrics(String where, List<String> names) {
        List<String> now = new ArrayList<>();
        for (String n : names) {
            now.add(metric(where + ": ", n));
        }
        return now;
    }

    /** @return today's name of {@code name}, warning once when it is an old one; {@code prefix} goes before it */
    private String metric(String prefix, String name) {
        String warning = MetricNames.deprecation(name);
        if (warning != null && said.add(name)) {
            err.println(prefix + "warning: " + warning);
        }
        return MetricNames.current(name);
    }

    /**
     * Warns about a pipeline as read and the {@code --set} arguments for it: an old headline name (the engine reads it
     * as today's), rates in bytes per second.
     */
    void pipeline(PipelineDTO p, List<String> sets, String setWord) {
        if (p.headline != null) {
            metric(at(p.file, p.headline), p.headline.text);
        }
        for (ProblemDTO note : ByteRates.in(p, types)) {
            say(note.file + ":" + note.line + ":" + note.column + ": warning: " + note.message);
        }
        for (String s : sets) {
            String note = ByteRates.inOverride(p, s, types);
            if (note != null) {
                say(setWord + " '" + s + "': warning: " + note);
            }
        }
    }

    /**
     * Warns about an experiment as read and changes its old metric names to today's, so that its result names today's
     * metrics: the metrics to compare, the base pipeline, each variant's {@code set}.
     */
    void experiment(ExperimentDTO e) {
        if (e.pipeline != null) {
            pipeline(e.pipeline, List.of(), ""); // first: an old headline is named at its position in the pipeline
            for (VariantDTO v : e.variants) {
                for (String s : v.overrides) {
                    String note = ByteRates.inOverride(e.pipeline, s, types);
                    if (note != null) {
                        say(e.file + ":" + v.line + ":" + v.column + ": warning: variant " + v.name + ": set " + s + ": "
                                + note);
                    }
                }
            }
        }
        for (ValueDTO m : e.metrics) {
            // line 0: the pipeline's headline stood in for a missing 'metrics', named above if it is an old name
            m.text = metric(m.line > 0 ? at(e.file, m) : "", m.text);
        }
    }

    /** @return a watcher that warns about the pipeline {@code ringlab run} prepared, before it runs */
    Runner.Watcher onPipeline(List<String> sets) {
        return Runner.Watcher.every(Long.MAX_VALUE, (run, p) -> {
            pipeline(p, sets, "--set");
            return () -> { };
        });
    }

    private void say(String line) {
        if (said.add(line)) {
            err.println(line);
        }
    }

    private static String at(String file, ValueDTO v) {
        return file + ":" + v.line + ":" + v.column + ": ";
    }
}
