package io.ringlab.cli;

import java.nio.file.Path;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.LinkedHashSet;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.TreeMap;
import java.util.concurrent.Callable;

import io.ringlab.experiment.api.ResultsException;
import io.ringlab.experiment.api.ResultsService;
import io.ringlab.experiment.api.dto.MetricSummaryDTO;
import io.ringlab.experiment.api.dto.RunSummaryDTO;
import io.ringlab.experiment.api.dto.ScalarDTO;
import io.ringlab.experiment.api.dto.TableDTO;
import io.ringlab.pipeline.format.Syntax;
import io.ringlab.pipeline.format.Units;
import picocli.CommandLine.Command;
import picocli.CommandLine.Option;
import picocli.CommandLine.Parameters;

/**
 * {@code ringlab plot FILE.duckdb --y METRIC [--x PARAM] [--by DIM] [--facet PARAM] [--png OUT | --svg OUT]}: a metric
 * of a sweep against one of its parameters, from a results database: one line per value of {@code --by} (the variant
 * by default) with its 95 % confidence band, one panel per value of {@code --facet}. The runs that count are those the
 * experiment's report counts (finished, both invariants holding, a value); the statistics are the report's
 * ({@code ExperimentService.summarize}). Every other dimension of the sweep must have one value among them.
 */
@Command(name = "plot", mixinStandardHelpOptions = true, header = "plot a metric against a sweep parameter from a results database",
        description = "Draw a metric of an experiment's runs against one of its sweep parameters, from the results database"
                + " ringlab ab wrote: one line per variant (or per value of --by) with its 95 %% confidence band, one panel"
                + " per value of --facet; a logarithmic x axis where the values are powers of two.",
        footer = {"%nExamples:",
            "  ./ringlab plot results/stmmac-ring-sweep.duckdb --y ping.rttP50Millis --x eth0.txRing --facet wire.rate --png p50.png",
            "  ./ringlab plot results/netdev-ring-sweep.duckdb --y ping.rttP50Millis --facet wire.rate --svg rise.svg"})
final class PlotCommand implements Callable<Integer> {
    /** The dimension that names a run's variant. */
    static final String VARIANT = "variant";

    private final Commands root;

    @Parameters(index = "0", paramLabel = "FILE", description = "the results database")
    String file;
    @Option(names = "--y", required = true, paramLabel = "METRIC", description = "the metric, ELEMENT.METRIC")
    String y;
    @Option(names = "--x", paramLabel = "PARAM", description = "the sweep parameter on the x axis (default: the first)")
    String x;
    @Option(names = "--by", paramLabel = "DIM", description = "a line per value of this: 'variant' (default) or a parameter")
    String by;
    @Option(names = "--facet", paramLabel = "PARAM", description = "a panel per value of this parameter")
    String facet;
    @Option(names = "--experiment", paramLabel = "NAME", description = "the experiment, where the database holds several")
    String experiment;
    @Option(names = "--png", paramLabel = "OUT", description = "write the plot as PNG")
    String png;
    @Option(names = "--svg", paramLabel = "OUT", description = "write the plot as SVG")
    String svg;

    PlotCommand(Commands root) {
        this.root = root;
    }

    /** A parameter of the experiment: its name, its kind as the database records it, its unit. */
    record Parameter(String name, String kind, String unit) {
        boolean numeric() {
            return kind != null && List.of("INTEGER", "DURATION", "RATE", "SIZE", "DECIMAL").contains(kind);
        }

        /** @return the value in the parameter's base unit */
        double number(String text) {
            String t = text.startsWith("\"") ? text.substring(1, text.length() - 1) : text;
            return switch (kind) {
                case "INTEGER" -> Units.parseInteger(t);
                case "DURATION" -> Units.parsePicos(t);
                case "RATE" -> Units.parseBitsPerSecond(t);
                case "SIZE" -> Units.parseBytes(t);
                default -> Units.parseDecimal(t);
            };
        }
    }

    /** One line's points: x (as written) to the runs' values, in the order of x. */
    record Line(String name, Map<String, List<Double>> values) {
    }

    @Override
    public Integer call() {
        ResultsService results = root.runner.results;
        if (results == null) {
            root.err.println("ringlab plot: no results database service is installed (bundle io.ringlab.results)");
            return Runner.FAILED;
        }
        if ((png == null) == (svg == null)) {
            root.err.println("ringlab plot: give --png OUT or --svg OUT (one of them)");
            return Runner.INVALID;
        }
        if (!root.outputsWritable("--png", png, "--svg", svg)) {
            return Runner.INVALID;
        }
        try {
            Path db = Path.of(file);
            String name = experiment(results, db);
            List<Parameter> parameters = parameters(results, db, name);
            if (parameters.isEmpty()) {
                throw new IllegalArgumentException(file + ": experiment " + name + " has no sweep: plot needs a sweep"
                        + " parameter on its x axis (ringlab ab's --plot draws an experiment without sweeps)");
            }
            Map<String, Parameter> byName = new LinkedHashMap<>();
            parameters.forEach(p -> byName.put(p.name(), p));
            Parameter xp = x == null ? parameters.get(0) : byName.get(x);
            String lineBy = by == null ? VARIANT : by;
            List<String> dimensions = new ArrayList<>();
            dimensions.add(VARIANT);
            dimensions.addAll(byName.keySet());
            check("--x", x, byName.keySet());
            check("--by", lineBy, dimensions);
            check("--facet", facet, byName.keySet());
            if (lineBy.equals(xp.name()) || xp.name().equals(facet) || lineBy.equals(facet)) {
                throw new IllegalArgumentException("--x, --by and --facet must name different dimensions (x: " + xp.name()
                        + ", by: " + lineBy + (facet == null ? "" : ", facet: " + facet) + ")");
            }
            Set<String> counted = new java.util.HashSet<>(); // the keys of the runs that count
            for (RunSummaryDTO r : results.runs(db, name)) {
                if (AbSummary.counts(r)) {
                    counted.add(r.key);
                }
            }
            List<ScalarDTO> values = new ArrayList<>();
            String unit = null;
            for (ScalarDTO s : results.scalars(db, name, y)) {
                if (s.value != null && counted.contains(s.run)) {
                    values.add(s);
                    unit = s.unit;
                }
            }
            if (values.isEmpty()) {
                throw new IllegalArgumentException(file + ": no counted run of experiment " + name + " reported " + y
                        + " (ringlab results " + file + " --query \"SELECT DISTINCT element, metric FROM scalars\" lists"
                        + " what was recorded)");
            }
            // every other dimension has one value at each point of a line (one that moves with x, --by or --facet, as a
            // zipped sweep's second target, is fine)
            for (String d : dimensions) {
                if (d.equals(xp.name()) || d.equals(lineBy) || d.equals(facet)) {
                    continue;
                }
                Map<String, Set<String>> atPoint = new LinkedHashMap<>();
                values.forEach(s -> atPoint.computeIfAbsent((facet == null ? "" : s.point.get(facet)) + "\u0000"
                        + dimension(s, lineBy) + "\u0000" + s.point.get(xp.name()), k -> new LinkedHashSet<>())
                        .add(dimension(s, d)));
                for (Set<String> seen : atPoint.values()) {
                    if (seen.size() > 1) {
                        throw new IllegalArgumentException(d + " has " + seen.size() + " values at one point of a line ("
                                + String.join(", ", seen) + "): give it to --by or --facet, so that each point of a line is"
                                + " one group of seeds");
                    }
                }
            }
            // facet -> line -> x -> values, each in the order first seen (x sorted below)
            Map<String, Map<String, Map<String, List<Double>>>> groups = new LinkedHashMap<>();
            for (ScalarDTO s : values) {
                String f = facet == null ? "" : facet + "=" + s.point.get(facet);
                groups.computeIfAbsent(f, k -> new LinkedHashMap<>()).computeIfAbsent(dimension(s, lineBy),
                        k -> new LinkedHashMap<>()).computeIfAbsent(s.point.get(xp.name()), k -> new ArrayList<>()).add(s.value);
            }
            Plots.Sweep sweep = new Plots.Sweep(name, y, unit, xp.name(), xp.numeric() ? xp.unit() : null, lineBy);
            for (Map.Entry<String, Map<String, Map<String, List<Double>>>> f : groups.entrySet()) {
                List<Plots.SweepLine> lines = new ArrayList<>();
                for (Map.Entry<String, Map<String, List<Double>>> line : f.getValue().entrySet()) {
                    List<Plots.SweepPoint> points = new ArrayList<>();
                    Map<Object, String> order = xp.numeric() ? new TreeMap<>() : new LinkedHashMap<>();
                    line.getValue().keySet().forEach(v -> order.put(xp.numeric() ? (Object) xp.number(v) : v, v));
                    for (Map.Entry<Object, String> o : order.entrySet()) {
                        List<Double> vs = line.getValue().get(o.getValue());
                        double[] a = new double[vs.size()];
                        for (int i = 0; i < a.length; i++) {
                            a[i] = vs.get(i);
                        }
                        MetricSummaryDTO m = root.runner.experiments.summarize(a);
                        points.add(new Plots.SweepPoint(o.getValue(), xp.numeric() ? xp.number(o.getValue()) : Double.NaN, m));
                    }
                    lines.add(new Plots.SweepLine(line.getKey(), points));
                }
                sweep.panels().put(f.getKey(), lines);
            }
            boolean written = png != null ? root.writeOutput("--png", png, Plots.sweep(sweep, false), root.out, "plot")
                    : root.writeOutput("--svg", svg, Plots.sweep(sweep, true), root.out, "plot");
            return written ? Runner.OK : Runner.FAILED;
        } catch (ResultsException | IllegalArgumentException e) {
            root.err.println("ringlab plot: " + e.getMessage());
            return Runner.INVALID;
        }
    }

    /** @return a run's value of a dimension: its variant, or its point's value of a parameter */
    private static String dimension(ScalarDTO s, String d) {
        return d.equals(VARIANT) ? s.variant : s.point.get(d);
    }

    private void check(String option, String value, java.util.Collection<String> allowed) {
        if (value != null && !allowed.contains(value)) {
            throw new IllegalArgumentException(option + " " + value + ": not a dimension of the experiment; it has "
                    + Syntax.list(allowed));
        }
    }

    /** @return the experiment to plot: the one named, or the only one the database holds */
    private String experiment(ResultsService results, Path db) throws ResultsException {
        List<String> names = results.experiments(db);
        if (experiment != null) {
            if (!names.contains(experiment)) {
                throw new IllegalArgumentException(file + " holds no experiment " + experiment + "; it holds "
                        + Syntax.list(names));
            }
            return experiment;
        }
        if (names.size() != 1) {
            throw new IllegalArgumentException(file + " holds " + (names.isEmpty() ? "no experiment" : names.size()
                    + " experiments (" + String.join(", ", names) + "): name one with --experiment"));
        }
        return names.get(0);
    }

    /** @return the experiment's sweep parameters in their order, with their kinds and units */
    private static List<Parameter> parameters(ResultsService results, Path db, String experiment) throws ResultsException {
        TableDTO t = results.query(db, "SELECT name, kind, unit FROM parameters WHERE experiment = '"
                + experiment.replace("'", "''") + "' ORDER BY position");
        List<Parameter> out = new ArrayList<>();
        for (List<Object> row : t.rows) {
            out.add(new Parameter((String) row.get(0), (String) row.get(1), (String) row.get(2)));
        }
        return out;
    }
}
