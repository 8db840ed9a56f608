package io.ringlab.experiment;

import java.lang.reflect.Field;
import java.lang.reflect.Modifier;
import java.util.ArrayList;
import java.util.HashSet;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Set;

import io.ringlab.experiment.api.dto.ExperimentDTO;
import io.ringlab.experiment.api.dto.SweepDTO;
import io.ringlab.experiment.api.dto.VariantDTO;
import io.ringlab.pipeline.format.MetricNames;
import io.ringlab.pipeline.format.Units;
import io.ringlab.sim.api.PipelineException;
import io.ringlab.sim.api.SimulationRun;
import io.ringlab.sim.api.Simulator;
import io.ringlab.sim.api.dto.ElementSpecDTO;
import io.ringlab.sim.api.dto.PipelineDTO;
import io.ringlab.sim.api.dto.ProblemDTO;
import io.ringlab.sim.api.dto.RunOptionsDTO;
import io.ringlab.sim.api.dto.ValueDTO;

/**
 * What an experiment will run, checked: each variant's pipeline (the base with its element types replaced) and run
 * options, and the list of runs. {@link #of} refuses an experiment that cannot run, before anything has run: no variant,
 * seed or metric, a seed given twice, a warm-up not shorter than the duration, or a variant the engine refuses to
 * prepare (every variant is prepared once, with the first seed, and closed).
 * <p>
 * Immutable once built; the pipelines and options it hands out are shared by the runs of one variant and must not be
 * modified (the engine copies a pipeline before applying overrides).
 */
final class Plan {

    /**
     * One run: a variant with a seed at a sweep point.
     *
     * @param index where the run's result goes: ((point index times the number of variants) plus variant index) times
     *        the number of seeds plus seed index
     * @param variant the variant's index in the experiment
     * @param point the sweep point's index in {@link Plan#points}
     * @param seed the seed
     */
    record Job(int index, int variant, int point, long seed) {
    }

    final ExperimentDTO experiment;
    /** Each run's duration in picoseconds, resolved: the experiment's, else the pipeline's, else one second. */
    final long durationPicos;
    /**
     * The sweep points, the cartesian product of the experiment's sweeps (the first varying slowest): each target to its
     * value ({@code SweepDTO.targets}, {@code values}); one empty point for an experiment without sweeps.
     */
    final List<Map<String, String>> points;
    /** Per variant, in the experiment's order: its pipeline for each set of element types the points give it. */
    private final List<Map<Map<String, String>, PipelineDTO>> pipelines;
    /**
     * The runs, point by point, and in a point seed by seed (every variant of the first seed, then of the second, ...),
     * so pairs complete early and a point's runs end together.
     */
    final List<Job> jobs;

    private Plan(ExperimentDTO experiment, long durationPicos, List<Map<String, String>> points,
            List<Map<Map<String, String>, PipelineDTO>> pipelines, List<Job> jobs) {
        this.experiment = experiment;
        this.durationPicos = durationPicos;
        this.points = points;
        this.pipelines = pipelines;
        this.jobs = jobs;
    }

    /** @return the pipeline a run of the variant prepares at the point: the base with the variant's and point's types */
    PipelineDTO pipeline(int variant, int point) {
        return pipelines.get(variant).get(types(points.get(point)));
    }

    /** @return the point's type targets ({@code ELEMENT} alone) to their types */
    private static Map<String, String> types(Map<String, String> point) {
        Map<String, String> types = new LinkedHashMap<>();
        point.forEach((target, value) -> {
            if (target.indexOf('.') < 0) {
                types.put(target, value);
            }
        });
        return types;
    }

    /**
     * @return the sweep points: the cartesian product of the sweeps, the first varying slowest; one empty point without
     *         sweeps
     */
    static List<Map<String, String>> points(List<SweepDTO> sweeps) {
        List<Map<String, String>> points = new ArrayList<>();
        points.add(new LinkedHashMap<>());
        for (SweepDTO s : sweeps) {
            List<Map<String, String>> next = new ArrayList<>();
            for (Map<String, String> p : points) {
                for (List<String> tuple : s.values) {
                    Map<String, String> q = new LinkedHashMap<>(p);
                    for (int i = 0; i < s.targets.size(); i++) {
                        q.put(s.targets.get(i), tuple.get(i));
                    }
                    next.add(q);
                }
            }
            points = next;
        }
        List<Map<String, String>> frozen = new ArrayList<>();
        points.forEach(p -> frozen.add(java.util.Collections.unmodifiableMap(p)));
        return List.copyOf(frozen);
    }

    /**
     * Checks an experiment and plans its runs.
     *
     * @param e the experiment; not modified
     * @param simulator the engine, to prepare each variant once
     * @return the plan
     * @throws PipelineException every reason the experiment cannot run, each naming the experiment file (and the
     *         variant's position for what the engine refuses)
     */
    static Plan of(ExperimentDTO e, Simulator simulator) throws PipelineException {
        String file = e.file != null ? e.file : "<input>";
        List<ProblemDTO> problems = new ArrayList<>();
        if (e.pipeline == null) {
            problems.add(new ProblemDTO(file, 0, 0, "the experiment has no base pipeline (read it with the 'pipeline' key)"));
        }
        if (e.variants.isEmpty()) {
            problems.add(new ProblemDTO(file, 0, 0, "the experiment has no variant; the first variant is the baseline"));
        }
        if (e.seeds.isEmpty()) {
            problems.add(new ProblemDTO(file, 0, 0, "the experiment has no seed"));
        } else if (new HashSet<>(e.seeds).size() != e.seeds.size()) {
            problems.add(new ProblemDTO(file, 0, 0, "the seeds " + e.seeds + " repeat a seed; runs are paired by seed, "
                    + "so each seed runs once per variant"));
        }
        if (e.metrics.isEmpty()) {
            problems.add(new ProblemDTO(file, 0, 0, "the experiment names no metric to compare"));
        }
        long runs = Math.max(1, e.variants.size()) * (long) Math.max(1, e.seeds.size());
        for (SweepDTO s : e.sweeps) {
            if (s.values.isEmpty() || s.targets.isEmpty()) {
                problems.add(new ProblemDTO(file, s.line, s.column, "a sweep has no " + (s.targets.isEmpty() ? "target" : "value")));
            }
            for (List<String> tuple : s.values) {
                if (tuple.size() != s.targets.size()) {
                    problems.add(new ProblemDTO(file, s.line, s.column, "the sweep of " + s.targets + " has a value "
                            + tuple + " with " + tuple.size() + " parts for " + s.targets.size() + " targets"));
                }
            }
            runs = runs > ExperimentDTO.MAX_RUNS ? runs : runs * Math.max(1, s.values.size());
        }
        if (runs > ExperimentDTO.MAX_RUNS) {
            problems.add(new ProblemDTO(file, 0, 0, "the experiment expands to " + String.format(java.util.Locale.ROOT,
                    "%,d", runs) + " runs (variants x sweep points x seeds), more than " + String.format(java.util.Locale.ROOT,
                    "%,d", ExperimentDTO.MAX_RUNS) + ", the most an experiment runs: narrow a sweep or take fewer seeds"));
        }
        Set<String> names = new HashSet<>();
        for (VariantDTO v : e.variants) {
            if (!names.add(v.name)) {
                problems.add(new ProblemDTO(file, v.line, v.column, "variant '" + v.name + "' is declared twice"));
            }
        }
        if (!problems.isEmpty()) {
            throw new PipelineException(problems);
        }
        long duration = e.durationPicos > 0 ? e.durationPicos
                : e.pipeline.duration != null ? Units.parsePicos(e.pipeline.duration.text) : ExperimentReader.DEFAULT_DURATION_PICOS;
        if (e.warmupPicos < 0 || e.warmupPicos >= duration) {
            ValueDTO w = e.warmupValue; // where the file sets it, when it does
            throw new PipelineException(List.of(new ProblemDTO(file, w == null ? 0 : w.line, w == null ? 0 : w.column, "warmup " + Units.formatPicos(Math.max(0, e.warmupPicos))
                    + " must be at least 0s and less than each run's duration, " + Units.formatPicos(duration))));
        }
        if (e.forkPicos != 0) {
            forkProblems(e, duration, file, problems);
            if (!problems.isEmpty()) {
                throw new PipelineException(problems);
            }
        }
        List<Map<String, String>> points = points(e.sweeps);
        List<Map<Map<String, String>, PipelineDTO>> pipelines = new ArrayList<>();
        // per variant, the first point of each set of swept types: prepared once each before any run
        List<Map<Map<String, String>, Integer>> firstPoints = new ArrayList<>();
        for (VariantDTO v : e.variants) {
            Map<Map<String, String>, PipelineDTO> byTypes = new LinkedHashMap<>();
            Map<Map<String, String>, Integer> first = new LinkedHashMap<>();
            for (int p = 0; p < points.size(); p++) {
                Map<String, String> types = types(points.get(p));
                if (!byTypes.containsKey(types)) {
                    VariantDTO typed = copyFields(v, new VariantDTO());
                    typed.types = new LinkedHashMap<>(v.types);
                    typed.types.putAll(types);
                    byTypes.put(types, retyped(e.pipeline, typed, file, problems));
                    first.put(types, p);
                }
            }
            pipelines.add(byTypes);
            firstPoints.add(first);
        }
        if (problems.isEmpty()) {
            Plan plan = new Plan(e, duration, points, List.copyOf(pipelines), jobs(e, points.size()));
            List<Map<String, Set<String>>> reported = new ArrayList<>();
            for (int v = 0; v < e.variants.size(); v++) {
                for (int p : firstPoints.get(v).values()) {
                    plan.check(simulator, v, p, problems, reported);
                }
            }
            if (problems.isEmpty()) {
                checkMetrics(e, file, reported, problems);
            }
            if (problems.isEmpty()) {
                return plan;
            }
        }
        throw new PipelineException(problems);
    }

    /**
     * A forked experiment's variants share their history to the fork: the same element types and properties (what the
     * first variant has), swaps only at or after the fork; the warm-up covers the shared part.
     */
    private static void forkProblems(ExperimentDTO e, long duration, String file, List<ProblemDTO> problems) {
        String fork = Units.formatPicos(e.forkPicos);
        ValueDTO f = e.forkValue; // where the file sets them, when it does
        ValueDTO w = e.warmupValue;
        if (e.forkPicos < 0 || e.forkPicos >= duration) {
            problems.add(new ProblemDTO(file, f == null ? 0 : f.line, f == null ? 0 : f.column, "fork " + fork + " must be"
                    + " more than 0s and less than each run's duration, " + Units.formatPicos(duration)));
        }
        if (e.warmupPicos < e.forkPicos) {
            ValueDTO at = w != null ? w : f; // the file's warmup, or (a warm-up given elsewhere) the fork it must cover
            problems.add(new ProblemDTO(file, at == null ? 0 : at.line, at == null ? 0 : at.column, "warmup "
                    + Units.formatPicos(e.warmupPicos) + " must be at least the fork, "
                    + fork + ": the branches share everything before it, so only what comes after is compared"));
        }
        VariantDTO first = e.variants.get(0);
        for (VariantDTO v : e.variants) {
            if (!v.types.equals(first.types) || !v.overrides.equals(first.overrides)) {
                problems.add(new ProblemDTO(file, v.line, v.column, "variant '" + v.name + "' changes the pipeline from the"
                        + " start (types " + v.types + ", settings " + v.overrides + "), but in a forked experiment every"
                        + " variant runs the same pipeline to the fork, " + fork + ", and differs only by swaps at or after it;"
                        + " write the change as a swap (swap = \"" + fork + ":ELEMENT=TYPE\") or remove the fork"));
            }
            for (String swap : v.swaps) {
                int colon = swap.indexOf(':');
                long at;
                try {
                    at = colon > 0 ? Units.parsePicos(swap.substring(0, colon).trim()) : -1;
                } catch (IllegalArgumentException ex) {
                    continue; // the engine names a bad swap when the variant is prepared
                }
                if (at >= 0 && at < e.forkPicos) {
                    problems.add(new ProblemDTO(file, v.line, v.column, "variant '" + v.name + "' swaps at "
                            + Units.formatPicos(at) + ", before the fork, " + fork + ": the branches must share their history"
                            + " up to the fork, so a swap comes at it or after it"));
                }
            }
        }
    }

    /**
     * @return run options for one run of a variant at a point: the variant's overrides, then the point's property
     *         values; a new object every call (the engine may keep it)
     */
    RunOptionsDTO options(int variant, int point, long seed) {
        VariantDTO v = experiment.variants.get(variant);
        RunOptionsDTO o = new RunOptionsDTO();
        o.durationPicos = durationPicos;
        o.warmupPicos = experiment.warmupPicos;
        o.forkAtPicos = experiment.forkPicos;
        o.seed = seed;
        o.overrides.addAll(v.overrides);
        points.get(point).forEach((target, value) -> {
            if (target.indexOf('.') >= 0) {
                o.overrides.add(target + "=" + value);
            }
        });
        o.swaps.addAll(v.swaps);
        o.snapshotIntervalMillis = 0; // nobody watches a run of an experiment live: no snapshots while it runs
        return o;
    }

    /**
     * An experiment's metric that no variant's prepared run can report is a problem at the metric's position, with the
     * closest names: found before any run, not after all of them. A metric some variants report and others not (a type
     * replaced) is left to the runs, which name the variants without it.
     */
    private static void checkMetrics(ExperimentDTO e, String file, List<Map<String, Set<String>>> reported,
            List<ProblemDTO> problems) {
        Map<String, Set<String>> all = new java.util.TreeMap<>();
        for (Map<String, Set<String>> names : reported) {
            names.forEach((owner, m) -> all.computeIfAbsent(owner, k -> new java.util.TreeSet<>()).addAll(m));
        }
        if (all.isEmpty()) {
            return; // the engine could not tell (no variant prepared here)
        }
        for (ValueDTO metric : e.metrics) {
            String problem = MetricNames.unknown(metric.text, all, " in any variant");
            if (problem != null) {
                problems.add(new ProblemDTO(file, metric.line, metric.column, "metric " + metric.text + ": " + problem));
            }
        }
    }

    /**
     * Prepares a variant once with the first seed and closes it; what the engine refuses becomes a problem of the variant
     * (a problem at a position of the pipeline, in a variant that changes no type, one of the pipeline's, at the line
     * that names it), what the prepared run can report is added to {@code reported}.
     */
    private void check(Simulator simulator, int variant, int point, List<ProblemDTO> problems,
            List<Map<String, Set<String>>> reported) {
        VariantDTO v = experiment.variants.get(variant);
        SimulationRun run;
        String label = "variant '" + v.name + "'" + (points.get(point).isEmpty() ? "" : " at sweep point " + points.get(point));
        try {
            run = simulator.prepare(pipeline(variant, point), options(variant, point, experiment.seeds.get(0)));
        } catch (PipelineException ex) {
            ValueDTO named = experiment.pipelineValue;
            for (ProblemDTO p : ex.problems()) {
                ProblemDTO q;
                if (named != null && p.line > 0 && v.types.isEmpty() && types(points.get(point)).isEmpty() && p.file != null
                        && p.file.equals(experiment.pipeline.file)) {
                    // the pipeline's own problem (the variant changes no type): at the line that names the pipeline, once
                    q = new ProblemDTO(experiment.file, named.line, named.column, "in pipeline " + named.text + ": " + p);
                } else {
                    q = new ProblemDTO(experiment.file, v.line, v.column, label + ": " + p);
                }
                if (problems.stream().noneMatch(o -> o.toString().equals(q.toString()))) {
                    problems.add(q);
                }
            }
            return;
        } catch (IllegalArgumentException ex) {
            problems.add(new ProblemDTO(experiment.file, v.line, v.column, label + ": " + ex.getMessage()));
            return;
        }
        reported.add(run.metricNames());
        run.close();
    }

    private static List<Job> jobs(ExperimentDTO e, int points) {
        List<Job> jobs = new ArrayList<>();
        int seeds = e.seeds.size();
        int variants = e.variants.size();
        for (int p = 0; p < points; p++) {
            for (int s = 0; s < seeds; s++) {
                for (int v = 0; v < variants; v++) {
                    jobs.add(new Job((p * variants + v) * seeds + s, v, p, e.seeds.get(s)));
                }
            }
        }
        return List.copyOf(jobs);
    }

    /**
     * Copies a DTO's public instance fields, so that a field added to the DTO later is carried over too. The copy is
     * shallow: the pipeline's lists, maps and values are shared, which is safe because nothing here changes them and
     * the engine applies overrides to its own copy.
     */
    private static <T> T copyFields(T from, T to) {
        for (Field f : from.getClass().getFields()) {
            if (!Modifier.isStatic(f.getModifiers())) {
                try {
                    f.set(to, f.get(from));
                } catch (IllegalAccessException e) {
                    throw new IllegalStateException("cannot copy " + f, e);
                }
            }
        }
        return to;
    }

    /** @return the base pipeline with the variant's element types, or the base itself when the variant changes none */
    private static PipelineDTO retyped(PipelineDTO base, VariantDTO v, String file, List<ProblemDTO> problems) {
        if (v.types.isEmpty()) {
            return base;
        }
        PipelineDTO p = copyFields(base, new PipelineDTO());
        p.elements = new ArrayList<>();
        Map<String, String> left = new LinkedHashMap<>(v.types);
        for (ElementSpecDTO spec : base.elements) {
            String type = left.remove(spec.name);
            ElementSpecDTO e = type == null ? spec : copyFields(spec, new ElementSpecDTO());
            if (type != null) {
                e.type = type;
            }
            p.elements.add(e);
        }
        for (String element : left.keySet()) {
            problems.add(new ProblemDTO(file, v.line, v.column, "variant '" + v.name + "' replaces the type of element '"
                    + element + "', which pipeline " + base.file + " does not have"));
        }
        return p;
    }
}
