package io.ringlab.experiment;

import java.nio.file.InvalidPathException;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Objects;

import io.ringlab.experiment.ExperimentParser.Header;
import io.ringlab.experiment.ExperimentParser.Key;
import io.ringlab.experiment.ExperimentParser.Parsed;
import io.ringlab.experiment.ExperimentParser.Retype;
import io.ringlab.experiment.ExperimentParser.Setting;
import io.ringlab.experiment.ExperimentParser.Sweep;
import io.ringlab.experiment.ExperimentParser.Variant;
import io.ringlab.experiment.api.dto.ExperimentDTO;
import io.ringlab.experiment.api.dto.SweepDTO;
import io.ringlab.experiment.api.dto.VariantDTO;
import io.ringlab.pipeline.format.PipelineReader;
import io.ringlab.pipeline.format.Problems;
import io.ringlab.pipeline.format.Syntax;
import io.ringlab.pipeline.format.Token;
import io.ringlab.pipeline.format.Units;
import io.ringlab.sim.api.PipelineException;
import io.ringlab.sim.api.dto.ElementDescriptorDTO;
import io.ringlab.sim.api.dto.ElementSpecDTO;
import io.ringlab.sim.api.dto.ProblemDTO;
import io.ringlab.sim.api.dto.PropertyDescriptorDTO;
import io.ringlab.sim.api.dto.ValueDTO;

/**
 * Reads experiment files (format in {@code docs/experiments.md}) into {@link ExperimentDTO}s: the syntax with
 * {@link ExperimentParser}, then the values (durations, seeds, metric names), the base pipeline (read with
 * {@link PipelineReader}, its path relative to the experiment file's folder), and the variants against the pipeline's
 * elements and the installed element types. Every problem is reported with the experiment file's line and column (the
 * pipeline's own problems at the line that names the pipeline, then with the pipeline's position), all of them in one
 * {@link PipelineException}.
 * <p>
 * Stateless and thread-safe.
 */
final class ExperimentReader {

    /** The run length when neither the experiment nor the pipeline gives one, as the engine's: one second. */
    static final long DEFAULT_DURATION_PICOS = 1_000_000_000_000L;
    private static final String NO_FILE = "<input>";
    /** The end of the message for too many seeds. */
    static final String MOST_SEEDS = String.format(java.util.Locale.ROOT, "%,d", ExperimentDTO.MAX_SEEDS)
            + ", the most an experiment runs (every variant runs once per seed)";

    private ExperimentReader() {
    }

    /**
     * Reads an experiment file as UTF-8.
     *
     * @param file the file; its folder is where a relative pipeline path starts
     * @param types the installed element types, to check the variants against
     * @return the experiment
     * @throws PipelineException with every problem; one without a position if the file cannot be read
     */
    static ExperimentDTO read(Path file, List<ElementDescriptorDTO> types) throws PipelineException {
        String text = PipelineReader.text(file, "experiment");
        return read(file.toString(), text, file.getParent() != null ? file.getParent() : Path.of(""), types);
    }

    /**
     * Reads an experiment from text.
     *
     * @param fileName the file's name for messages; {@code null} for {@code "<input>"}
     * @param text the text
     * @param directory where a relative pipeline path starts
     * @param types the installed element types
     * @return the experiment
     * @throws PipelineException with every problem
     */
    static ExperimentDTO read(String fileName, String text, Path directory, List<ElementDescriptorDTO> types)
            throws PipelineException {
        Objects.requireNonNull(text, "text");
        Objects.requireNonNull(directory, "directory");
        String file = fileName != null ? fileName : NO_FILE;
        Problems problems = new Problems(file);
        Parsed parsed = new ExperimentParser(text, problems).parse();
        ExperimentDTO e = new ExperimentDTO();
        e.file = file;
        new Checker(parsed, problems, e, directory, types).check();
        problems.throwIfAny();
        return e;
    }

    /** The checks after the syntax, for one read. Not thread-safe. */
    private static final class Checker {
        private final Parsed parsed;
        private final Problems problems;
        private final ExperimentDTO e;
        private final Path directory;
        private final Map<String, ElementDescriptorDTO> installed = new LinkedHashMap<>();
        /** The pipeline's elements by name; empty when the pipeline could not be read. */
        private final Map<String, ElementSpecDTO> elements = new LinkedHashMap<>();
        /** Each run's duration, once known (from the experiment, else from the pipeline, else the default). */
        private long durationPicos = DEFAULT_DURATION_PICOS;
        private String durationSource = "the default";
        /** Whether {@link #durationPicos} is known: the pipeline was read, or the experiment gives a valid duration. */
        private boolean durationKnown;
        /** The variants' statements by name, for the sweeps' checks. */
        private final Map<String, Variant> variantTokens = new HashMap<>();

        Checker(Parsed parsed, Problems problems, ExperimentDTO e, Path directory, List<ElementDescriptorDTO> types) {
            this.parsed = parsed;
            this.problems = problems;
            this.e = e;
            this.directory = directory;
            for (ElementDescriptorDTO d : types) {
                installed.put(d.type, d);
            }
        }

        void check() {
            e.name = parsed.headers.containsKey(Key.NAME) ? value(Key.NAME).text()
                    : Syntax.baseName(e.file);
            e.description = parsed.headers.containsKey(Key.DESCRIPTION)
                    ? value(Key.DESCRIPTION).text() : null;
            pipeline();
            duration();
            seeds();
            metrics();
            if (parsed.variants.isEmpty()) {
                problems.add(0, 0, "no variant: declare at least one, the baseline first, as in 'variant off { set "
                        + "eth0.bql = false }' and 'variant on { set eth0.bql = true }'");
            }
            if (e.pipeline == null) {
                return; // without the pipeline's elements, the variants' statements cannot be checked
            }
            Map<String, String> commonTypes = new LinkedHashMap<>();
            for (Retype r : parsed.types) {
                if (retype(r)) {
                    commonTypes.put(r.element().text(), r.type().text());
                }
            }
            for (Variant v : parsed.variants) {
                e.variants.add(variant(v, commonTypes));
                variantTokens.put(v.name.text(), v);
                if (e.forkPicos > 0 && (!v.sets.isEmpty() || !v.types.isEmpty())) {
                    problems.add(v.name, "variant '" + v.name.text() + "' changes the pipeline from the start with its own"
                            + " 'set' or 'type', but in a forked experiment every variant runs the same pipeline to the fork, "
                            + Units.formatPicos(e.forkPicos) + ", and differs only by swaps at or after it: write the change"
                            + " as swap = \"" + Units.formatPicos(e.forkPicos) + ":ELEMENT=TYPE\", or put it outside the"
                            + " variants (then every variant has it), or remove 'fork'");
                }
            }
            new Sweeps(this).check();
        }

        private Token value(Key key) {
            return parsed.headers.get(key).value();
        }

        // pipeline = PATH
        private void pipeline() {
            Header h = parsed.headers.get(Key.PIPELINE);
            if (h == null) {
                problems.add(0, 0, "the key 'pipeline' is missing: name the base pipeline's file, relative to this "
                        + "file's folder, as in pipeline = \"../pipelines/netdev-bql.pipeline\"");
                return;
            }
            Token v = h.value();
            Path path;
            try {
                path = directory.resolve(v.text()).normalize();
            } catch (InvalidPathException ex) {
                problems.add(v, "pipeline: '" + v.text() + "' is not a file path: " + ex.getReason());
                return;
            }
            e.pipelineFile = path.toString();
            e.pipelineValue = value(v);
            try {
                e.pipeline = PipelineReader.readRunnable(path);
            } catch (PipelineException ex) {
                for (ProblemDTO p : ex.problems()) {
                    if (p.line == 0) {
                        problems.add(v, "pipeline '" + v.text() + "' (" + path + "): " + p.message);
                    } else { // at the line that names the pipeline, then at the pipeline's own position
                        problems.add(v, "in pipeline " + v.text() + ": " + p);
                    }
                }
                return;
            }
            for (ElementSpecDTO spec : e.pipeline.elements) {
                elements.put(spec.name, spec);
                if (ElementSpecDTO.TAP.equals(spec.type)) { // every run would write the one file: refused, never clobbered
                    problems.add(v, "in pipeline " + v.text() + ": line " + spec.line + ": element " + spec.name
                            + " is a tap: each run of the experiment would write its one capture file; take it out,"
                            + " and capture a run with 'ringlab run PIPELINE --pcap' (docs/pcap.md)");
                }
            }
            durationKnown = true;
            if (e.pipeline.duration != null) {
                durationPicos = Units.parsePicos(e.pipeline.duration.text); // the pipeline reader checked it
                durationSource = "the pipeline's duration";
            }
        }

        // duration = D, warmup = D
        private void duration() {
            Header d = parsed.headers.get(Key.DURATION);
            if (d != null) {
                long picos = picos(d.value(), Key.DURATION);
                durationKnown = picos > 0;
                if (picos == 0) {
                    problems.add(d.value(), "duration must be more than 0s");
                } else if (picos > 0) {
                    e.durationPicos = picos;
                    durationPicos = picos;
                    durationSource = "the experiment's duration";
                }
            }
            Header w = parsed.headers.get(Key.WARMUP);
            if (w != null) {
                long picos = picos(w.value(), Key.WARMUP);
                if (picos >= 0 && durationKnown && picos >= durationPicos) {
                    problems.add(w.value(), "warmup " + w.value().text() + " must be less than each run's duration, "
                            + Units.formatPicos(durationPicos) + " (" + durationSource + ")");
                } else if (picos >= 0) {
                    e.warmupPicos = picos;
                    e.warmupValue = value(w.value());
                }
            }
            // fork = D: the variants share their history to D; the warm-up (by default the fork) covers it
            Header f = parsed.headers.get(Key.FORK);
            if (f != null) {
                long picos = picos(f.value(), Key.FORK);
                if (picos == 0 || (picos > 0 && durationKnown && picos >= durationPicos)) {
                    problems.add(f.value(), "fork " + f.value().text() + " must be more than 0s and less than each run's"
                            + " duration, " + Units.formatPicos(durationPicos) + " (" + durationSource + ")");
                } else if (picos > 0) {
                    e.forkPicos = picos;
                    e.forkValue = value(f.value());
                    if (w == null) {
                        e.warmupPicos = picos;
                        e.warmupValue = value(f.value());
                    } else if (e.warmupPicos < picos) {
                        problems.add(w.value(), "warmup " + w.value().text() + " must be at least the fork, " + f.value().text()
                                + ": the branches share everything before it, so only what comes after is compared (leave"
                                + " warmup out and it is the fork)");
                    }
                }
            }
        }

        private static ValueDTO value(Token t) {
            return new ValueDTO(t.text(), t.line(), t.column());
        }

        /** @return the duration in picoseconds, or -1 after reporting why it is none */
        private long picos(Token v, Key key) {
            try {
                return Units.parsePicos(v.text());
            } catch (IllegalArgumentException ex) {
                problems.add(v, key.word + ": " + ex.getMessage());
                return -1;
            }
        }

        // seeds = N | seeds = [S, ...]
        private void seeds() {
            Header h = parsed.headers.get(Key.SEEDS);
            if (h == null) {
                problems.add(0, 0, "the key 'seeds' is missing: give a count (seeds = 10 runs every variant with seeds 1 "
                        + "to 10) or a list (seeds = [1, 2, 3, 7])");
                return;
            }
            if (!h.isList()) {
                Token v = h.value();
                long n;
                try {
                    n = Units.parseInteger(v.text());
                } catch (IllegalArgumentException ex) {
                    problems.add(v, "seeds: " + ex.getMessage() + "; write a count (seeds = 10) or a list (seeds = [1, 2, 3, 7])");
                    return;
                }
                if (n < 1) {
                    problems.add(v, "seeds: a count of " + v.text() + " is less than 1: write the number of seeds (seeds = 10"
                            + " runs seeds 1 to 10), or for particular seeds a list, as in seeds = [1, 2, 3, 7]");
                    return;
                }
                if (n > ExperimentDTO.MAX_SEEDS) {
                    problems.add(v, "seeds: a count of " + v.text() + " is more than " + MOST_SEEDS);
                    return;
                }
                for (long s = 1; s <= n; s++) {
                    e.seeds.add(s);
                }
                return;
            }
            if (h.items().isEmpty()) {
                problems.add(h.open(), "seeds: the list is empty; give at least one seed, as in seeds = [1, 2, 3]");
                return;
            }
            if (h.items().size() > ExperimentDTO.MAX_SEEDS) {
                problems.add(h.open(), "seeds: the list has " + String.format(java.util.Locale.ROOT, "%,d", h.items().size()) + " seeds, more than " + MOST_SEEDS);
                return;
            }
            Map<Long, Token> seen = new HashMap<>();
            for (Token item : h.items()) {
                long s;
                try {
                    s = Units.parseInteger(item.text());
                } catch (IllegalArgumentException ex) {
                    problems.add(item, "seeds: " + ex.getMessage());
                    continue;
                }
                Token first = seen.putIfAbsent(s, item);
                if (first != null) {
                    problems.add(item, "seed " + s + " is listed twice: " + Problems.twice(first, item)
                            + "; runs are paired by seed, so each seed runs once per variant");
                } else {
                    e.seeds.add(s);
                }
            }
        }

        // metrics = M | metrics = [M, ...]; without it, the pipeline's headline
        private void metrics() {
            Header h = parsed.headers.get(Key.METRICS);
            if (h == null) {
                if (e.pipeline != null && e.pipeline.headline != null) {
                    e.metrics.add(new ValueDTO(e.pipeline.headline.text, 0, 0));
                } else if (e.pipeline != null) {
                    problems.add(0, 0, "the key 'metrics' is missing and pipeline " + e.pipelineFile + " names no "
                            + "headline: list the metrics to compare, as in metrics = [sink.rxMpps, q.drops]");
                }
                return;
            }
            List<Token> items = h.isList() ? h.items() : List.of(h.value());
            if (items.isEmpty()) {
                problems.add(h.open(), "metrics: the list is empty; give at least one metric, as in metrics = [sink.rxMpps]");
            }
            Map<String, Token> seen = new HashMap<>();
            for (Token item : items) {
                String m = item.text();
                String element = Syntax.metricElement(m);
                if (element == null) {
                    problems.add(item, "metric '" + m + "' is not " + Syntax.METRIC_FORMS);
                    continue;
                }
                if (!element.isEmpty() && e.pipeline != null && !elements.containsKey(element)) {
                    problems.add(item, "metric '" + m + "': " + noElement(element));
                    continue;
                }
                Token first = seen.putIfAbsent(m, item);
                if (first != null) {
                    problems.add(item, "metric '" + m + "' is listed twice: " + Problems.twice(first, item));
                    continue;
                }
                e.metrics.add(new ValueDTO(m, item.line(), item.column()));
            }
        }

        private VariantDTO variant(Variant v, Map<String, String> commonTypes) {
            VariantDTO dto = new VariantDTO();
            dto.name = v.name.text();
            dto.line = v.name.line();
            dto.column = v.name.column();
            dto.types.putAll(commonTypes);
            // where each element's type comes from, for messages
            Map<String, String> origins = new HashMap<>();
            commonTypes.keySet().forEach(el -> origins.put(el, "as the experiment's 'type' statement makes it"));
            for (Retype r : v.types) {
                if (retype(r)) {
                    dto.types.put(r.element().text(), r.type().text());
                    origins.put(r.element().text(), "as variant '" + dto.name + "' makes it");
                }
            }
            List<Setting> sets = new ArrayList<>(parsed.sets);
            sets.addAll(v.sets);
            for (Setting s : sets) {
                set(s, dto, origins);
                dto.overrides.add(s.override());
            }
            for (Token swap : v.swaps) {
                swap(swap);
                dto.swaps.add(swap.text());
            }
            return dto;
        }

        /** Checks {@code type E = T}: E exists, T is installed, and E's properties in the pipeline exist in T and fit. */
        private boolean retype(Retype r) {
            return retype(r, "type " + r.element().text() + " = " + r.type().text() + ": ");
        }

        /** As {@link #retype(Retype)}, each message starting with {@code what}. */
        private boolean retype(Retype r, String what) {
            String element = r.element().text();
            String type = r.type().text();
            ElementSpecDTO spec = elements.get(element);
            if (spec == null) {
                problems.add(r.element(), what + noElement(element));
                return false;
            }
            ElementDescriptorDTO d = installed.get(type);
            if (d == null) {
                problems.add(r.type(), what + "element type '" + type
                        + "' is not installed; installed types: " + Syntax.list(installed.keySet()));
                return false;
            }
            boolean ok = true;
            for (Map.Entry<String, ValueDTO> p : spec.properties.entrySet()) {
                String where = "property '" + p.getKey() + "', which " + e.pipelineFile + ":" + p.getValue().line + ":"
                        + p.getValue().column + " sets";
                PropertyDescriptorDTO pd = property(d, p.getKey());
                if (pd == null) {
                    problems.add(r.type(), what + "type " + type + " has no " + where
                            + "; its properties: " + propertyNames(d));
                    ok = false;
                    continue;
                }
                try {
                    Units.convert(pd, p.getValue().text);
                } catch (IllegalArgumentException ex) {
                    problems.add(r.type(), what + "the value of " + where + " does not fit "
                            + "type " + type + ": " + ex.getMessage());
                    ok = false;
                }
            }
            return ok;
        }

        /**
         * Checks {@code set E.P = V} against E's type in this variant.
         *
         * @return whether it fits (or cannot be checked here)
         */
        private boolean set(Setting s, VariantDTO v, Map<String, String> origins) {
            String what = "set " + s.element() + "." + s.property() + ": ";
            ElementSpecDTO spec = elements.get(s.element());
            if (spec == null) {
                problems.add(s.target(), what + noElement(s.element()));
                return false;
            }
            String type = v.types.getOrDefault(s.element(), spec.type);
            ElementDescriptorDTO d = installed.get(type);
            if (d == null) {
                return true; // the pipeline's own type is not installed: the engine says so when the variants are prepared
            }
            String element = "element " + s.element() + " (type " + type
                    + (origins.containsKey(s.element()) ? ", " + origins.get(s.element()) : "") + ")";
            PropertyDescriptorDTO pd = property(d, s.property());
            if (pd == null) {
                problems.add(s.target(), what + element + " has no property '" + s.property() + "'; its properties: "
                        + propertyNames(d));
                return false;
            }
            try {
                Units.convert(pd, s.value().text());
                return true;
            } catch (IllegalArgumentException ex) {
                problems.add(s.value(), what + element + ": " + ex.getMessage());
                return false;
            }
        }

        /** Checks {@code swap = "AT:ELEMENT[=TYPE[@VERSION]]"}: the engine applies it, this only checks its shape. */
        private void swap(Token v) {
            String text = v.text();
            String what = "swap '" + text + "': ";
            String grammar = "; expected AT:ELEMENT[=TYPE[@VERSION]], as in 1s:eth0=stmmac";
            int colon = text.indexOf(':');
            if (colon < 0) {
                problems.add(v, what + "no ':' after the time" + grammar);
                return;
            }
            try {
                long at = Units.parsePicos(text.substring(0, colon));
                if (durationKnown && at >= durationPicos) {
                    problems.add(v, what + "the time " + text.substring(0, colon) + " is not before the end of each run, "
                            + Units.formatPicos(durationPicos) + " (" + durationSource + ")");
                }
            } catch (IllegalArgumentException ex) {
                problems.add(v, what + "the time: " + ex.getMessage());
            }
            String rest = text.substring(colon + 1);
            int eq = rest.indexOf('=');
            String element = eq < 0 ? rest : rest.substring(0, eq);
            if (!elements.containsKey(element)) {
                problems.add(v, what + noElement(element) + grammar);
                return;
            }
            if (eq >= 0) {
                String target = rest.substring(eq + 1);
                int at = target.indexOf('@');
                String type = at < 0 ? target : target.substring(0, at);
                if (!Syntax.TYPE_ID.matcher(type).matches()) {
                    problems.add(v, what + "element type '" + type + "' is not valid: " + Syntax.TYPE_ID_RULE);
                } else if (at >= 0 && at == target.length() - 1) {
                    problems.add(v, what + "the version after '@' is missing" + grammar);
                }
            }
        }

        /**
         * The sweeps' checks and expansion (grammar in {@code docs/experiments.md}, "Sweeps"): targets exist and are
         * set nowhere else, each once; a list's values fit the property (or are installed types the element's properties
         * fit) in every type the element has in any variant or point; a range becomes its values in the property's
         * grammar; the runs the sweeps multiply to stay within {@link ExperimentDTO#MAX_RUNS}.
         */
        private static final class Sweeps {
            private final Checker c;
            /** Target to the token of the sweep that first sets it. */
            private final Map<String, Token> swept = new HashMap<>();
            /** Element to the types a sweep gives it (in every point), for the property targets on it. */
            private final Map<String, List<String>> sweptTypes = new HashMap<>();

            Sweeps(Checker c) {
                this.c = c;
            }

            void check() {
                List<Sweep> sweeps = c.parsed.sweeps;
                for (Sweep s : sweeps) { // type targets first: a property sweep on the same element is checked in each
                    if (s.targets().size() == 1 && !s.targets().get(0).text().contains(".") && s.range() == null) {
                        List<String> types = new ArrayList<>();
                        s.tuples().forEach(t -> types.add(t.get(0).text()));
                        sweptTypes.put(s.targets().get(0).text(), types);
                    }
                }
                boolean ok = true;
                for (Sweep s : sweeps) {
                    SweepDTO dto = sweep(s);
                    ok &= dto != null;
                    if (dto != null) {
                        c.e.sweeps.add(dto);
                    }
                }
                if (!ok || sweeps.isEmpty()) {
                    return;
                }
                long runs = (long) Math.max(1, c.e.variants.size()) * Math.max(1, c.e.seeds.size());
                for (SweepDTO s : c.e.sweeps) {
                    runs = Math.multiplyHigh(runs, s.values.size()) != 0 ? Long.MAX_VALUE : runs * s.values.size();
                    if (runs > ExperimentDTO.MAX_RUNS) {
                        c.problems.add(s.line, s.column, "the sweeps up to this one expand to more than "
                                + String.format(java.util.Locale.ROOT, "%,d", ExperimentDTO.MAX_RUNS) + " runs ("
                                + "variants x points x seeds), the most an experiment runs: narrow a range or take fewer"
                                + " seeds");
                        return;
                    }
                }
            }

            /** @return the sweep checked and expanded, or {@code null} after reporting why not */
            private SweepDTO sweep(Sweep s) {
                String what = "sweep " + s.written() + ": ";
                boolean ok = true;
                for (Token t : s.targets()) {
                    ok &= target(t, what);
                }
                if (!ok) {
                    return null;
                }
                SweepDTO dto = new SweepDTO();
                dto.line = s.keyword().line();
                dto.column = s.keyword().column();
                s.targets().forEach(t -> dto.targets.add(t.text()));
                if (s.range() != null) {
                    List<String> values = range(s, what);
                    if (values == null) {
                        return null;
                    }
                    values.forEach(v -> dto.values.add(List.of(v)));
                    return dto;
                }
                for (List<Token> tuple : s.tuples()) {
                    List<String> texts = new ArrayList<>();
                    for (int i = 0; i < tuple.size(); i++) {
                        Token v = tuple.get(i);
                        ok &= value(s.targets().get(i), v, what);
                        texts.add(v.kind() == Token.Kind.STRING ? Syntax.quote(v.text()) : v.text());
                    }
                    dto.values.add(List.copyOf(texts));
                }
                Map<List<String>, Token> seen = new HashMap<>();
                for (int i = 0; i < dto.values.size(); i++) {
                    Token first = seen.putIfAbsent(dto.values.get(i), s.tuples().get(i).get(0));
                    if (first != null) {
                        c.problems.add(s.tuples().get(i).get(0), what + "the value " + String.join(", ", dto.values.get(i))
                                + " is listed twice: " + Problems.twice(first, s.tuples().get(i).get(0)));
                        ok = false;
                    }
                }
                return ok ? dto : null;
            }

            /** The target exists, is swept once, and no variant or common statement sets it. */
            private boolean target(Token t, String what) {
                String w = t.text();
                int dot = w.indexOf('.');
                String element = dot < 0 ? w : w.substring(0, dot);
                if (!c.elements.containsKey(element)) {
                    c.problems.add(t, what + c.noElement(element));
                    return false;
                }
                Token first = swept.putIfAbsent(w, t);
                if (first != null) {
                    c.problems.add(t, what + "'" + w + "' is swept twice: " + Problems.twice(first, t)
                            + "; one sweep gives a target its values (targets that move together: sweep (A, B) = [...])");
                    return false;
                }
                List<String> setBy = new ArrayList<>();
                if (dot < 0) {
                    c.parsed.types.stream().filter(r -> r.element().text().equals(w))
                            .forEach(r -> setBy.add("'type " + w + "' at line " + r.element().line()));
                    for (Variant v : c.parsed.variants) {
                        v.types.stream().filter(r -> r.element().text().equals(w)).forEach(r -> setBy.add("variant '"
                                + v.name.text() + "' at line " + r.element().line()));
                    }
                } else {
                    c.parsed.sets.stream().filter(x -> (x.element() + "." + x.property()).equals(w))
                            .forEach(x -> setBy.add("'set " + w + "' at line " + x.target().line()));
                    for (Variant v : c.parsed.variants) {
                        v.sets.stream().filter(x -> (x.element() + "." + x.property()).equals(w)).forEach(x -> setBy.add(
                                "variant '" + v.name.text() + "' at line " + x.target().line()));
                    }
                }
                if (!setBy.isEmpty()) {
                    c.problems.add(t, what + "'" + w + "' is also " + (dot < 0 ? "retyped" : "set") + " by "
                            + String.join(", ", setBy) + ": a swept target takes its value from the sweep alone");
                    return false;
                }
                return true;
            }

            /**
             * @return the types the element has somewhere in the experiment: per variant its type there (the pipeline's
             *         or the variant's), or, when a sweep gives it types, each of those; each with where it comes from
             */
            private Map<String, String> types(String element) {
                Map<String, String> types = new LinkedHashMap<>();
                List<String> swept = sweptTypes.get(element);
                if (swept != null) {
                    swept.forEach(t -> types.putIfAbsent(t, "as a sweep makes it"));
                    return types;
                }
                String base = c.elements.get(element).type;
                for (VariantDTO v : c.e.variants) {
                    String t = v.types.getOrDefault(element, base);
                    types.putIfAbsent(t, t.equals(base) ? "the pipeline's" : "as variant '" + v.name + "' makes it");
                }
                if (types.isEmpty()) {
                    types.put(base, "the pipeline's");
                }
                return types;
            }

            /** Checks one value of a list against its target in every type the element has. */
            private boolean value(Token target, Token v, String what) {
                String w = target.text();
                int dot = w.indexOf('.');
                if (dot < 0) {
                    boolean ok = c.retype(new Retype(target, v), what);
                    if (ok) { // the statements of every variant that set this element's properties fit the new type
                        for (Variant variant : c.parsed.variants) {
                            List<Setting> sets = new ArrayList<>(c.parsed.sets);
                            sets.addAll(variant.sets);
                            for (Setting x : sets) {
                                if (x.element().equals(w)) {
                                    VariantDTO one = new VariantDTO();
                                    one.name = variant.name.text();
                                    one.types.put(w, v.text());
                                    ok &= c.set(x, one, Map.of(w, "as the sweep at line " + target.line() + " makes it"));
                                }
                            }
                        }
                    }
                    return ok;
                }
                String element = w.substring(0, dot);
                String property = w.substring(dot + 1);
                boolean ok = true;
                for (Map.Entry<String, String> type : types(element).entrySet()) {
                    ElementDescriptorDTO d = c.installed.get(type.getKey());
                    if (d == null) {
                        continue; // reported where the type is named (or by the engine, for the pipeline's own)
                    }
                    String where = "element " + element + " (type " + type.getKey() + ", " + type.getValue() + ")";
                    PropertyDescriptorDTO pd = property(d, property);
                    if (pd == null) {
                        c.problems.add(target, what + where + " has no property '" + property + "'; its properties: "
                                + propertyNames(d));
                        return false;
                    }
                    try {
                        Units.convert(pd, v.text());
                    } catch (IllegalArgumentException ex) {
                        c.problems.add(v, what + where + ": " + ex.getMessage());
                        ok = false;
                    }
                }
                return ok;
            }

            /** @return a range's values in the property's grammar, or {@code null} after reporting why not */
            private List<String> range(Sweep s, String what) {
                Token at = s.range().get(0);
                Token target = s.targets().get(0);
                String w = target.text();
                int dot = w.indexOf('.');
                if (dot < 0) {
                    c.problems.add(at, what + "a type is swept over a list of types, as in sweep " + w
                            + " = [pfifo_fast, fq_codel], not a range");
                    return null;
                }
                String element = w.substring(0, dot);
                PropertyDescriptorDTO pd = null;
                for (String type : types(element).keySet()) {
                    ElementDescriptorDTO d = c.installed.get(type);
                    PropertyDescriptorDTO p = d == null ? null : property(d, w.substring(dot + 1));
                    if (d != null && p == null) {
                        c.problems.add(target, what + "element " + element + " (type " + type + ") has no property '"
                                + w.substring(dot + 1) + "'; its properties: " + propertyNames(d));
                        return null;
                    }
                    if (pd == null) {
                        pd = p;
                    } else if (p != null && (p.kind != pd.kind || !java.util.Objects.equals(p.min, pd.min)
                            || !java.util.Objects.equals(p.max, pd.max))) {
                        c.problems.add(at, what + "the property's kind or range differs between the element's types ("
                                + pd.kind + " " + pd.min + ".." + pd.max + " against " + p.kind + " " + p.min + ".." + p.max
                                + "): give the values as a list");
                        return null;
                    }
                }
                if (pd == null) {
                    return null; // the element's type is not installed: the engine names it when the variants are prepared
                }
                List<String> parts = new ArrayList<>();
                s.range().forEach(t -> parts.add(t.text()));
                try {
                    return SweepRange.expand(pd, String.join(" ", parts), ExperimentDTO.MAX_RUNS);
                } catch (IllegalArgumentException ex) {
                    c.problems.add(at, what + ex.getMessage());
                    return null;
                }
            }
        }

        private String noElement(String element) {
            return "no element '" + element + "' in pipeline " + e.pipelineFile + "; elements: "
                    + Syntax.list(elements.keySet());
        }

        private static PropertyDescriptorDTO property(ElementDescriptorDTO d, String name) {
            for (PropertyDescriptorDTO p : d.properties) {
                if (p.name.equals(name)) {
                    return p;
                }
            }
            return null;
        }

        private static String propertyNames(ElementDescriptorDTO d) {
            List<String> names = new ArrayList<>();
            for (PropertyDescriptorDTO p : d.properties) {
                names.add(p.name);
            }
            return Syntax.list(names);
        }
    }
}
