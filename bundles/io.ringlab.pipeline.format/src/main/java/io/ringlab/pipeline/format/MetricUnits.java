package io.ringlab.pipeline.format;

/**
 * The unit of an output metric, read from its name's suffix: the one table of them (the engine's headline, the plots'
 * axes, {@code ringlab elements} read it here). The list is the one README documents; a metric with none of these
 * suffixes is a plain number (unit ""). A name that is a suffix alone ({@code connPerSecond}) has that unit too.
 *
 * @since 1.3
 */
public final class MetricUnits {
    private static final String[][] SUFFIXES = {
        {"Millis", "ms"}, {"Micros", "us"}, {"Nanos", "ns"}, {"Seconds", "s"},
        {"Mpps", "Mpps"}, {"Pps", "pps"},
        {"MbitPerSecond", "Mbit/s"}, {"GbitPerSecond", "Gbit/s"},
        {"ConnPerSecond", "conn/s"}, {"Bytes", "B"}, {"Packets", "packets"}, {"Percent", "%"},
    };

    private MetricUnits() {
    }

    /**
     * @param metric a metric name such as {@code rttP50Millis}
     * @return its unit, such as {@code ms}; empty if the name has no unit suffix
     */
    public static String unitOf(String metric) {
        for (String[] s : SUFFIXES) {
            // a name that is the suffix itself starts in lower case: connPerSecond, packets
            if (metric.endsWith(s[0]) || metric.length() == s[0].length() && metric.equalsIgnoreCase(s[0])) {
                return s[1];
            }
        }
        return "";
    }
}
