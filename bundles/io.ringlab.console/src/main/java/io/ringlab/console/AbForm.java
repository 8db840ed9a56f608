package io.ringlab.console;

import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.LinkedHashSet;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.Set;
import java.util.TreeSet;
import java.util.function.BiConsumer;

import io.ringlab.experiment.api.dto.ExperimentDTO;
import io.ringlab.experiment.api.dto.VariantDTO;
import io.ringlab.pipeline.format.MetricNames;
import io.ringlab.pipeline.format.OverrideException;
import io.ringlab.pipeline.format.Overrides;
import io.ringlab.pipeline.format.PropertyOverride;
import io.ringlab.pipeline.format.Syntax;
import io.ringlab.pipeline.format.Units;
import io.ringlab.sim.api.dto.ElementDescriptorDTO;
import io.ringlab.sim.api.dto.ElementSpecDTO;
import io.ringlab.sim.api.dto.PipelineDTO;
import io.ringlab.sim.api.dto.PropertyDescriptorDTO;
import io.ringlab.sim.api.dto.RunResultDTO;
import io.ringlab.sim.api.dto.ValueDTO;

/**
 * The A/B panel's form, without widgets: an experiment made from the pipeline in the editor. Variant {@value #A} is the
 * pipeline as it is (the baseline); variant {@value #B} replaces element types ({@code ELEMENT=TYPE}, one a line) and
 * then overrides properties ({@code ELEMENT.PROPERTY=VALUE}, one a line, the {@code --set} grammar), as an experiment
 * file's {@code type} and {@code set} statements do. Seeds are a count (seeds 1 to N), the duration and warm-up use the
 * pipeline files' time grammar, and the metrics are those chosen from the list of what the pipeline reports plus those
 * typed ({@code ELEMENT.METRIC}, comma or blank separated).
 * <p>
 * Every message names the field and says what is allowed; the engine's own checks (ports of a replaced type, a
 * property the new type lacks) come when the experiment service prepares each variant before the first run.
 */
final class AbForm {
    /** The variants' names: the pipeline as it is, and the pipeline with the form's changes. */
    static final String A = "A", B = "B";
    /** The file name experiments made in the form carry ({@link ExperimentDTO#file}) in messages. */
    static final String FILE = "<A/B form>";
    /** Virtual time of the short run that finds the metrics a pipeline reports. */
    static final String PROBE_DURATION = "1ms";

    /**
     * What the user typed and chose.
     *
     * @param types variant B's type replacements, {@code ELEMENT=TYPE} one a line
     * @param overrides variant B's property overrides, {@code ELEMENT.PROPERTY=VALUE} one a line
     * @param seeds how many seeds
     * @param duration each run's simulated time; blank for the pipeline's
     * @param warmup what each run's results leave out; blank for none
     * @param chosenMetrics the metrics selected in the list
     * @param typedMetrics more metrics, comma or blank separated
     */
    record Fields(String types, String overrides, String seeds, String duration, String warmup, List<String> chosenMetrics,
            String typedMetrics) {
    }

    /**
     * The outcome of {@link #build}.
     *
     * @param experiment the experiment, or {@code null} when {@code errors} is not empty
     * @param errors one message per problem, each naming its field; empty when the experiment was built
     * @param warnings what was accepted but probably not meant, each naming its field (an old metric name, read as
     *        today's: {@link MetricNames}); shown beside the errors, never stopping a run
     */
    record Built(ExperimentDTO experiment, List<String> errors, List<String> warnings) {
    }

    private AbForm() {
    }

    /**
     * Builds the experiment.
     *
     * @param f the fields
     * @param pipeline the editor's pipeline (variant A); not modified, and the experiment refers to it
     * @param pipelineFile the pipeline's file, for the result; {@code null} for an unsaved pipeline
     * @param installed the installed element types
     * @return the experiment, or the messages
     */
    static Built build(Fields f, PipelineDTO pipeline, String pipelineFile, List<ElementDescriptorDTO> installed) {
        List<String> errors = new ArrayList<>();
        Map<String, ElementDescriptorDTO> byType = new LinkedHashMap<>();
        installed.forEach(d -> byType.put(d.type, d));
        ExperimentDTO e = new ExperimentDTO();
        e.file = FILE;
        e.name = (pipeline.name == null ? "pipeline" : pipeline.name) + "-ab";
        e.pipeline = pipeline;
        e.pipelineFile = pipelineFile == null ? "<unsaved>" : pipelineFile;

        int seeds = seeds(f.seeds(), errors);
        for (long s = 1; s <= seeds; s++) {
            e.seeds.add(s);
        }
        e.durationPicos = duration("Duration", f.duration(), errors);
        long each = e.durationPicos > 0 ? e.durationPicos : pipelineDuration(pipeline);
        e.warmupPicos = duration("Warm-up", f.warmup(), errors);
        if (e.warmupPicos > 0 && e.warmupPicos >= each) {
            errors.add("Warm-up: " + Units.formatPicos(e.warmupPicos) + " must be less than each run's duration, "
                    + Units.formatPicos(each) + (e.durationPicos > 0 ? "" : " (the pipeline's)"));
        }

        VariantDTO a = new VariantDTO();
        a.name = A;
        VariantDTO b = new VariantDTO();
        b.name = B;
        types(f.types(), pipeline, byType, b, errors);
        overrides(f.overrides(), pipeline, byType, b, errors);
        if (b.types.isEmpty() && b.overrides.isEmpty() && blank(f.types()) && blank(f.overrides())) {
            errors.add("Variant B: give at least one element type replacement (ELEMENT=TYPE) or property override "
                    + "(ELEMENT.PROPERTY=VALUE); without one, B is A");
        }
        e.variants.add(a);
        e.variants.add(b);

        List<String> warnings = new ArrayList<>();
        metrics(f, pipeline, e, errors, warnings);
        return new Built(errors.isEmpty() ? e : null, List.copyOf(errors), List.copyOf(warnings));
    }

    /**
     * A file's experiment with the panel's overrides of its seeds, duration and warm-up; a blank field keeps the file's
     * (its seeds, its duration or the pipeline's, its warm-up).
     *
     * @param file the experiment as its file has it; not changed
     * @param seeds how many seeds to run (seeds 1 to N), or blank
     * @param duration each run's duration in the time grammar, or blank
     * @param warmup the warm-up, or blank ({@code 0s} for none)
     * @return the experiment to run, or the errors naming the field and what is allowed
     */
    static Built overrideFile(ExperimentDTO file, String seeds, String duration, String warmup) {
        List<String> errors = new ArrayList<>();
        ExperimentDTO e = new ExperimentDTO();
        for (java.lang.reflect.Field f : ExperimentDTO.class.getFields()) { // every field as the file has it
            if (!java.lang.reflect.Modifier.isStatic(f.getModifiers())) {
                try {
                    f.set(e, f.get(file));
                } catch (IllegalAccessException x) {
                    throw new IllegalStateException("ExperimentDTO." + f.getName() + " is public but not accessible", x);
                }
            }
        }
        if (!blank(seeds)) {
            int n = seeds(seeds, errors);
            e.seeds = new ArrayList<>();
            for (long k = 1; k <= n; k++) {
                e.seeds.add(k);
            }
        }
        if (!blank(duration)) {
            e.durationPicos = duration("Duration", duration, errors);
        }
        if (!blank(warmup)) {
            e.warmupPicos = duration("Warm-up", warmup, errors);
            e.warmupValue = null; // the panel's value, not the file's line
        }
        long each = e.durationPicos > 0 ? e.durationPicos : pipelineDuration(e.pipeline);
        if (e.warmupPicos > 0 && e.warmupPicos >= each) {
            errors.add("Warm-up: " + Units.formatPicos(e.warmupPicos) + " must be less than each run's duration, "
                    + Units.formatPicos(each) + (e.durationPicos > 0 ? "" : " (the pipeline's)"));
        }
        return new Built(errors.isEmpty() ? e : null, List.copyOf(errors), List.of());
    }

    private static int seeds(String text, List<String> errors) {
        String t = text == null ? "" : text.strip();
        String allowed = "write how many seeds to run, a whole number from 1 (3 runs seeds 1 to 3 in each variant)";
        if (t.isEmpty()) {
            errors.add("Seeds: empty; " + allowed);
            return 0;
        }
        try {
            int n = Integer.parseInt(t);
            if (n > ExperimentDTO.MAX_SEEDS) { // a count beyond it is a typo, and would fill the heap with seeds
                errors.add("Seeds: a count of " + n + " is more than " + String.format(java.util.Locale.ROOT, "%,d",
                        ExperimentDTO.MAX_SEEDS) + ", the most an experiment runs; " + allowed);
                return 0;
            }
            if (n >= 1) {
                return n;
            }
            errors.add("Seeds: a count of " + n + " is less than 1; " + allowed);
        } catch (NumberFormatException x) {
            errors.add("Seeds: '" + t + "' is not a whole number; " + allowed);
        }
        return 0;
    }

    /** @return the duration in picoseconds, 0 for a blank field */
    private static long duration(String field, String text, List<String> errors) {
        String t = text == null ? "" : text.strip();
        if (t.isEmpty()) {
            return 0;
        }
        try {
            long ps = Units.parsePicos(t);
            if (ps <= 0 && field.equals("Duration")) {
                errors.add("Duration: must be more than 0s; empty for the pipeline's duration");
            }
            return ps;
        } catch (IllegalArgumentException x) {
            errors.add(field + ": " + x.getMessage() + (field.equals("Duration") ? "; empty for the pipeline's duration"
                    : "; empty for no warm-up"));
            return 0;
        }
    }

    private static long pipelineDuration(PipelineDTO p) {
        try {
            return p.duration == null ? 1_000_000_000_000L : Units.parsePicos(p.duration.text);
        } catch (IllegalArgumentException x) {
            return 1_000_000_000_000L; // the reader has checked the pipeline's own duration
        }
    }

    /** {@code ELEMENT=TYPE} lines into {@code b.types}. */
    private static void types(String text, PipelineDTO p, Map<String, ElementDescriptorDTO> byType, VariantDTO b,
            List<String> errors) {
        eachLine(text, (n, line) -> {
            String where = "Variant B types, line " + n + " '" + line + "': ";
            int eq = line.indexOf('=');
            if (eq < 0) {
                errors.add(where + "expected ELEMENT=TYPE, as in eth0=stmmac");
                return;
            }
            String element = line.substring(0, eq).strip(), type = line.substring(eq + 1).strip();
            if (element(p, element) == null) {
                errors.add(where + noElement(p, element));
            } else if (b.types.containsKey(element)) {
                errors.add(where + "element " + element + " is given a type twice");
            } else if (!byType.containsKey(type)) {
                errors.add(where + "element type '" + type + "' is not installed; installed types: " + Syntax.list(byType.keySet()));
            } else {
                b.types.put(element, type);
            }
        });
    }

    /** {@code ELEMENT.PROPERTY=VALUE} lines into {@code b.overrides}, each checked against the element's type in B. */
    private static void overrides(String text, PipelineDTO p, Map<String, ElementDescriptorDTO> byType, VariantDTO b,
            List<String> errors) {
        eachLine(text, (n, line) -> {
            String where = "Variant B overrides, line " + n + ": ";
            PropertyOverride o;
            try {
                o = Overrides.parse(line);
            } catch (OverrideException x) {
                errors.add(where + x.getMessage());
                return;
            }
            ElementSpecDTO spec = element(p, o.element());
            if (spec == null) {
                errors.add(where + "'" + line + "': " + noElement(p, o.element()));
                return;
            }
            String type = b.types.getOrDefault(o.element(), spec.type);
            ElementDescriptorDTO d = byType.get(type);
            PropertyDescriptorDTO prop = d == null ? null
                    : d.properties.stream().filter(x -> x.name.equals(o.property())).findFirst().orElse(null);
            String as = "element " + o.element() + " (type " + type + (b.types.containsKey(o.element()) ? ", as B makes it" : "") + ")";
            if (d == null) {
                errors.add(where + "'" + line + "': " + as + ": the type is not installed");
            } else if (prop == null) {
                errors.add(where + "'" + line + "': " + as + " has no property '" + o.property() + "'; its properties: "
                        + Syntax.list(d.properties.stream().map(x -> x.name).toList()));
            } else {
                try {
                    Units.convert(prop, o.value().text);
                    b.overrides.add(line);
                } catch (IllegalArgumentException x) { // the message starts with the property's name
                    errors.add(where + o.element() + "." + x.getMessage());
                }
            }
        });
    }

    private static void metrics(Fields f, PipelineDTO p, ExperimentDTO e, List<String> errors, List<String> warnings) {
        Set<String> all = new LinkedHashSet<>(f.chosenMetrics());
        if (f.typedMetrics() != null) {
            for (String m : f.typedMetrics().split("[,\\s]+")) {
                if (!m.isEmpty()) {
                    all.add(m);
                }
            }
        }
        if (all.isEmpty()) {
            errors.add("Metrics: none chosen; select at least one in the list, or type " + Syntax.METRIC_FORMS);
        }
        for (String m : all) {
            String element = Syntax.metricElement(m);
            if (element == null) {
                errors.add("Metrics: '" + m + "' is not " + Syntax.METRIC_FORMS);
            } else if (!element.isEmpty() && element(p, element) == null) {
                errors.add("Metrics: '" + m + "': " + noElement(p, element));
            } else {
                String old = MetricNames.deprecation(m);
                if (old != null) {
                    warnings.add("Metrics: warning: " + old);
                }
                e.metrics.add(new ValueDTO(MetricNames.current(m), 0, 0));
            }
        }
    }

    /**
     * @return every metric a run reported, as {@code ELEMENT.METRIC} ({@code pool:NAME.METRIC}, {@code cpuN.METRIC} for
     *         the pools and cores), sorted: the choices of the form's metric list
     */
    static List<String> reportedMetrics(RunResultDTO r) {
        Set<String> out = new TreeSet<>();
        r.elements.forEach((owner, metrics) -> metrics.keySet().forEach(m -> out.add(owner + "." + m)));
        return List.copyOf(out);
    }

    /**
     * @return the experiment in a few lines, for the panel: its name and file, the pipeline, the variants with what each
     *         changes, the seeds, duration, warm-up and metrics
     */
    static String describe(ExperimentDTO e) {
        StringBuilder sb = new StringBuilder();
        sb.append(e.name).append(" (").append(e.file).append(")\n");
        sb.append("pipeline ").append(e.pipeline == null ? "?" : e.pipeline.name).append(" (").append(e.pipelineFile).append(")\n");
        for (int i = 0; i < e.variants.size(); i++) {
            VariantDTO v = e.variants.get(i);
            List<String> changes = new ArrayList<>();
            v.types.forEach((el, t) -> changes.add("type " + el + " = " + t));
            v.overrides.forEach(o -> changes.add("set " + o));
            v.swaps.forEach(s -> changes.add("swap " + s));
            sb.append("variant ").append(v.name).append(i == 0 ? " (baseline)" : "").append(": ")
                    .append(changes.isEmpty() ? "the pipeline as it is" : String.join("; ", changes)).append('\n');
        }
        sb.append("seeds ").append(e.seeds).append(", duration ")
                .append(e.durationPicos > 0 ? Units.formatPicos(e.durationPicos) : "the pipeline's")
                .append(", warm-up ").append(Units.formatPicos(e.warmupPicos)).append('\n');
        sb.append("metrics ").append(String.join(", ", e.metrics.stream().map(m -> m.text).toList()));
        return sb.toString();
    }

    /** @return the progress line of a run that ended: {@code 3/4 runs, 0:02 elapsed: variant B, seed 1 FINISHED} */
    static String progress(int done, int total, long elapsedSeconds, String variant, long seed, String state) {
        return String.format(Locale.ROOT, "%d/%d runs, %d:%02d elapsed: variant %s, seed %d %s", done, total, elapsedSeconds / 60,
                elapsedSeconds % 60, variant, seed, state);
    }

    /** Calls {@code each} with the number (from 1) and the stripped text of every non-blank line of {@code text}. */
    private static void eachLine(String text, BiConsumer<Integer, String> each) {
        String[] lines = text == null ? new String[0] : text.split("\\R", -1);
        for (int i = 0; i < lines.length; i++) {
            if (!lines[i].isBlank()) {
                each.accept(i + 1, lines[i].strip());
            }
        }
    }

    private static boolean blank(String s) {
        return s == null || s.isBlank();
    }

    private static ElementSpecDTO element(PipelineDTO p, String name) {
        return p.elements.stream().filter(x -> x.name.equals(name)).findFirst().orElse(null);
    }

    private static String noElement(PipelineDTO p, String name) {
        return "no element '" + name + "' in pipeline " + p.name + "; elements: "
                + Syntax.list(p.elements.stream().map(x -> x.name).toList());
    }
}
