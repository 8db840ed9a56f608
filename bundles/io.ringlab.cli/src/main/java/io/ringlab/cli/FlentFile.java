package io.ringlab.cli;

import java.io.IOException;
import java.io.OutputStream;
import java.io.OutputStreamWriter;
import java.nio.charset.StandardCharsets;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.TreeMap;
import java.util.zip.GZIPOutputStream;

import com.google.gson.GsonBuilder;

import io.ringlab.sim.api.dto.ElementSpecDTO;
import io.ringlab.sim.api.dto.PipelineDTO;
import io.ringlab.sim.api.dto.PointsDTO;
import io.ringlab.sim.api.dto.RunResultDTO;
import io.ringlab.sim.api.dto.SeriesDTO;
import io.ringlab.sim.api.dto.ValueDTO;

/**
 * A run as a flent data file ({@code ringlab run FILE --flent OUT.flent.gz}), so that a simulated run and a testbed's
 * flent run open in the same flent plot. The format is flent 2.1.1's (its {@code resultset.py}, file format version
 * {@value #VERSION}; docs/flent.md): gzip'd JSON with {@code metadata}, {@code x_values} (from 0 every
 * {@value #STEP} s, flent's default {@code STEP_SIZE}), {@code results} (each series on that grid, {@code null} where it
 * has no value) and {@code raw_values} (each sample with its time).
 * <p>
 * Which flent test a pipeline resembles, and so the file's {@code NAME} and series:
 * <ul>
 * <li>a {@code ping} element and no {@code tcp}: {@code ping}, series {@code Ping (ms) ICMP} (each echo's RTT, from the
 * ping element's {@code rttMillis} points);</li>
 * <li>{@code tcp} elements with N streams in all, and a {@code ping}: {@code tcp_1up} (series {@code TCP upload}) for
 * one stream, {@code tcp_Nup} for N of 2, 4, 6, 8 and 12 (flent's own tests, {@code TCP upload::1} to {@code ::N}), else
 * {@code tcp_nup} with {@code TEST_PARAMETERS.upload_streams = N}; each stream's throughput in Mbit/s over each step,
 * from its {@code stream<i>AckedBytes} series (sampled every step: {@code --flent} sets the run's series interval), with
 * the ping's {@code Ping (ms) ICMP}.</li>
 * <li>TCP both ways: {@code rrul}. A {@code tcp} element is an upload when its output feeds what the first ping's feeds
 * (the client's qdisc, where flent runs), else a download (a sender at the far end). rrul needs four of each, one
 * stream each, one per class flent marks by TOS ({@code 0x00} BE, {@code 0x20} BK, {@code 0xa0} CS5, {@code 0xb8} EF:
 * series {@code TCP upload BE}, ..., {@code TCP download EF}), the first ping ({@code Ping (ms) ICMP}) and three more
 * pings with TOS 0xb8, 0x20 and 0x00 for flent's UDP pings ({@code Ping (ms) UDP EF}, {@code BK}, {@code BE}).</li>
 * </ul>
 * Only the run's measured window is written: x = 0 is its first sample (the warm-up's end when that is on the series'
 * grid), in virtual time from the Unix epoch ({@code T0} and {@code TIME} are 1970-01-01T00:00:00Z plus that time), so the
 * same run gives the same file. The metadata names the pipeline, its overrides, the seed and Ringlab's version ({@code NOTE} and the
 * {@code RINGLAB_*} keys).
 * <p>
 * Stateless and thread-safe.
 */
final class FlentFile {
    /** flent's data file format version (flent 2.1.1 {@code resultset.FILEFORMAT_VERSION}; 5 or more it refuses). */
    static final int VERSION = 4;
    /** flent's default step, seconds ({@code STEP_SIZE}); also the series interval of a run written as a flent file. */
    static final double STEP = 0.2;
    /** The series interval a run gets for a flent file: {@value #STEP} s. */
    static final String STEP_TEXT = "200ms";
    /** flent's name of ICMP ping RTT series (ping.conf, tcp_nup.conf). */
    static final String PING = "Ping (ms) ICMP";
    /** flent's streams-per-test in its own tcp_Nup tests. */
    private static final List<Integer> NUP = List.of(2, 4, 6, 8, 12);
    /** rrul's classes (rrul.conf: netperf -Y, DiffServ code points as TOS bytes), in flent's series order. */
    static final Map<String, Integer> RRUL_CLASSES = orderedClasses();
    /** rrul's UDP pings' classes, in flent's order. */
    static final List<String> RRUL_PING_CLASSES = List.of("EF", "BK", "BE");

    private static Map<String, Integer> orderedClasses() {
        Map<String, Integer> m = new LinkedHashMap<>();
        m.put("BE", 0x00);
        m.put("BK", 0x20);
        m.put("CS5", 0xa0);
        m.put("EF", 0xb8);
        return java.util.Collections.unmodifiableMap(m);
    }

    private FlentFile() {
    }

    /**
     * A series of the file and where it comes from.
     *
     * @param name flent's name of the series
     * @param source a TCP stream's acked-bytes metric ({@code element.stream<i>AckedBytes}), or a ping element's name
     */
    record Series(String name, String source) {
    }

    /**
     * What a pipeline gives flent.
     *
     * @param test flent's test name
     * @param tcp the TCP series, each from a stream's acked bytes, in flent's order
     * @param pings the ping series, the ICMP ping first
     * @param parameters flent's {@code TEST_PARAMETERS}
     */
    record Plan(String test, List<Series> tcp, List<Series> pings, Map<String, String> parameters) {
        /** @return the ICMP ping's element */
        String ping() {
            return pings.get(0).source();
        }

        /** @return each TCP series' acked-bytes metric, in flent's order */
        List<String> streams() {
            return tcp.stream().map(Series::source).toList();
        }

        /** @return flent's name of the i-th (from 0) stream's series */
        String streamSeries(int i) {
            return tcp.get(i).name();
        }
    }

    /** A tcp element as the plan reads it: its streams' metrics, its TOS, the element its output feeds. */
    private record Sender(String name, int streams, int tos, String feeds) {
    }

    /** A ping element: its TOS and the element its output feeds. */
    private record Pinger(String name, int tos, String feeds) {
    }

    /**
     * @return which flent test the pipeline resembles, and what of the run it takes
     * @throws IllegalArgumentException if flent has no test for it (no ping element), saying what flent needs
     */
    static Plan plan(PipelineDTO p) {
        List<Pinger> pings = new ArrayList<>();
        List<Sender> senders = new ArrayList<>();
        for (ElementSpecDTO e : p.elements) {
            if ("ping".equals(e.type)) {
                pings.add(new Pinger(e.name, tos(e.properties.get("tos")), feeds(p, e.name)));
            } else if ("tcp".equals(e.type)) {
                ValueDTO n = e.properties.get("streams");
                int count = n == null ? 1 : (int) io.ringlab.pipeline.format.Units.parseInteger(n.text.strip());
                senders.add(new Sender(e.name, count, tos(e.properties.get("tos")), feeds(p, e.name)));
            }
        }
        return plan(p.file, pings, senders);
    }

    private static int tos(ValueDTO v) {
        return v == null ? 0 : (int) io.ringlab.pipeline.format.Units.parseInteger(v.text.strip());
    }

    /** @return the element the output {@code out} of {@code element} feeds in the file; null when none */
    private static String feeds(PipelineDTO p, String element) {
        for (io.ringlab.sim.api.dto.ConnectionDTO c : p.connections) {
            if (c.from.equals(element) && (c.fromPort == null || c.fromPort.equals("out"))) {
                return c.to;
            }
        }
        return null;
    }

    /**
     * @return what a run's result gives flent: its first ping element (the one whose {@code rttMillis} points it
     *         reports) and every TCP stream's {@code stream<i>AckedBytes} series, in the order of the series
     * @throws IllegalArgumentException as {@link #plan(PipelineDTO)}
     */
    static Plan plan(RunResultDTO r) {
        List<Pinger> pings = new ArrayList<>();
        Map<String, int[]> streams = new LinkedHashMap<>(); // element -> streams, in the order of the series
        if (r.series != null) {
            for (String k : r.series.points.keySet()) {
                if (k.endsWith(".rttMillis")) {
                    String e = k.substring(0, k.length() - ".rttMillis".length());
                    pings.add(new Pinger(e, tos(r, e), feeds(r, e)));
                }
            }
            for (String c : r.series.columns) {
                if (c.matches("[^.]+\\.stream\\d+AckedBytes")) {
                    streams.computeIfAbsent(c.substring(0, c.indexOf('.')), k -> new int[1])[0]++;
                }
            }
        }
        List<Sender> senders = new ArrayList<>();
        streams.forEach((e, n) -> senders.add(new Sender(e, n[0], tos(r, e), feeds(r, e))));
        return plan(r.pipeline, pings, senders);
    }

    private static int tos(RunResultDTO r, String element) {
        Map<String, String> p = r.properties == null ? null : r.properties.get(element);
        String t = p == null ? null : p.get("tos");
        return t == null ? 0 : (int) io.ringlab.pipeline.format.Units.parseInteger(t);
    }

    /** @return the element the output {@code out} of {@code element} fed in the run (results from 0.2 on say) */
    private static String feeds(RunResultDTO r, String element) {
        if (r.connections != null) {
            for (io.ringlab.sim.api.dto.ConnectionDTO c : r.connections) {
                if (c.from.equals(element) && "out".equals(c.fromPort)) {
                    return c.to;
                }
            }
        }
        return null;
    }

    /** The one rule: which flent test these pings and senders make. */
    private static Plan plan(String pipeline, List<Pinger> pings, List<Sender> senders) {
        if (pings.isEmpty()) {
            throw new IllegalArgumentException("--flent: " + pipeline + " has no ping element: flent's ping and tcp_*up"
                    + " tests all have a ping series (Ping (ms) ICMP); add a ping element");
        }
        Pinger icmp = pings.get(0);
        List<Series> icmpOnly = List.of(new Series(PING, icmp.name()));
        List<Sender> up = new ArrayList<>();
        List<Sender> down = new ArrayList<>();
        for (Sender s : senders) {
            (s.feeds() == null || s.feeds().equals(icmp.feeds()) ? up : down).add(s);
        }
        if (!down.isEmpty()) {
            return rrul(pipeline, pings, up, down);
        }
        List<Series> tcp = new ArrayList<>();
        int n = up.stream().mapToInt(Sender::streams).sum();
        for (Sender s : up) {
            for (int i = 0; i < s.streams(); i++) {
                tcp.add(new Series(n == 1 ? "TCP upload" : "TCP upload::" + (tcp.size() + 1),
                        s.name() + ".stream" + i + "AckedBytes"));
            }
        }
        if (n == 0) {
            return new Plan("ping", tcp, icmpOnly, Map.of());
        }
        if (n == 1) {
            return new Plan("tcp_1up", tcp, icmpOnly, Map.of());
        }
        if (NUP.contains(n)) {
            return new Plan("tcp_" + n + "up", tcp, icmpOnly, Map.of());
        }
        return new Plan("tcp_nup", tcp, icmpOnly, Map.of("upload_streams", Integer.toString(n)));
    }

    /** rrul: each direction's four classes, the ICMP ping and the three class pings; anything else is refused. */
    private static Plan rrul(String pipeline, List<Pinger> pings, List<Sender> up, List<Sender> down) {
        List<Series> tcp = new ArrayList<>();
        String problem = null;
        for (String dir : List.of("upload", "download")) {
            List<Sender> senders = dir.equals("upload") ? up : down;
            for (Map.Entry<String, Integer> c : RRUL_CLASSES.entrySet()) {
                List<Sender> of = senders.stream().filter(s -> s.tos() == c.getValue()).toList();
                if (of.size() != 1 || of.get(0).streams() != 1) {
                    problem = of.size() + " " + dir + " element(s) of class " + c.getKey() + " (TOS 0x"
                            + Integer.toHexString(c.getValue()) + ")" + (of.size() == 1 ? " with " + of.get(0).streams()
                            + " streams" : "");
                    break;
                }
                tcp.add(new Series("TCP " + dir + " " + c.getKey(), of.get(0).name() + ".stream0AckedBytes"));
            }
            if (problem == null && senders.size() != 4) {
                problem = senders.size() + " " + dir + " elements";
            }
        }
        List<Series> ps = new ArrayList<>(List.of(new Series(PING, pings.get(0).name())));
        for (String c : RRUL_PING_CLASSES) {
            List<Pinger> of = pings.subList(1, pings.size()).stream().filter(p -> p.tos() == RRUL_CLASSES.get(c)).toList();
            if (problem == null && of.size() != 1) {
                problem = of.size() + " pings of class " + c + " besides the first (ICMP) ping";
            }
            if (!of.isEmpty()) {
                ps.add(new Series("Ping (ms) UDP " + c, of.get(0).name()));
            }
        }
        if (problem != null) {
            throw new IllegalArgumentException("--flent: " + pipeline + " sends TCP both ways (downloads: "
                    + down.stream().map(Sender::name).toList() + "), which is flent's rrul: it needs one upload and one"
                    + " download of one stream per class, TOS 0x00 BE, 0x20 BK, 0xa0 CS5, 0xb8 EF, and besides the first"
                    + " (ICMP) ping one ping with TOS 0xb8, 0x20 and 0x00 each; found " + problem
                    + " (pipelines/stmmac-rrul-100m.pipeline is one)");
        }
        return new Plan("rrul", tcp, ps, Map.of());
    }

    /**
     * @param r the run's result, sampled every {@value #STEP} s
     * @param plan from {@link #plan}
     * @param pipelineFile the pipeline's file, for the metadata
     * @return the file's content (gzip'd JSON)
     */
    static io.ringlab.pipeline.format.OutputFile.Content content(RunResultDTO r, Plan plan, String pipelineFile,
            String title) {
        Map<String, Object> file = file(r, plan, pipelineFile, title);
        return out -> {
            GZIPOutputStream z = new GZIPOutputStream(new NonClosing(out));
            OutputStreamWriter w = new OutputStreamWriter(z, StandardCharsets.UTF_8);
            new GsonBuilder().setPrettyPrinting().serializeNulls().disableHtmlEscaping().create().toJson(file, w);
            w.flush();
            z.finish();
        };
    }

    /** @return the file as JSON objects (maps in flent's key order, sorted as flent writes them) */
    static Map<String, Object> file(RunResultDTO r, Plan plan, String pipelineFile) {
        return file(r, plan, pipelineFile, title(r));
    }

    /** @return a {@code run}'s title: the pipeline's name and the run's {@code --set}s */
    static String title(RunResultDTO r) {
        return r.pipeline + (r.overrides == null || r.overrides.set.isEmpty() ? "" : " " + String.join(" ", r.overrides.set));
    }

    /**
     * @param title the file's {@code TITLE}: the legend when files are plotted together
     * @return the file as JSON objects (maps in flent's key order, sorted as flent writes them)
     */
    static Map<String, Object> file(RunResultDTO r, Plan plan, String pipelineFile, String title) {
        // x = 0 at the first sample of the measured window; a step is the series' interval (0.2 s for run --flent)
        double step = r.series != null && r.series.intervalSeconds > 0 ? r.series.intervalSeconds : STEP;
        double warmup = start(r, r.simulatedSeconds - r.measuredSeconds);
        double length = round(r.simulatedSeconds - warmup);
        int n = (int) Math.floor(length / step + 1e-9);
        List<Double> x = new ArrayList<>();
        for (int j = 0; j < n; j++) {
            x.add(round(j * step));
        }
        Map<String, Object> results = new TreeMap<>();
        Map<String, Object> raw = new TreeMap<>();
        Map<String, Object> seriesMeta = new TreeMap<>();
        List<String> hosts = new ArrayList<>();
        for (int i = 0; i < plan.streams().size(); i++) {
            String metric = plan.streams().get(i);
            // the stream's socket statistics at each step's end, as flent's ss runner adds them (tcp_cwnd, tcp_rtt)
            String cwnd = metric.replace("AckedBytes", "Cwnd");
            String srtt = metric.replace("AckedBytes", "SrttMillis");
            boolean ss = r.series.columns.contains(cwnd) && r.series.columns.contains(srtt);
            List<Double> grid = new ArrayList<>();
            List<Map<String, Object>> samples = new ArrayList<>();
            for (int j = 0; j < n; j++) {
                double from = warmup + j * step;
                double to = from + step;
                double bytes = valueAt(r, metric, to) - valueAt(r, metric, from);
                double mbps = bytes * 8 / step / 1e6;
                grid.add(mbps);
                Map<String, Object> s = new LinkedHashMap<>();
                s.put("t", round(to - warmup));
                s.put("val", mbps);
                s.put("dur", step);
                if (ss) {
                    s.put("tcp_cwnd", valueAt(r, cwnd, to));
                    s.put("tcp_rtt", valueAt(r, srtt, to));
                }
                samples.add(s);
            }
            String name = plan.streamSeries(i);
            results.put(name, grid);
            raw.put(name, samples);
            seriesMeta.put(name, meta("Mbits/s", "NetperfDemoRunner", i + 1));
        }
        int idx = plan.tcp().size();
        for (Series ping : plan.pings()) {
            PointsDTO pings = r.series == null ? null : r.series.points.get(ping.source() + ".rttMillis");
            List<Map<String, Object>> pingRaw = new ArrayList<>();
            List<double[]> inWindow = new ArrayList<>();
            if (pings != null) {
                for (int k = 0; k < pings.timeSeconds.length; k++) {
                    double t = pings.timeSeconds[k];
                    if (t + 1e-12 < warmup) {
                        continue;
                    }
                    Map<String, Object> s = new LinkedHashMap<>();
                    s.put("t", t - warmup);
                    s.put("val", pings.values[k]);
                    s.put("seq", k);
                    pingRaw.add(s);
                    inWindow.add(new double[] {t - warmup, pings.values[k]});
                }
            }
            List<Double> pingGrid = new ArrayList<>();
            for (double xj : x) {
                pingGrid.add(interpolate(inWindow, xj));
            }
            results.put(ping.name(), pingGrid);
            raw.put(ping.name(), pingRaw);
            seriesMeta.put(ping.name(), meta("ms", "PingRunner", ++idx));
            hosts.add(ping.source());
        }

        String epoch = iso(warmup);
        Map<String, Object> metadata = new TreeMap<>();
        metadata.put("NAME", plan.test());
        metadata.put("TITLE", title);
        metadata.put("NOTE", "simulated by Ringlab " + r.ringlabVersion + ": pipeline " + pipelineFile + ", seed " + r.seed
                + (r.overrides == null || r.overrides.set.isEmpty() ? "" : ", overrides " + r.overrides.set)
                + "; x = 0 is the end of the warm-up, times are virtual");
        metadata.put("TIME", epoch);
        metadata.put("T0", epoch);
        metadata.put("LENGTH", length);
        metadata.put("TOTAL_LENGTH", length);
        metadata.put("STEP_SIZE", step);
        metadata.put("HOST", plan.ping());
        metadata.put("HOSTS", hosts);
        metadata.put("LOCAL_HOST", "ringlab");
        metadata.put("IP_VERSION", 4);
        metadata.put("TEST_PARAMETERS", new TreeMap<>(plan.parameters()));
        metadata.put("SERIES_META", seriesMeta);
        metadata.put("FAILED_RUNNERS", 0);
        metadata.put("RINGLAB_VERSION", r.ringlabVersion);
        metadata.put("RINGLAB_PIPELINE", pipelineFile);
        metadata.put("RINGLAB_SEED", r.seed);
        metadata.put("RINGLAB_OVERRIDES", r.overrides == null ? List.of() : r.overrides.set);
        metadata.put("RINGLAB_WARMUP_SECONDS", r.simulatedSeconds - r.measuredSeconds);

        Map<String, Object> file = new TreeMap<>();
        file.put("metadata", metadata);
        file.put("raw_values", raw);
        file.put("results", results);
        file.put("version", VERSION);
        file.put("x_values", x);
        // raw times are absolute in flent (Unix seconds): the epoch plus the warm-up is x = 0
        for (Object series : raw.values()) {
            for (Object s : (List<?>) series) {
                @SuppressWarnings("unchecked")
                Map<String, Object> m = (Map<String, Object>) s;
                m.put("t", warmup + (double) m.get("t"));
            }
        }
        return file;
    }

    /** @return the first series row's time at or after the warm-up's end (the window's start when there is none) */
    private static double start(RunResultDTO r, double warmup) {
        if (r.series != null) {
            for (double[] row : r.series.rows) {
                if (row[0] >= warmup - 1e-9) {
                    return row[0];
                }
            }
        }
        return warmup;
    }

    private static Map<String, Object> meta(String units, String runner, int idx) {
        Map<String, Object> m = new TreeMap<>();
        m.put("UNITS", units);
        m.put("RUNNER", runner);
        m.put("IDX", idx);
        return m;
    }

    /**
     * @return the metric's value at virtual time {@code t}: the series' rows interpolated, or at the run's end the
     *         end-of-run value (the series' last row is the step before the end)
     */
    static double valueAt(RunResultDTO r, String metric, double t) { // a counter's or gauge's series
        int dot = metric.indexOf('.');
        Map<String, Double> element = r.elements.get(metric.substring(0, dot));
        Double end = element == null ? null : element.get(metric.substring(dot + 1));
        if (end != null && t >= r.simulatedSeconds - 1e-9) {
            return end;
        }
        SeriesDTO s = r.series;
        int c = s == null ? -1 : s.columns.indexOf(metric);
        if (c < 0) {
            throw new IllegalStateException("--flent: the run has no series " + metric);
        }
        double[] prev = null;
        for (double[] row : s.rows) {
            if (Math.abs(row[0] - t) < 1e-9) {
                return row[c];
            }
            if (row[0] > t) {
                if (prev == null) {
                    return row[c];
                }
                return prev[c] + (row[c] - prev[c]) * (t - prev[0]) / (row[0] - prev[0]);
            }
            prev = row;
        }
        if (end == null || prev == null) {
            throw new IllegalStateException("--flent: the series " + metric + " ends before " + t + " s");
        }
        return prev[c] + (end - prev[c]) * (t - prev[0]) / (r.simulatedSeconds - prev[0]);
    }

    /** @return the RTT at {@code x} between the two pings around it, or {@code null} outside the first and last */
    private static Double interpolate(List<double[]> points, double x) {
        for (int k = 0; k < points.size(); k++) {
            double[] p = points.get(k);
            if (Math.abs(p[0] - x) < 1e-12) {
                return p[1];
            }
            if (p[0] > x) {
                if (k == 0) {
                    return null;
                }
                double[] q = points.get(k - 1);
                return q[1] + (p[1] - q[1]) * (x - q[0]) / (p[0] - q[0]);
            }
        }
        return null;
    }

    /** @return {@code seconds} after the Unix epoch as flent writes times ({@code %Y-%m-%dT%H:%M:%S.%fZ}) */
    static String iso(double seconds) {
        long micros = Math.round(seconds * 1e6);
        java.time.LocalDateTime t = java.time.LocalDateTime.ofEpochSecond(Math.floorDiv(micros, 1_000_000),
                (int) Math.floorMod(micros, 1_000_000) * 1000, java.time.ZoneOffset.UTC);
        return t.format(java.time.format.DateTimeFormatter.ofPattern("yyyy-MM-dd'T'HH:mm:ss.SSSSSS")) + "Z";
    }

    private static double round(double v) {
        return Math.round(v * 1e9) / 1e9;
    }

    /** Lets the gzip stream finish without closing the caller's stream (standard output for {@code -}). */
    private static final class NonClosing extends java.io.FilterOutputStream {
        NonClosing(OutputStream out) {
            super(out);
        }

        @Override
        public void write(byte[] b, int off, int len) throws IOException {
            out.write(b, off, len);
        }

        @Override
        public void close() throws IOException {
            flush();
        }
    }
}
