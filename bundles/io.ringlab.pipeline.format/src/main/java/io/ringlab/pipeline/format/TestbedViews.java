package io.ringlab.pipeline.format;

import java.math.BigDecimal;
import java.math.MathContext;
import java.util.ArrayList;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.function.Function;

import io.ringlab.sim.api.dto.ConnectionDTO;
import io.ringlab.sim.api.dto.ElementDescriptorDTO;
import io.ringlab.sim.api.dto.MetricDescriptorDTO;
import io.ringlab.sim.api.dto.RunResultDTO;

/**
 * A run's end-of-run counters in the layouts of the testbed's tools (docs/testbed-views.md): {@code tc -s qdisc show}
 * as iproute2 6.1 prints it, {@code ethtool -S DEV} with the kernel driver's counter names, and the files of
 * {@code /sys/class/net/DEV/queues/tx-0/byte_queue_limits/} as {@code grep . DIR/*} prints them. The one writer of these
 * layouts: {@code ringlab stats}, {@code run --print tc} and the console's summary print them from here.
 * <p>
 * Counters (Sent, dropped, ethtool's) count the measured window, the whole run unless it had a warm-up; backlogs and
 * limits are their values when the run ended. Pure functions of the result and the installed element types;
 * thread-safe.
 *
 * @since 1.4
 */
public final class TestbedViews {
    /** The views, as {@code ringlab stats} and {@code run --print} name them. */
    public static final String TC = "tc", ETHTOOL = "ethtool", BQL = "bql";
    /** Every view, in the order they print. */
    public static final List<String> ALL = List.of(TC, ETHTOOL, BQL);

    /** pfifo_fast's priomap ({@code prio2band}, {@code net/sched/sch_generic.c}), which tc prints and no property changes. */
    private static final int[] PRIO2BAND = {1, 2, 2, 2, 1, 2, 0, 0, 1, 1, 1, 1, 1, 1, 1, 1};
    /** The BQL sysfs files ({@code net/core/net-sysfs.c}, {@code dql_group}) with their metrics, in glob order. */
    private static final String[][] BQL_FILES = {{"hold_time", MetricDescriptorDTO.bqlHoldTimeMillis().name},
        {"inflight", MetricDescriptorDTO.bqlInflight().name}, {"limit", MetricDescriptorDTO.bqlLimit().name},
        {"limit_max", MetricDescriptorDTO.bqlLimitMax().name}, {"limit_min", MetricDescriptorDTO.bqlLimitMin().name}};
    /** The gauge a driver with byte queue limits reports, 0 when its queue runs without them. */
    private static final String LIMIT_MAX = MetricDescriptorDTO.bqlLimitMax().name;
    /** The metrics of the BQL files: sysfs shows them, ethtool does not. */
    private static final java.util.Set<String> BQL_FILE_METRICS = java.util.Arrays.stream(BQL_FILES).map(f -> f[1])
            .collect(java.util.stream.Collectors.toUnmodifiableSet());

    private TestbedViews() {
    }

    /** A view that does not apply to the result (no qdisc, no such device, no BQL), said in one line. */
    public static final class NotApplicable extends Exception {
        private static final long serialVersionUID = 1L;

        NotApplicable(String message) {
            super(message);
        }
    }

    /**
     * Prints views of a result.
     *
     * @param r the result, from Ringlab 0.2 on (it records the pipeline as run)
     * @param views the views ({@link #ALL} or some of them), in order
     * @param dev the one device to show, or {@code null} for all
     * @param headers whether each view goes under its {@code # command} line; with them a view that does not apply says
     *        why under its line instead of failing
     * @param types the installed element types by type name ({@code null} for a type none provides)
     * @return the text
     * @throws NotApplicable without headers, when a view does not apply
     */
    public static String print(RunResultDTO r, List<String> views, String dev, boolean headers,
            Function<String, ElementDescriptorDTO> types) throws NotApplicable {
        StringBuilder b = new StringBuilder();
        for (String v : views) {
            if (!headers) {
                b.append(view(r, v, dev, types));
                continue;
            }
            boolean perDevice = v.equals(ETHTOOL) && dev == null; // the view heads each device itself
            if (!perDevice) {
                b.append(header(v, dev));
            }
            try {
                b.append(view(r, v, dev, types));
            } catch (NotApplicable e) {
                b.append(perDevice ? header(v, null) : "").append("# ").append(e.getMessage()).append('\n');
            }
        }
        return b.toString();
    }

    /** @return the {@code # command} line of a view */
    private static String header(String view, String dev) {
        return switch (view) {
            case TC -> "# tc -s qdisc show" + (dev == null ? "" : " dev " + dev) + "\n";
            case ETHTOOL -> "# ethtool -S" + (dev == null ? "" : " " + dev) + "\n";
            default -> "# grep . /sys/class/net/" + (dev == null ? "*" : dev) + "/queues/tx-0/byte_queue_limits/*\n";
        };
    }

    private static String view(RunResultDTO r, String v, String dev, Function<String, ElementDescriptorDTO> types)
            throws NotApplicable {
        return switch (v) {
            case TC -> tc(r, dev, types);
            case ETHTOOL -> ethtool(r, dev, types);
            case BQL -> bql(r, dev, types);
            default -> throw new NotApplicable("no view '" + v + "'; views: " + ALL);
        };
    }

    // ------------------------------------------------------------------ tc

    /**
     * {@code tc -s qdisc show [dev DEV]}: every qdisc element, as the root qdisc of the device its output feeds. The
     * handle is {@code 0:} for pfifo_fast (the kernel's default qdisc of the eras modelled, created with the device) and
     * {@code 8001:}, {@code 8002:}, ... for the others in element order (the handles {@code qdisc_alloc_handle}'s
     * global counter gives the qdiscs a user adds, {@code net/sched/sch_api.c}); {@code refcnt 2} as a root qdisc shows.
     * Without {@code dev} each line names its device, as tc does.
     *
     * @param dev the device to show, or {@code null} for all
     * @throws NotApplicable when {@code dev} has no qdisc, or the result lacks what the view reads
     */
    public static String tc(RunResultDTO r, String dev, Function<String, ElementDescriptorDTO> types) throws NotApplicable {
        asRun(r);
        StringBuilder b = new StringBuilder();
        int shown = 0;
        int added = 0; // qdiscs a user added: handles from 8001: on, as the kernel's autohandle counter gives them
        for (Map.Entry<String, String> e : r.types.entrySet()) {
            String name = e.getKey();
            String kind = e.getValue();
            if (!isQdisc(kind, types)) {
                continue;
            }
            String handle = kind.equals("pfifo_fast") ? "0:" : Integer.toHexString(0x8001 + added++) + ":";
            String device = feeds(r, name);
            if (dev != null && !dev.equals(device)) {
                continue;
            }
            Map<String, Double> m = metrics(r, name);
            if (!m.containsKey("sentBytes")) {
                throw new NotApplicable("qdisc " + name + " (" + kind + ") reports no sentBytes: its element is not "
                        + "io.ringlab.qdisc's, or the result predates the counter; tc's Sent line cannot be printed");
            }
            Map<String, String> p = r.properties.getOrDefault(name, Map.of());
            b.append("qdisc ").append(kind).append(' ').append(handle).append(' ');
            if (dev == null) {
                b.append("dev ").append(device == null ? "(none)" : device).append(' ');
            }
            b.append("root refcnt 2 ");
            switch (kind) {
                case "pfifo_fast" -> {
                    b.append("bands 3 priomap");
                    for (int band : PRIO2BAND) {
                        b.append(' ').append(band);
                    }
                }
                case "pfifo" -> b.append("limit ").append(integer(p, "limit")).append('p');
                case "fq_codel" -> fqCodelOptions(b, p);
                default -> {
                }
            }
            b.append('\n');
            b.append(String.format(Locale.ROOT, " Sent %d bytes %d pkt (dropped %d, overlimits %d requeues %d) %n",
                    count(m, "sentBytes"), count(m, "sentPackets"), count(m, "drops"), count(m, "overlimits"),
                    count(m, "requeues")));
            b.append(String.format(Locale.ROOT, " backlog %s %dp requeues %d%n", size(count(m, "backlogBytes")),
                    count(m, "backlog"), count(m, "requeues")));
            if (kind.equals("fq_codel")) {
                fqCodelXstats(b, m);
            }
            shown++;
        }
        if (shown == 0) {
            throw new NotApplicable(dev == null ? "the run has no qdisc element"
                    : "no qdisc feeds " + dev + "; devices with a qdisc: " + devicesWithQdisc(r, types));
        }
        return b.toString();
    }

    /**
     * fq_codel's options in {@code fq_codel_print_opt}'s order (iproute2 6.1 {@code tc/q_fq_codel.c}), each with its
     * trailing space: the times as the kernel dumps them ({@code codel_time_to_us} of the 1024-ns value the property set),
     * {@code ecn} as the kernel's default ({@code fq_codel_init}: on; the model's packets are not ECN-capable, so it never
     * marks).
     */
    private static void fqCodelOptions(StringBuilder b, Map<String, String> p) {
        b.append("limit ").append(integer(p, "limit")).append("p ");
        b.append("flows ").append(integer(p, "flows")).append(' ');
        b.append("quantum ").append(Units.parseBytes(p.get("quantum"))).append(' ');
        b.append("target ").append(time(dumpedMicros(p.get("target")))).append(' ');
        b.append("interval ").append(time(dumpedMicros(p.get("interval")))).append(' ');
        b.append("memory_limit ").append(size(Units.parseBytes(p.get("memoryLimit")))).append(' ');
        b.append("ecn ");
        b.append("drop_batch ").append(integer(p, "dropBatch")).append(' ');
    }

    /** @return an integer property's value, whatever grammar the file wrote it in ({@code 10k}, {@code 10_240}) */
    private static long integer(Map<String, String> properties, String name) {
        return Units.parseInteger(properties.get(name));
    }

    /** {@code fq_codel_print_xstats}: the optional counters only when not zero, as iproute2 prints them. */
    private static void fqCodelXstats(StringBuilder b, Map<String, Double> m) {
        b.append(String.format(Locale.ROOT, "  maxpacket %d drop_overlimit %d new_flow_count %d ecn_mark 0",
                count(m, "maxPacket"), count(m, "dropOverlimit"), count(m, "newFlowCount")));
        if (count(m, "memoryUsed") != 0) {
            b.append(" memory_used ").append(count(m, "memoryUsed"));
        }
        if (count(m, "dropOvermemory") != 0) {
            b.append(" drop_overmemory ").append(count(m, "dropOvermemory"));
        }
        b.append(String.format(Locale.ROOT, "%n  new_flows_len %d old_flows_len %d%n", count(m, "newFlowsLen"),
                count(m, "oldFlowsLen")));
    }

    /**
     * @return a duration property as fq_codel dumps it in microseconds: set as {@code ns >> CODEL_SHIFT} (1024-ns units,
     *         {@code fq_codel_change}), dumped as {@code codel_time_to_us}
     */
    static long dumpedMicros(String duration) {
        long nanos = Units.parsePicos(duration) / 1000;
        return ((nanos >> 10) << 10) / 1000;
    }

    /**
     * iproute2's {@code sprint_time} (6.1 {@code lib/utils.c}, {@code print_time}): {@code %.3gs} from a second,
     * {@code %.3gms} from a millisecond, else {@code %uus}.
     */
    static String time(long micros) {
        if (micros >= 1_000_000) {
            return g3(micros / 1e6) + "s";
        }
        if (micros >= 1000) {
            return g3(micros / 1e3) + "ms";
        }
        return micros + "us";
    }

    /**
     * iproute2's {@code sprint_size} (6.1 {@code lib/json_print_math.c}): {@code %gMb} within 1024 B of a whole MiB,
     * {@code %gKb} within 16 B of a whole KiB, else {@code %ub}.
     */
    static String size(long bytes) {
        long kilo = 1024;
        long mega = kilo * kilo;
        if (bytes >= mega && Math.abs(mega * Math.rint((double) bytes / mega) - bytes) < 1024) {
            return g6(Math.rint((double) bytes / mega)) + "Mb";
        }
        if (bytes >= kilo && Math.abs(kilo * Math.rint((double) bytes / kilo) - bytes) < 16) {
            return g6(Math.rint((double) bytes / kilo)) + "Kb";
        }
        return bytes + "b";
    }

    /** @return C's {@code %.3g} of a positive value below 10<sup>15</sup> */
    static String g3(double v) {
        return cG(v, 3);
    }

    /** @return C's {@code %g} (six significant digits) */
    private static String g6(double v) {
        return cG(v, 6);
    }

    /** C's {@code %.Pg}: P significant digits, trailing zeros dropped, exponent form below 1e-4 or from 10^P. */
    private static String cG(double v, int precision) {
        if (v == 0) {
            return "0";
        }
        BigDecimal d = new BigDecimal(v).round(new MathContext(precision));
        int exponent = d.precision() - d.scale() - 1;
        if (exponent < -4 || exponent >= precision) {
            BigDecimal mantissa = d.movePointLeft(exponent).stripTrailingZeros();
            return mantissa.toPlainString() + (exponent < 0 ? "e-" : "e+")
                    + String.format(Locale.ROOT, "%02d", Math.abs(exponent));
        }
        return d.stripTrailingZeros().toPlainString();
    }

    // ------------------------------------------------------------------ ethtool

    /**
     * {@code ethtool -S DEV}: the driver element's counters that carry the kernel driver's name
     * ({@link MetricDescriptorDTO#ethtool}), in the order its type declares them, then apart under a line of its own the
     * counters of the model only, under their Ringlab names.
     *
     * @param dev the driver element, or {@code null} for every driver (each under a {@code # ethtool -S DEV} line)
     * @throws NotApplicable when {@code dev} is not a driver of the run or its type is not installed
     */
    public static String ethtool(RunResultDTO r, String dev, Function<String, ElementDescriptorDTO> types) throws NotApplicable {
        asRun(r);
        List<String> devices = dev != null ? List.of(dev) : drivers(r, types);
        if (devices.isEmpty()) {
            throw new NotApplicable("the run has no driver element");
        }
        StringBuilder b = new StringBuilder();
        for (String d : devices) {
            String type = r.types.get(d);
            ElementDescriptorDTO desc = type == null ? null : types.apply(type);
            if (type == null || desc != null && !ElementDescriptorDTO.DRIVER.equals(desc.category)) {
                throw new NotApplicable(d + " is not a driver of the run; drivers: " + drivers(r, types));
            }
            if (desc == null) {
                throw new NotApplicable(d + " is a " + type + ", a type no installed bundle provides: its counter names"
                        + " come from its bundle");
            }
            if (dev == null) {
                b.append("# ethtool -S ").append(d).append('\n');
            }
            Map<String, Double> m = metrics(r, d);
            List<MetricDescriptorDTO> own = new ArrayList<>();
            String source = null;
            b.append("NIC statistics:\n");
            for (MetricDescriptorDTO md : desc.metricDescriptors) {
                if (!m.containsKey(md.name) || md.name.contains(MetricNames.FAMILY_INDEX) || !counterLike(md)) {
                    continue;
                }
                if (md.ethtool == null) {
                    own.add(md);
                    continue;
                }
                if (source == null) {
                    source = md.ethtoolSource;
                }
                b.append("     ").append(md.ethtool).append(": ").append(count(m, md.name)).append('\n');
            }
            if (!own.isEmpty()) {
                b.append("# ").append(type).append(" model counters without a kernel name:\n");
                for (MetricDescriptorDTO md : own) {
                    b.append("     ").append(md.name).append(": ").append(Numbers.exact(m.get(md.name))).append('\n');
                }
            }
            if (source == null) {
                b.append("# no counter of the ").append(type).append(" model has an ethtool -S name\n");
            }
        }
        return b.toString();
    }

    /**
     * @return whether ethtool could show the metric: a counter or gauge of the driver's own, not a rate, a histogram's
     *         statistic, the engine's CPU accounting ({@code cpuCycles}, {@code cpuNanos}: the cost model's, not the
     *         NIC's) or a BQL figure (sysfs shows those: {@link #bql})
     */
    private static boolean counterLike(MetricDescriptorDTO md) {
        return (MetricDescriptorDTO.COUNTER.equals(md.kind) || MetricDescriptorDTO.GAUGE.equals(md.kind))
                && !md.name.startsWith("cpu") && !BQL_FILE_METRICS.contains(md.name);
    }

    // ------------------------------------------------------------------ bql

    /**
     * {@code grep . /sys/class/net/DEV/queues/tx-0/byte_queue_limits/*}: each driver with the BQL gauges; a driver whose
     * queue runs without BQL ({@code bql = false}) gets a comment saying so instead of the files.
     *
     * @param dev the driver element, or {@code null} for every driver that reports BQL's gauges
     * @throws NotApplicable when {@code dev} (or the run) has no TX queue limits
     */
    public static String bql(RunResultDTO r, String dev, Function<String, ElementDescriptorDTO> types) throws NotApplicable {
        asRun(r);
        List<String> devices = new ArrayList<>();
        for (String d : dev != null ? List.of(dev) : drivers(r, types)) {
            if (metrics(r, d).containsKey(LIMIT_MAX)) {
                devices.add(d);
            } else if (dev != null) {
                throw new NotApplicable(d + " reports no byte queue limits (its model has no BQL hooks); devices with"
                        + " them: " + bqlDevices(r, types));
            }
        }
        if (devices.isEmpty()) {
            throw new NotApplicable("no driver of the run reports byte queue limits");
        }
        StringBuilder b = new StringBuilder();
        for (String d : devices) {
            Map<String, Double> m = metrics(r, d);
            if (count(m, LIMIT_MAX) == 0) {
                b.append("# ").append(d).append(": BQL off (the driver model calls no BQL hook); the kernel's files"
                        + " would hold their defaults\n");
                continue;
            }
            String dir = "/sys/class/net/" + d + "/queues/tx-0/byte_queue_limits/";
            for (String[] f : BQL_FILES) {
                b.append(dir).append(f[0]).append(':').append(count(m, f[1])).append('\n');
            }
        }
        return b.toString();
    }

    // ------------------------------------------------------------------ the result as run

    private static void asRun(RunResultDTO r) throws NotApplicable {
        if (r.types == null || r.types.isEmpty() || r.connections == null) {
            throw new NotApplicable("the result does not record the pipeline as run (types, connections: Ringlab "
                    + "0.2 and later write them); run the pipeline again");
        }
        if (r.elements == null) {
            throw new NotApplicable("the result has no element metrics");
        }
    }

    /** @return the element a qdisc's output feeds: the device whose root qdisc it is; null when unconnected */
    static String feeds(RunResultDTO r, String qdisc) {
        for (ConnectionDTO c : r.connections) {
            if (c.from.equals(qdisc)) {
                return c.to;
            }
        }
        return null;
    }

    private static boolean isQdisc(String type, Function<String, ElementDescriptorDTO> types) {
        ElementDescriptorDTO d = types.apply(type);
        return d != null ? ElementDescriptorDTO.QDISC.equals(d.category)
                : List.of("pfifo", "pfifo_fast", "fq_codel").contains(type);
    }

    /** @return the run's driver elements, by name */
    static List<String> drivers(RunResultDTO r, Function<String, ElementDescriptorDTO> types) {
        List<String> out = new ArrayList<>();
        r.types.forEach((name, type) -> {
            ElementDescriptorDTO d = types.apply(type);
            if (d != null && ElementDescriptorDTO.DRIVER.equals(d.category)) {
                out.add(name);
            }
        });
        return out;
    }

    private static List<String> bqlDevices(RunResultDTO r, Function<String, ElementDescriptorDTO> types) {
        return drivers(r, types).stream().filter(d -> metrics(r, d).containsKey(LIMIT_MAX)).toList();
    }

    private static List<String> devicesWithQdisc(RunResultDTO r, Function<String, ElementDescriptorDTO> types) {
        List<String> out = new ArrayList<>();
        r.types.forEach((name, type) -> {
            if (isQdisc(type, types) && feeds(r, name) != null) {
                out.add(feeds(r, name));
            }
        });
        return out;
    }

    private static Map<String, Double> metrics(RunResultDTO r, String element) {
        Map<String, Double> m = r.elements.get(element);
        return m == null ? Map.of() : m;
    }

    /** @return a counter or gauge as the whole number the tools print; 0 when the element does not report it */
    private static long count(Map<String, Double> m, String metric) {
        Double v = m.get(metric);
        return v == null || v.isNaN() ? 0 : Math.round(v);
    }
}
