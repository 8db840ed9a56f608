package io.ringlab.engine.kernel;

/**
 * The unit of a metric, read from its name's suffix. The list is the one README documents; a metric with none of these
 * suffixes is a plain number (unit ""). A name that is a suffix alone ({@code connPerSecond}) has that unit too.
 */
public final class Headlines {
    private static final String[][] SUFFIXES = {
        {"Millis", "ms"}, {"Micros", "us"}, {"Nanos", "ns"}, {"Seconds", "s"},
        {"Mpps", "Mpps"}, {"Pps", "pps"},
        {"Mbps", "Mbit/s"}, {"Gbps", "Gbit/s"},
        {"ConnPerSecond", "conn/s"}, {"Bytes", "B"}, {"Packets", "packets"}, {"Percent", "%"},
    };

    private Headlines() {
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
