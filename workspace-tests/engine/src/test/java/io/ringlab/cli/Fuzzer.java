package io.ringlab.cli;

import java.io.ByteArrayOutputStream;
import java.io.IOException;
import java.io.PrintStream;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Random;
import java.util.TreeMap;
import java.util.concurrent.ExecutionException;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.concurrent.Future;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.TimeoutException;
import java.util.regex.Matcher;
import java.util.regex.Pattern;
import java.util.stream.Stream;

import com.google.gson.JsonObject;
import com.google.gson.JsonParser;

import io.ringlab.engine.standalone.Standalone;
import io.ringlab.sim.api.dto.ElementDescriptorDTO;
import io.ringlab.sim.api.dto.PortDescriptorDTO;
import io.ringlab.sim.api.dto.PortDescriptorDTO.Direction;
import io.ringlab.sim.api.dto.PropertyDescriptorDTO;
import io.ringlab.experiment.TestExperiments;

/**
 * Ringlab's fuzzer: mutants of every shipped pipeline and experiment, each run through the real command line
 * ({@code ringlab run} and {@code ringlab ab}, {@link Commands#execute}) over the real models in this JVM for a short
 * virtual time, and judged by what a user would see:
 * <ul>
 * <li>a Java stack trace in the output, or on this JVM's standard error (an engine thread's uncaught error);</li>
 * <li>a hang: no answer within {@link #BOUND_SECONDS}, or a run ended by the per-event watchdog;</li>
 * <li>exit 0 with a JSON result that does not parse;</li>
 * <li>exit 2 (bad input) whose message names the mutant's file without a line and column, unless the problem is the
 * file's as a whole ({@link #WHOLE_FILE});</li>
 * <li>an exit code other than 0, 1, 2 or 3.</li>
 * </ul>
 * The mutations ({@link Mutation}) delete, duplicate and swap lines, flip characters, truncate, put extreme numbers and
 * units, unicode and binary in, add thousands of elements, cycles and self-loops between ports of the elements' types,
 * dangling ports and duplicate names, and set an element's property to an edge of what its type allows. The
 * same seed gives the same mutants. {@code FuzzTest} runs a fixed sample in every build, and more on demand:
 * {@code ./mvnw -B test -pl workspace-tests/engine -Dtest=FuzzTest -Dringlab.fuzz.count=5000 -Dringlab.fuzz.seed=7}.
 */
final class Fuzzer {
    /** The most wall time one mutant may take. */
    static final long BOUND_SECONDS = 60;
    /** Virtual time per run: enough for every element to start and packets to flow. */
    static final String DURATION = "2ms";
    /**
     * Problems of a file as a whole, which have no line: the mutant's path followed by one of these is a good message.
     */
    static final List<Pattern> WHOLE_FILE = List.of(
            Pattern.compile("is empty|declares no element|no element|is missing|no variant|larger than|is a directory|not a regular file"
                    + "|cannot be read|no such file"));

    /** What one mutant is. */
    record Mutant(int index, String source, Mutation mutation, byte[] bytes, boolean experiment) {
        String label() {
            return "#" + index + " " + mutation + " of " + source;
        }
    }

    /** What the judge found wrong with one mutant's run; {@code kind} is one of the list in the class comment. */
    record Finding(Mutant mutant, String kind, String detail) {
        @Override
        public String toString() {
            return mutant.label() + ": " + kind + ": " + detail;
        }
    }

    /** What the mutants' runs came to. */
    record Report(int mutants, Map<Integer, Integer> exitCodes, List<Finding> findings) {
        String summary() {
            return mutants + " mutants, exit codes " + exitCodes + ", " + findings.size() + " findings";
        }
    }

    enum Mutation {
        DELETE_LINE, DUPLICATE_LINE, SWAP_LINES, FLIP_CHARACTER, TRUNCATE, EXTREME_NUMBER, EXTREME_UNIT, UNICODE, BINARY,
        MANY_ELEMENTS, CYCLE, SELF_LOOP, DANGLING_PORT, DUPLICATE_NAME, EXTREME_PROPERTY
    }

    private static final String[] NUMBERS = {"0", "-1", "1", "2147483648", "9223372036854775807", "99999999999999999999",
        "1e308", "0.0000001", "0x7fffffff", "1_000_000_000", "NaN", "-0"};
    private static final String[] UNITS = {"ps", "ns", "us", "ms", "s", "h", "B", "KiB", "MiB", "GiB", "k", "M", "G",
        "bit", "Kbit", "Mbit", "Gbit", "Tbit", "Mbps", "Gbps", "%", ""};
    private static final String[] UNICODE = {"\u00e9", "\u0000", "\uffff", "\ud83d\ude80", "\u202e", "\u00a0", "\ufeff",
        "\u2028", "\u0301"};
    private static final String[] TOKENS = {"{", "}", "=", ";", "->", "\"", ".", ":", "[", "]", ",", "#", " ", "\n"};
    private static final Pattern NUMBER = Pattern.compile("(?<![A-Za-z_])[0-9][0-9_.]*");
    private static final Pattern UNIT = Pattern.compile("(?<=[0-9])([A-Za-z%]+)");
    private static final Pattern ELEMENT = Pattern.compile("(?m)^element\\s+([A-Za-z_][A-Za-z0-9_-]*)\\s*:\\s*([A-Za-z_][A-Za-z0-9_-]*)");

    private final Path repo;
    private final Path work;
    private final Standalone simulator = Standalone.builder().build();
    /** The installed types by name: their ports and properties, for the mutations that know them. */
    private final Map<String, ElementDescriptorDTO> types = new LinkedHashMap<>();

    /**
     * @param repo the repository, whose {@code pipelines/} and {@code experiments/} are mutated
     * @param work an empty folder for the mutants and their outputs
     */
    Fuzzer(Path repo, Path work) {
        this.repo = repo;
        this.work = work;
        simulator.elementTypes().forEach(d -> types.put(d.type, d));
    }

    /** @return {@code count} mutants drawn with {@code seed}, in turn from every shipped pipeline and experiment */
    List<Mutant> mutants(long seed, int count) throws IOException {
        List<Path> sources = new ArrayList<>();
        try (Stream<Path> p = Files.list(repo.resolve("pipelines")); Stream<Path> e = Files.list(repo.resolve("experiments"))) {
            Stream.concat(p, e).filter(f -> f.toString().endsWith(".pipeline") || f.toString().endsWith(".experiment"))
                    .sorted().forEach(sources::add);
        }
        Random random = new Random(seed);
        List<Mutant> out = new ArrayList<>();
        for (int i = 0; i < count; i++) {
            Path source = sources.get(i % sources.size());
            Mutation m = Mutation.values()[random.nextInt(Mutation.values().length)];
            String text = Files.readString(source);
            byte[] bytes = mutate(m, text, random, types);
            out.add(new Mutant(i, repo.relativize(source).toString(), m, bytes, source.toString().endsWith(".experiment")));
        }
        return out;
    }

    static byte[] mutate(Mutation m, String text, Random r, Map<String, ElementDescriptorDTO> types) {
        List<String> lines = new ArrayList<>(Arrays.asList(text.split("\n", -1)));
        int n = lines.size();
        switch (m) {
            case DELETE_LINE -> lines.remove(r.nextInt(n));
            case DUPLICATE_LINE -> {
                int i = r.nextInt(n);
                lines.add(i, lines.get(i));
            }
            case SWAP_LINES -> {
                int i = r.nextInt(n);
                int j = r.nextInt(n);
                String t = lines.get(i);
                lines.set(i, lines.get(j));
                lines.set(j, t);
            }
            case FLIP_CHARACTER -> {
                int at = r.nextInt(Math.max(1, text.length()));
                String with = TOKENS[r.nextInt(TOKENS.length)];
                return (text.substring(0, at) + with + text.substring(Math.min(text.length(), at + 1)))
                        .getBytes(StandardCharsets.UTF_8);
            }
            case TRUNCATE -> {
                return text.substring(0, r.nextInt(Math.max(1, text.length()))).getBytes(StandardCharsets.UTF_8);
            }
            case EXTREME_NUMBER -> {
                return replaceOne(NUMBER, text, r, NUMBERS[r.nextInt(NUMBERS.length)]).getBytes(StandardCharsets.UTF_8);
            }
            case EXTREME_UNIT -> {
                return replaceOne(UNIT, text, r, UNITS[r.nextInt(UNITS.length)]).getBytes(StandardCharsets.UTF_8);
            }
            case UNICODE -> {
                int at = r.nextInt(Math.max(1, text.length()));
                return (text.substring(0, at) + UNICODE[r.nextInt(UNICODE.length)] + text.substring(at))
                        .getBytes(StandardCharsets.UTF_8);
            }
            case BINARY -> {
                byte[] b = text.getBytes(StandardCharsets.UTF_8);
                if (r.nextInt(4) == 0) {
                    byte[] noise = new byte[1 + r.nextInt(4096)];
                    r.nextBytes(noise);
                    return noise;
                }
                for (int k = 0; k < 1 + r.nextInt(8); k++) {
                    b[r.nextInt(b.length)] = (byte) (0x80 + r.nextInt(0x80)); // bytes that are not UTF-8 on their own
                }
                return b;
            }
            case MANY_ELEMENTS -> {
                int count = 500 + r.nextInt(6000);
                StringBuilder sb = new StringBuilder(text).append('\n');
                String type = r.nextBoolean() ? "demux" : "sink";
                for (int k = 0; k < count; k++) {
                    sb.append("element fz").append(k).append(" : ").append(type).append('\n');
                }
                if (type.equals("demux")) { // a chain of them
                    for (int k = 0; k + 1 < count; k++) {
                        sb.append("fz").append(k).append(".other -> fz").append(k + 1).append('\n');
                    }
                }
                return sb.toString().getBytes(StandardCharsets.UTF_8);
            }
            case CYCLE, SELF_LOOP, DANGLING_PORT, DUPLICATE_NAME, EXTREME_PROPERTY -> {
                List<String[]> elements = new ArrayList<>();
                Matcher e = ELEMENT.matcher(text);
                while (e.find()) {
                    elements.add(new String[] {e.group(1), e.group(2), String.valueOf(e.start())});
                }
                if (elements.isEmpty()) {
                    lines.add(r.nextInt(n), "a -> a");
                    break;
                }
                String[] a = elements.get(r.nextInt(elements.size()));
                String[] b = elements.get(r.nextInt(elements.size()));
                if (m == Mutation.EXTREME_PROPERTY && types.get(a[1]) != null && !types.get(a[1]).properties.isEmpty()) {
                    // a property of the element's type at an edge of what it allows, put first in its block (or a block)
                    List<PropertyDescriptorDTO> props = types.get(a[1]).properties;
                    PropertyDescriptorDTO prop = props.get(r.nextInt(props.size()));
                    String value = extreme(prop, r);
                    int at = Integer.parseInt(a[2]);
                    int eol = text.indexOf('\n', at);
                    String head = text.substring(at, eol < 0 ? text.length() : eol);
                    String set = head.contains("{") ? head.replaceFirst("\\{", "{ " + prop.name + " = " + value + ";")
                            : head + " { " + prop.name + " = " + value + " }";
                    return (text.substring(0, at) + set + (eol < 0 ? "" : text.substring(eol))).getBytes(StandardCharsets.UTF_8);
                }
                String line = switch (m) {
                    case CYCLE -> port(b, Direction.OUT, types, r) + " -> " + port(a, Direction.IN, types, r);
                    case SELF_LOOP -> port(a, Direction.OUT, types, r) + " -> " + port(a, Direction.IN, types, r);
                    case DANGLING_PORT -> a[0] + ".nope" + r.nextInt(9) + " -> " + b[0];
                    default -> "element " + a[0] + " : " + b[1];
                };
                lines.add(m == Mutation.DUPLICATE_NAME ? r.nextInt(n) : n, line);
            }
            default -> throw new IllegalStateException(m.toString());
        }
        return String.join("\n", lines).getBytes(StandardCharsets.UTF_8);
    }

    /** @return {@code element.port} with a port of its type in that direction, or the element alone */
    private static String port(String[] element, Direction dir, Map<String, ElementDescriptorDTO> types, Random r) {
        ElementDescriptorDTO d = types.get(element[1]);
        List<PortDescriptorDTO> ports = d == null ? List.of() : d.ports.stream().filter(p -> p.direction == dir).toList();
        return ports.isEmpty() ? element[0] : element[0] + "." + ports.get(r.nextInt(ports.size())).name;
    }

    /** @return a value at an edge of what the property allows, or just past it */
    private static String extreme(PropertyDescriptorDTO p, Random r) {
        List<String> edges = new ArrayList<>();
        if (p.min != null) {
            edges.add(p.min);
        }
        if (p.max != null) {
            edges.add(p.max);
        }
        switch (p.kind) {
            case INTEGER -> edges.addAll(List.of("1", "0", "-1", "2147483647", "9223372036854775807"));
            case DURATION -> edges.addAll(List.of("0s", "1ps", "3600s", "1000000s"));
            case BOOLEAN -> edges.addAll(List.of("true", "false", "maybe"));
            case CHOICE -> edges.addAll(p.options == null ? List.of("x") : p.options);
            default -> edges.addAll(List.of("0", "1", "1e300", "\"\""));
        }
        return edges.get(r.nextInt(edges.size()));
    }

    private static String replaceOne(Pattern p, String text, Random r, String with) {
        Matcher m = p.matcher(text);
        List<int[]> spans = new ArrayList<>();
        while (m.find()) {
            spans.add(new int[] {m.start(), m.end()});
        }
        if (spans.isEmpty()) {
            return text + with;
        }
        int[] s = spans.get(r.nextInt(spans.size()));
        return text.substring(0, s[0]) + with + text.substring(s[1]);
    }

    /**
     * Runs every mutant and judges it.
     *
     * @param log where each finding goes as it is found; {@code null} for none
     */
    Report run(List<Mutant> mutants, PrintStream log) throws IOException {
        Runner runner = new Runner(simulator, TestExperiments.of(simulator), io.ringlab.results.TestResults.of(simulator),
                PluginLoader.NONE);
        // the experiments name their pipelines relative to themselves: the originals go where they look
        Path pipelines = Files.createDirectories(work.resolve("pipelines"));
        Files.createDirectories(work.resolve("experiments"));
        try (Stream<Path> s = Files.list(repo.resolve("pipelines"))) {
            for (Path p : s.toList()) {
                Files.copy(p, pipelines.resolve(p.getFileName()), java.nio.file.StandardCopyOption.REPLACE_EXISTING);
            }
        }
        Map<Integer, Integer> codes = new TreeMap<>();
        List<Finding> findings = new ArrayList<>();
        PrintStream jvmErr = System.err;
        ByteArrayOutputStream stray = new ByteArrayOutputStream();
        System.setErr(new PrintStream(stray, true, StandardCharsets.UTF_8)); // an engine thread's uncaught trace lands here
        ExecutorService pool = Executors.newCachedThreadPool(r -> {
            Thread t = new Thread(r, "ringlab-fuzz");
            t.setDaemon(true); // a hung mutant is abandoned, not waited for
            return t;
        });
        try {
            for (Mutant m : mutants) {
                stray.reset();
                List<Finding> found = judge(m, runner, pool, codes, stray);
                findings.addAll(found);
                if (log != null) {
                    found.forEach(log::println);
                }
            }
        } finally {
            pool.shutdownNow();
            System.setErr(jvmErr);
        }
        return new Report(mutants.size(), codes, findings);
    }

    private List<Finding> judge(Mutant m, Runner runner, ExecutorService pool, Map<Integer, Integer> codes,
            ByteArrayOutputStream stray) throws IOException {
        String name = "m" + m.index() + (m.experiment() ? ".experiment" : ".pipeline");
        Path file = work.resolve(m.experiment() ? "experiments" : "mutants").resolve(name);
        Files.createDirectories(file.getParent());
        Files.write(file, m.bytes());
        Path json = work.resolve("out").resolve(name + ".json");
        Files.createDirectories(json.getParent());
        Files.deleteIfExists(json);
        String[] args = m.experiment()
                ? new String[] {"ab", file.toString(), "--seeds", "1", "--duration", DURATION, "--warmup", "1ms", "--json",
                    json.toString(), "--db", work.resolve("out").resolve(name + ".duckdb").toString()}
                : new String[] {"run", file.toString(), "--duration", DURATION, "--json", json.toString()};
        ByteArrayOutputStream outBuf = new ByteArrayOutputStream();
        ByteArrayOutputStream errBuf = new ByteArrayOutputStream();
        Future<Integer> f = pool.submit(() -> Commands.execute(runner, new PrintStream(outBuf, true, StandardCharsets.UTF_8),
                new PrintStream(errBuf, true, StandardCharsets.UTF_8), repo, args));
        List<Finding> out = new ArrayList<>();
        int code;
        try {
            code = f.get(BOUND_SECONDS, TimeUnit.SECONDS);
        } catch (TimeoutException e) {
            f.cancel(true);
            out.add(new Finding(m, "hang", "no answer within " + BOUND_SECONDS + " s"));
            return out;
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
            throw new IOException(e);
        } catch (ExecutionException e) {
            out.add(new Finding(m, "exception", String.valueOf(e.getCause())));
            return out;
        }
        codes.merge(code, 1, Integer::sum);
        String text = outBuf.toString(StandardCharsets.UTF_8) + errBuf.toString(StandardCharsets.UTF_8);
        String err = errBuf.toString(StandardCharsets.UTF_8);
        String strayText = stray.toString(StandardCharsets.UTF_8);
        if (hasStackTrace(text) || hasStackTrace(strayText)) {
            out.add(new Finding(m, "stack trace", firstLines(hasStackTrace(text) ? text : strayText)));
        }
        if (text.contains("(an endless loop?)")) {
            out.add(new Finding(m, "hang", "the watchdog ended a run: " + firstLines(text)));
        }
        if (code < 0 || code > 3) {
            out.add(new Finding(m, "exit code", code + ": " + firstLines(text)));
        }
        if (code == 0) {
            try {
                JsonObject o = JsonParser.parseString(Files.readString(json)).getAsJsonObject();
                if (!o.has(m.experiment() ? "runs" : "state")) {
                    out.add(new Finding(m, "invalid JSON", "no " + (m.experiment() ? "runs" : "state") + " in " + json));
                }
            } catch (IOException | RuntimeException e) {
                out.add(new Finding(m, "invalid JSON", e.toString()));
            }
        }
        if (code == 2) {
            String problem = unpositioned(err, file.toString());
            if (problem != null) {
                out.add(new Finding(m, "exit 2 without a position", problem));
            }
        }
        return out;
    }

    /** A message that starts at a position: {@code FILE:LINE:COLUMN: } or {@code FILE:LINE: }. */
    private static final Pattern POSITIONED = Pattern.compile("^\\S+?:\\d+(:\\d+)?: ");

    /** @return a line of {@code err} that names {@code path} without a line and column, and is no whole-file problem */
    static String unpositioned(String err, String path) {
        for (String line : err.split("\n")) {
            int at = line.indexOf(path);
            if (at < 0 || POSITIONED.matcher(line).find()) {
                continue; // not about the mutant, or positioned (perhaps in a file the mutant names)
            }
            String after = line.substring(at + path.length());
            if (after.matches("^:\\d+:\\d+.*") || after.matches("^:\\d+:.*")) {
                continue;
            }
            if (WHOLE_FILE.stream().anyMatch(p -> p.matcher(after).find())) {
                continue;
            }
            return line;
        }
        return null;
    }

    /** A Java stack trace's frames ({@code \tat pkg.Class.method(File.java:12)}) or a thread's uncaught-error line. */
    private static final Pattern TRACE = Pattern.compile("(?m)^\\s+at [\\w$.<>/]+\\(|Exception in thread \"");

    static boolean hasStackTrace(String text) {
        return TRACE.matcher(text).find();
    }

    private static String firstLines(String text) {
        String[] l = text.strip().split("\n");
        return String.join(" | ", Arrays.copyOf(l, Math.min(4, l.length))).replace('\t', ' ');
    }

    /** @return findings counted by kind */
    static Map<String, Integer> byKind(List<Finding> findings) {
        Map<String, Integer> out = new LinkedHashMap<>();
        findings.forEach(f -> out.merge(f.kind(), 1, Integer::sum));
        return out;
    }
}
