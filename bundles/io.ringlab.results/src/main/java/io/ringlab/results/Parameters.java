package io.ringlab.results;

import java.util.ArrayList;
import java.util.LinkedHashSet;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.Set;

import io.ringlab.experiment.api.dto.ExperimentDTO;
import io.ringlab.experiment.api.dto.SweepDTO;
import io.ringlab.experiment.api.dto.VariantDTO;
import io.ringlab.pipeline.format.Overrides;
import io.ringlab.pipeline.format.Units;
import io.ringlab.sim.api.dto.ElementSpecDTO;
import io.ringlab.sim.api.dto.PropertyDescriptorDTO;
import io.ringlab.sim.api.dto.PropertyDescriptorDTO.Kind;

/**
 * An experiment's sweep parameters as columns of {@code runs}: one per sweep target, in the experiment's order, named
 * as the target is written ({@code eth0.txRing}, {@code q} for a type sweep) and typed by the property's kind in the
 * element types the element has in the experiment (the pipeline's, the variants' {@code type} statements, the type
 * sweeps' values):
 * <table>
 * <caption>Column types</caption>
 * <tr><th>Kind</th><th>Column</th></tr>
 * <tr><td>INTEGER</td><td>{@code BIGINT}</td></tr>
 * <tr><td>DURATION</td><td>{@code BIGINT}, picoseconds</td></tr>
 * <tr><td>RATE</td><td>{@code BIGINT}, bits per second</td></tr>
 * <tr><td>SIZE</td><td>{@code BIGINT}, bytes</td></tr>
 * <tr><td>DECIMAL</td><td>{@code DOUBLE}</td></tr>
 * <tr><td>BOOLEAN</td><td>{@code BOOLEAN}</td></tr>
 * <tr><td>CHOICE, STRING, a type target ({@value #TYPE}), a property no known type declares, or one whose kind differs
 * between the types</td><td>{@code VARCHAR}, the value as written without quotes</td></tr>
 * </table>
 * A target whose name is also one of {@code runs}' own columns (an element named {@code state} swept by type) gets the
 * column {@value #PREFIX}{@code TARGET} instead.
 * <p>
 * Immutable and thread-safe.
 */
final class Parameters {
    /** {@code parameters.kind} of a target that sets an element's type. */
    static final String TYPE = "TYPE";
    /** Prefix of a parameter's column whose target's name is one of {@code runs}' own columns. */
    static final String PREFIX = "sweep:";

    /**
     * One sweep target.
     *
     * @param target as written, {@code ELEMENT.PROPERTY} or {@code ELEMENT}
     * @param position its place among the experiment's targets, from 0
     * @param kind the property's {@link Kind} name, {@value #TYPE}, or {@code null} when unknown or mixed
     * @param sqlType the column's type
     * @param unit the base unit ({@code ps}, {@code bit/s}, {@code B}); {@code null} for others
     * @param column the column's name in {@code runs}
     */
    record Parameter(String target, int position, String kind, String sqlType, String unit, String column) {
    }

    private final List<Parameter> list;

    private Parameters(List<Parameter> list) {
        this.list = List.copyOf(list);
    }

    /** @return the parameters in the experiment's order; empty without sweeps */
    List<Parameter> list() {
        return list;
    }

    /**
     * @param e the experiment
     * @param catalog the element types, for the properties' kinds
     * @return its parameters
     */
    static Parameters of(ExperimentDTO e, Catalog catalog) {
        List<Parameter> list = new ArrayList<>();
        Set<String> seen = new LinkedHashSet<>();
        for (SweepDTO s : e.sweeps) {
            for (String target : s.targets) {
                if (!seen.add(target)) {
                    continue;
                }
                String column = Schema.RUNS_COLUMNS.contains(target.toLowerCase(Locale.ROOT)) ? PREFIX + target : target;
                int dot = target.indexOf('.');
                if (dot < 0) {
                    list.add(new Parameter(target, list.size(), TYPE, "VARCHAR", null, column));
                    continue;
                }
                Kind kind = kind(e, catalog, target.substring(0, dot), target.substring(dot + 1));
                list.add(new Parameter(target, list.size(), kind == null ? null : kind.name(), sqlType(kind), unit(kind),
                        column));
            }
        }
        return new Parameters(list);
    }

    /**
     * @param p a parameter
     * @param text its value in one run, as written (quoted or not)
     * @param catalog the element types
     * @param runTypes the run's element types ({@link Catalog#runTypes})
     * @return the value for the parameter's column: a {@link Long}, {@link Double} or {@link Boolean} converted to the
     *         base unit by the property of the element's type in that run, or the text without quotes for a
     *         {@code VARCHAR} column; {@code null} if the text does not convert (it stays in {@code runs.point})
     */
    static Object value(Parameter p, String text, Catalog catalog, Map<String, List<String>> runTypes) {
        String bare = unquote(text);
        if (p.sqlType().equals("VARCHAR")) {
            return bare;
        }
        int dot = p.target().indexOf('.');
        String property = p.target().substring(dot + 1);
        for (String type : runTypes.getOrDefault(p.target().substring(0, dot), List.of())) {
            PropertyDescriptorDTO d = catalog.property(type, property);
            if (d != null) {
                try {
                    return Units.convert(d, bare);
                } catch (IllegalArgumentException ex) {
                    return null;
                }
            }
        }
        return null;
    }

    /**
     * @param text a value as written in a sweep, quoted ({@code "a b"}, with the pipeline files' escapes) or bare
     * @return the value without quotes; the text itself if it is not a well-formed quoted string
     */
    static String unquote(String text) {
        if (text == null || !text.startsWith("\"")) {
            return text;
        }
        try {
            return Overrides.parse("x.y=" + text).value().text;
        } catch (IllegalArgumentException ex) {
            return text;
        }
    }

    /** @return the property's kind where all the element's types agree; {@code null} if none declares it, or they differ */
    private static Kind kind(ExperimentDTO e, Catalog catalog, String element, String property) {
        Set<String> types = new LinkedHashSet<>();
        if (e.pipeline != null) {
            for (ElementSpecDTO spec : e.pipeline.elements) {
                if (spec.name.equals(element)) {
                    types.add(spec.type);
                }
            }
        }
        for (VariantDTO v : e.variants) {
            if (v.types.containsKey(element)) {
                types.add(v.types.get(element));
            }
        }
        for (SweepDTO s : e.sweeps) {
            int i = s.targets.indexOf(element);
            if (i >= 0) {
                for (List<String> tuple : s.values) {
                    if (i < tuple.size()) {
                        types.add(unquote(tuple.get(i)));
                    }
                }
            }
        }
        Set<Kind> kinds = new LinkedHashSet<>();
        for (String type : types) {
            PropertyDescriptorDTO d = catalog.property(type, property);
            if (d != null && d.kind != null) {
                kinds.add(d.kind);
            }
        }
        return kinds.size() == 1 ? kinds.iterator().next() : null;
    }

    private static String sqlType(Kind kind) {
        if (kind == null) {
            return "VARCHAR";
        }
        return switch (kind) {
            case INTEGER, DURATION, RATE, SIZE -> "BIGINT";
            case DECIMAL -> "DOUBLE";
            case BOOLEAN -> "BOOLEAN";
            case CHOICE, STRING -> "VARCHAR";
        };
    }

    private static String unit(Kind kind) {
        if (kind == null) {
            return null;
        }
        return switch (kind) {
            case DURATION -> "ps";
            case RATE -> "bit/s";
            case SIZE -> "B";
            default -> null;
        };
    }
}
