package io.ringlab.pipeline.format;

import java.util.Map;
import java.util.Objects;
import java.util.regex.Matcher;
import java.util.regex.Pattern;

/**
 * Renamed output metrics: the one table of old names that users may still write, and how a name a user wrote (in an
 * experiment's {@code metrics}, a pipeline's {@code headline}, {@code --print} or {@code --plot-series}) maps to today's.
 * <p>
 * The metrics once named {@code ...Mbps} meant megabits per second, while {@code Mbps} in a rate <em>value</em> means
 * megabytes per second, as in tc(8); they are now {@code ...MbitPerSecond}. The old names are accepted, with the warning
 * {@link #deprecation(String)} gives, until they go in a later major version.
 * <p>
 * Stateless and thread-safe.
 *
 * @since 1.3
 */
public final class MetricNames {
    /** Old metric name to today's. */
    private static final Map<String, String> RENAMED = Map.of(
            "rxMbps", "rxMbitPerSecond",
            "txMbps", "txMbitPerSecond",
            "goodputMbps", "goodputMbitPerSecond",
            "tcpGoodputMbps", "tcpGoodputMbitPerSecond",
            "pacingRateMbps", "pacingRateMbitPerSecond");
    /** TCP's per-stream goodput, {@code stream<i>GoodputMbps}. */
    private static final Pattern STREAM_GOODPUT = Pattern.compile("(stream[0-9]+Goodput)Mbps");

    /**
     * How a declared family of metrics writes its member's number ({@code stream<i>Cwnd} declares {@code stream0Cwnd},
     * {@code stream1Cwnd}, ...; {@code MetricDescriptorDTO.name}).
     *
     * @since 1.5
     */
    public static final String FAMILY_INDEX = "<i>";

    private MetricNames() {
    }

    /**
     * The one reading of a declared metric name against the names a run reports (the conformance kit's check of the
     * declarations, the console's inspector, the results database's catalogue).
     *
     * @param declared a declared name: a family ({@code stream<i>Cwnd}) or a single metric ({@code rxPackets})
     * @return the pattern of the names it declares: each {@link #FAMILY_INDEX} is a decimal number, captured as a group
     *         in order ({@code stream([0-9]+)Cwnd}); a single metric's name matches only itself
     * @since 1.5
     */
    public static Pattern declared(String declared) {
        return Pattern.compile(Pattern.quote(declared).replace(FAMILY_INDEX, "\\E([0-9]+)\\Q"));
    }

    /**
     * @param name a metric name as a user wrote it: {@code ELEMENT.METRIC} (also {@code pool:ELEMENT.POOL.METRIC},
     *        {@code cpuN.METRIC}) or a bare {@code METRIC}; must not be {@code null}
     * @return today's name of the same metric, with the same owner: {@code sink.rxMbps} gives
     *         {@code sink.rxMbitPerSecond}; the name itself when it was never renamed
     */
    public static String current(String name) {
        Objects.requireNonNull(name, "name");
        int dot = name.lastIndexOf('.'); // metric names have no dots; pool names (pool:eth0.rx) do
        String metric = name.substring(dot + 1);
        String now = RENAMED.get(metric);
        if (now == null) {
            Matcher m = STREAM_GOODPUT.matcher(metric);
            if (!m.matches()) {
                return name;
            }
            now = m.group(1) + "MbitPerSecond";
        }
        return name.substring(0, dot + 1) + now;
    }

    /**
     * @param name a metric name as a user wrote it, as for {@link #current(String)}
     * @return the warning for an old name, for example {@code metric sink.rxMbps is now sink.rxMbitPerSecond (Mbit/s);
     *         the old name will go}; {@code null} when the name is today's
     */
    public static String deprecation(String name) {
        String now = current(name);
        if (now.equals(name)) {
            return null;
        }
        return "metric " + name + " is now " + now + " (" + MetricUnits.unitOf(now) + "); the old name will go";
    }

    /**
     * Why a metric a user named is not among those a run can report, with the closest names: the one check behind a
     * headline, {@code --print} and an experiment's metrics.
     *
     * @param metric {@code OWNER.METRIC}; must not be {@code null} (without a dot its owner is the empty name)
     * @param names what reports metrics (an element, {@code pool:NAME}, {@code cpuN}) to its metric names
     * @param qualifier words after the verb, such as {@code " in any variant"}, or {@code ""}
     * @return {@code null} when the run reports it; else {@code "sink reports no metric 'rxMps' (did you mean 'rxMpps'?);
     *         its metrics: ..."} or {@code "nothing named snk reports metrics (did you mean 'sink'?); these do: ..."}
     */
    public static String unknown(String metric, Map<String, ? extends java.util.Collection<String>> names, String qualifier) {
        int dot = metric.lastIndexOf('.'); // metric names have no dots; pool names (pool:eth0.rx) do
        String owner = dot < 0 ? "" : metric.substring(0, dot);
        String m = metric.substring(dot + 1);
        java.util.Collection<String> known = names.get(owner);
        if (known == null) {
            return "nothing named " + owner + " reports metrics" + qualifier + Syntax.didYouMean(owner, names.keySet())
                    + "; these do: " + Syntax.list(names.keySet());
        }
        return known.contains(m) ? null : owner + " reports no metric '" + m + "'" + qualifier + Syntax.didYouMean(m, known)
                + "; its metrics: " + Syntax.list(known);
    }
}
