package io.ringlab.console;

import java.util.ArrayList;
import java.util.List;
import java.util.Locale;
import java.util.Map;

/**
 * The texts the canvas draws of a run's state ({@link CanvasState}), without widgets: a level's row
 * ({@code backlog 10 / 1000}, {@code inflight 16.7 kB / 15.1 kB}), an element's throughputs
 * ({@code tx 91.4 Mbit/s  rx 2.06 Mbit/s}, a link's after its busy share, {@code busy 98 %  wire 984 Mbit/s}) and its drop badge. Stateless.
 */
final class CanvasText {
    /** The most reasons a badge names; the others are summed. */
    static final int BADGE_REASONS = 3;

    private CanvasText() {
    }

    /** @return a level's row text: the metric, its value, and its capacity when it has one */
    static String level(CanvasState.Level l) {
        String v = amount(l.value(), l.unit());
        return l.metric() + " " + (Double.isNaN(l.capacity()) ? v : v + " / " + amount(l.capacity(), l.unit()));
    }

    /**
     * @param flows the element's throughputs
     * @param busy its busy share of the interval, or NaN
     * @return the busy share ({@code busy 98 %}) and the throughputs on one line, each named by its counter without
     *         {@code Bytes} or {@code Packets}
     */
    static String flows(List<CanvasState.Flow> flows, double busy) {
        StringBuilder b = new StringBuilder();
        if (!Double.isNaN(busy)) {
            b.append(String.format(Locale.ROOT, "busy %.0f %%", 100 * busy));
        }
        for (CanvasState.Flow f : flows) {
            if (Double.isNaN(f.perSecond())) {
                continue;
            }
            if (b.length() > 0) {
                b.append("  ");
            }
            String name = f.metric().replaceAll("(Bytes|Packets)$", "");
            b.append(name).append(' ');
            if (!Double.isNaN(f.utilisation())) {
                b.append(String.format(Locale.ROOT, "%.0f %% ", 100 * f.utilisation()));
            }
            b.append(f.bits() ? bitRate(f.perSecond()) : packetRate(f.perSecond()));
        }
        return b.toString();
    }

    /**
     * @return the drop badge's text: the count and reason when there is one reason, else the total and the
     *         {@value #BADGE_REASONS} largest reasons, the rest summed ({@code 1,310 dropped: 1,000 b, 200 a, 100 c, 10 other})
     */
    static String badge(Map<String, Long> byReason) {
        List<Map.Entry<String, Long>> sorted = new ArrayList<>(byReason.entrySet());
        sorted.sort(Map.Entry.<String, Long>comparingByValue().reversed().thenComparing(Map.Entry.comparingByKey()));
        if (sorted.size() == 1) {
            return String.format(Locale.ROOT, "%,d %s", sorted.get(0).getValue(), sorted.get(0).getKey());
        }
        long total = 0, rest = 0;
        List<String> parts = new ArrayList<>();
        for (int i = 0; i < sorted.size(); i++) {
            total += sorted.get(i).getValue();
            if (i < BADGE_REASONS) {
                parts.add(String.format(Locale.ROOT, "%,d %s", sorted.get(i).getValue(), sorted.get(i).getKey()));
            } else {
                rest += sorted.get(i).getValue();
            }
        }
        if (rest > 0) {
            parts.add(String.format(Locale.ROOT, "%,d other", rest));
        }
        return String.format(Locale.ROOT, "%,d dropped: ", total) + String.join(", ", parts);
    }

    /** @return an amount with its unit: bytes as B, kB, MB (SI), other units as given, whole counts plainly */
    static String amount(double v, String unit) {
        if (Double.isNaN(v)) {
            return "-";
        }
        if ("B".equals(unit)) {
            double a = Math.abs(v);
            return a >= 1e6 ? String.format(Locale.ROOT, "%.3g MB", v / 1e6)
                    : a >= 1e3 ? String.format(Locale.ROOT, "%.3g kB", v / 1e3) : String.format(Locale.ROOT, "%.0f B", v);
        }
        String n = v == Math.rint(v) && Math.abs(v) < 1e15 ? String.format(Locale.ROOT, "%,d", (long) v)
                : String.format(Locale.ROOT, "%.3g", v);
        return unit == null || unit.isEmpty() ? n : n + " " + unit;
    }

    /** @return bits per second as bit/s, kbit/s, Mbit/s or Gbit/s with three significant digits */
    static String bitRate(double bps) {
        double a = Math.abs(bps);
        return a >= 1e9 ? String.format(Locale.ROOT, "%.3g Gbit/s", bps / 1e9)
                : a >= 1e6 ? String.format(Locale.ROOT, "%.3g Mbit/s", bps / 1e6)
                        : a >= 1e3 ? String.format(Locale.ROOT, "%.3g kbit/s", bps / 1e3)
                                : String.format(Locale.ROOT, "%.0f bit/s", bps);
    }

    /** @return packets per second as pps, kpps or Mpps with three significant digits */
    static String packetRate(double pps) {
        double a = Math.abs(pps);
        return a >= 1e6 ? String.format(Locale.ROOT, "%.3g Mpps", pps / 1e6)
                : a >= 1e3 ? String.format(Locale.ROOT, "%.3g kpps", pps / 1e3) : String.format(Locale.ROOT, "%.0f pps", pps);
    }
}
