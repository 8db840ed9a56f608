package io.ringlab.pipeline.format;

import java.math.BigDecimal;
import java.util.Map;
import java.util.Objects;
import java.util.regex.Pattern;

import io.ringlab.sim.api.dto.ConnectionDTO;
import io.ringlab.sim.api.dto.ElementSpecDTO;
import io.ringlab.sim.api.dto.PipelineDTO;
import io.ringlab.sim.api.dto.ValueDTO;

/**
 * Writes a {@link PipelineDTO} as canonical pipeline text: the header keys (in the order {@code name, description,
 * duration, seed, profile, headline, plot}, each only if set; {@code plot} as a one-line list, only if not empty), then the elements with one property per line indented by four
 * spaces, then the connections with one arrow per line, then the layout block; sections are separated by an empty line
 * and the text ends with a line break ({@code \n}).
 * <p>
 * {@link PipelineReader#read(String, String) Reading} the text back with the same file name gives a pipeline equal to
 * the one written in every field except the source positions. Values keep their form: a value read quoted is written
 * quoted, a bare value stays bare, and a value that cannot be bare (empty, or with blank space, {@code ,}, {@code ;},
 * <code>}</code>, {@code #} or a leading {@code "}) is quoted. {@code name} is omitted when it equals the default taken
 * from {@link PipelineDTO#file} (a {@code null} name is omitted too, and so reads back as that default);
 * {@code name} and {@code description} are always quoted. Layout coordinates are written as the shortest plain
 * decimal that reads back to the same {@code double}.
 * <p>
 * Stateless and thread-safe; the pipeline is not changed.
 */
public final class PipelineWriter {

    private static final String INDENT = "    ";

    private PipelineWriter() {
    }

    /**
     * Writes a pipeline as canonical text.
     *
     * @param p the pipeline; must not be {@code null}; names, type ids and property names must follow the format's
     *        patterns, every layout entry must have two finite coordinates, and no value, connection endpoint or list
     *        entry may be {@code null}
     * @return the canonical text; never {@code null}
     * @throws IllegalArgumentException if the pipeline cannot be written so that it reads back the same, saying which
     *         part is wrong
     */
    public static String write(PipelineDTO p) {
        Objects.requireNonNull(p, "p");
        StringBuilder out = new StringBuilder();
        String file = p.file != null ? p.file : "<input>";
        if (p.name != null && !p.name.equals(Syntax.baseName(file))) {
            out.append(Syntax.NAME).append(" = ").append(Syntax.quote(p.name)).append('\n');
        }
        if (p.description != null) {
            out.append(Syntax.DESCRIPTION).append(" = ").append(Syntax.quote(p.description)).append('\n');
        }
        header(out, Syntax.DURATION, p.duration);
        header(out, Syntax.SEED, p.seed);
        header(out, Syntax.PROFILE, p.profile);
        header(out, Syntax.HEADLINE, p.headline);
        if (p.plot != null && !p.plot.isEmpty()) {
            out.append(Syntax.PLOT).append(" = [");
            for (int i = 0; i < p.plot.size(); i++) {
                out.append(i == 0 ? "" : ", ").append(plotItem(p.plot.get(i)));
            }
            out.append("]\n");
        }

        if (!p.elements.isEmpty()) {
            section(out);
        }
        for (ElementSpecDTO e : p.elements) {
            Objects.requireNonNull(e, "element");
            check(Syntax.ELEMENT_NAME, e.name, "element name");
            check(Syntax.TYPE_ID, e.type, "type id of element '" + e.name + "'");
            out.append("element ").append(e.name).append(" : ").append(e.type);
            if (!e.properties.isEmpty()) {
                out.append(" {\n");
                for (Map.Entry<String, ValueDTO> prop : e.properties.entrySet()) {
                    check(Syntax.PROPERTY_NAME, prop.getKey(), "property name in element '" + e.name + "'");
                    out.append(INDENT).append(prop.getKey()).append(" = ")
                            .append(value(prop.getValue(), e.name + "." + prop.getKey())).append('\n');
                }
                out.append('}');
            }
            out.append('\n');
        }

        if (!p.connections.isEmpty()) {
            section(out);
        }
        for (ConnectionDTO c : p.connections) {
            Objects.requireNonNull(c, "connection");
            out.append(endpoint(c.from, c.fromPort)).append(" -> ").append(endpoint(c.to, c.toPort)).append('\n');
        }

        if (!p.layout.isEmpty()) {
            section(out);
            out.append("layout {\n");
            for (Map.Entry<String, double[]> entry : p.layout.entrySet()) {
                check(Syntax.ELEMENT_NAME, entry.getKey(), "element name in the layout");
                double[] xy = entry.getValue();
                if (xy == null || xy.length != 2 || !Double.isFinite(xy[0]) || !Double.isFinite(xy[1])) {
                    throw new IllegalArgumentException("layout of '" + entry.getKey()
                            + "' must be two finite numbers {x, y}");
                }
                out.append(INDENT).append(entry.getKey()).append(" = ").append(coordinate(xy[0])).append(", ")
                        .append(coordinate(xy[1])).append('\n');
            }
            out.append("}\n");
        }
        return out.toString();
    }

    /** Starts a new section with an empty line, unless nothing has been written yet. */
    private static void section(StringBuilder out) {
        if (out.length() > 0) {
            out.append('\n');
        }
    }

    private static void header(StringBuilder out, String key, ValueDTO v) {
        if (v != null) {
            out.append(key).append(" = ").append(value(v, key)).append('\n');
        }
    }

    private static String value(ValueDTO v, String what) {
        if (v == null || v.text == null) {
            throw new IllegalArgumentException("value of " + what + " is null");
        }
        return v.quoted || !Syntax.canBeBare(v.text) ? Syntax.quote(v.text) : v.text;
    }

    /** A {@code plot} item: a metric name ({@link Syntax#METRIC_FORMS}), which never needs quotes but keeps them. */
    private static String plotItem(ValueDTO v) {
        String text = value(v, Syntax.PLOT);
        if (Syntax.metricElement(v.text) == null) {
            throw new IllegalArgumentException("plot item '" + v.text + "' is not " + Syntax.METRIC_FORMS);
        }
        return text;
    }

    private static String endpoint(String element, String port) {
        check(Syntax.ELEMENT_NAME, element, "element name in a connection");
        if (port == null) {
            return element;
        }
        check(Syntax.ELEMENT_NAME, port, "port name of '" + element + "' in a connection");
        return element + "." + port;
    }

    /** @return the shortest plain decimal that {@link Double#parseDouble(String)} reads back to {@code d} */
    private static String coordinate(double d) {
        if (d == 0) {
            return Double.doubleToRawLongBits(d) == 0 ? "0" : "-0";
        }
        return new BigDecimal(Double.toString(d)).stripTrailingZeros().toPlainString();
    }

    private static void check(Pattern pattern, String name, String what) {
        if (name == null || !pattern.matcher(name).matches()) {
            throw new IllegalArgumentException(what + " '" + name + "' does not match " + pattern.pattern());
        }
    }
}
