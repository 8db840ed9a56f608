package io.ringlab.golden;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;
import static org.junit.jupiter.api.Assertions.fail;

import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.StandardCopyOption;
import java.util.ArrayList;
import java.util.List;
import java.util.Set;
import java.util.TreeSet;
import java.util.stream.Stream;

import org.junit.jupiter.api.DynamicTest;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.TestFactory;

import com.google.gson.JsonArray;
import com.google.gson.JsonElement;
import com.google.gson.JsonObject;
import com.google.gson.JsonParser;
import com.google.gson.JsonPrimitive;

import io.ringlab.conformance.ModelTests;
import io.ringlab.experiment.TestExperiments;
import io.ringlab.experiment.api.ExperimentService;
import io.ringlab.experiment.api.dto.ExperimentDTO;
import io.ringlab.experiment.api.dto.ExperimentResultDTO;
import io.ringlab.pipeline.format.ResultJson;
import io.ringlab.sim.api.dto.RunResultDTO;

/**
 * Issue 21's rule, the guard of every optimisation: every sample pipeline ({@code pipelines/*.pipeline}) and every
 * sample experiment ({@code experiments/*.experiment}), run briefly, gives the JSON of its golden file
 * ({@code workspace-tests/engine/golden/}), to the bit, wall-clock fields aside. A pipeline runs its file's own seed for
 * {@value #PIPELINE_MAX} at most (its file's duration if shorter); an experiment runs {@value #EXPERIMENT_DURATION}
 * (warm-up {@value #EXPERIMENT_WARMUP} if it has one, fork and swaps at {@value #EXPERIMENT_FORK} if it forks) with its
 * first {@value #EXPERIMENT_SEEDS} seeds at every sweep point, on one thread.
 * <p>
 * Left out of the comparison, because they measure the host or name the build, not the simulation: every field named
 * {@code wall...} or {@code ...Wall...} wherever it is ({@code wallSeconds}, {@code wallMeasurements}, a swap's
 * {@code pauseWallMillis}: RunResultDTO's convention), {@code ringlabVersion}, a run's {@code bundles} (each bundle's content
 * hash), an experiment's {@code threads}, and each experiment run's {@code key} (computed from the bundles' hashes) and
 * {@code worker}. The repository's absolute path is written {@code $RINGLAB}.
 * <p>
 * A golden file changes only in a commit that says which field moved and why (the failure lists the JSON paths that
 * differ); an optimisation that removes events may change {@code events} and nothing else. Regenerate every golden file
 * (after such a change, or when a sample is added) with:
 *
 * <pre>
 * ./mvnw -o test -pl workspace-tests/engine -Dtest=GoldenResultsTest -Dringlab.golden=update
 * </pre>
 */
class GoldenResultsTest {
    /** The system property that rewrites the golden files instead of comparing: {@code -Dringlab.golden=update}. */
    static final String UPDATE_PROPERTY = "ringlab.golden";
    private static final String PIPELINE_MAX = "200ms";
    private static final long PIPELINE_MAX_PICOS = 200_000_000_000L;
    private static final String EXPERIMENT_DURATION = "100ms";
    private static final String EXPERIMENT_WARMUP = "10ms";
    private static final String EXPERIMENT_FORK = "50ms";
    private static final int EXPERIMENT_SEEDS = 2;
    /** Fields of a run result or an experiment result's top level that name the build or the host. */
    private static final Set<String> BUILD = Set.of("ringlabVersion", "bundles", "threads");
    /** Fields of an experiment's run that name the build or the host. */
    private static final Set<String> RUN_BUILD = Set.of("key", "worker");
    private static final int DIFFERENCES_SHOWN = 20;

    private static Path root() {
        Path dir = Path.of("").toAbsolutePath();
        while (dir != null && !Files.isDirectory(dir.resolve("pipelines"))) {
            dir = dir.getParent();
        }
        assertTrue(dir != null, "no pipelines folder in " + Path.of("").toAbsolutePath() + " or above");
        return dir;
    }

    private static Path goldenDir() {
        return root().resolve("workspace-tests/engine/golden");
    }

    private static List<Path> samples(String folder, String extension) throws IOException {
        try (Stream<Path> s = Files.list(root().resolve(folder))) {
            return s.filter(p -> p.getFileName().toString().endsWith(extension)).sorted().toList();
        }
    }

    @TestFactory
    Stream<DynamicTest> everySamplePipelineGivesItsGoldenResult() throws IOException {
        return samples("pipelines", ".pipeline").stream().map(file -> DynamicTest.dynamicTest(file.getFileName().toString(),
                () -> check(file.getFileName() + ".json", runPipeline(file))));
    }

    @TestFactory
    Stream<DynamicTest> everySampleExperimentGivesItsGoldenResult() throws IOException {
        return samples("experiments", ".experiment").stream().map(file -> DynamicTest.dynamicTest(file.getFileName().toString(),
                () -> check(file.getFileName() + ".json", runExperiment(file))));
    }

    /** A golden file whose sample is gone would compare nothing: it must go with its sample. */
    @Test
    void everyGoldenFileHasItsSample() throws IOException {
        Set<String> expected = new TreeSet<>();
        for (Path p : samples("pipelines", ".pipeline")) {
            expected.add(p.getFileName() + ".json");
        }
        for (Path p : samples("experiments", ".experiment")) {
            expected.add(p.getFileName() + ".json");
        }
        Set<String> present = new TreeSet<>();
        if (Files.isDirectory(goldenDir())) {
            try (Stream<Path> s = Files.list(goldenDir())) {
                s.forEach(p -> present.add(p.getFileName().toString()));
            }
        }
        present.removeAll(expected);
        assertEquals(Set.of(), present, "golden files in " + goldenDir() + " without a sample: delete them");
    }

    private static String runPipeline(Path file) throws Exception {
        String name = file.getFileName().toString();
        String text = Files.readString(file);
        java.util.regex.Matcher m = java.util.regex.Pattern.compile("(?m)^duration = (\\S+)").matcher(text);
        assertTrue(m.find(), name + ": no duration header");
        long picos = io.ringlab.pipeline.format.Units.parsePicos(m.group(1));
        String duration = picos <= PIPELINE_MAX_PICOS ? m.group(1) : PIPELINE_MAX;
        java.util.regex.Matcher seed = java.util.regex.Pattern.compile("(?m)^seed = (\\d+)").matcher(text);
        RunResultDTO r = ModelTests.run(ModelTests.sample(name, duration), seed.find() ? Long.parseLong(seed.group(1)) : 1);
        assertEquals("FINISHED", r.state, name + ": " + r.error);
        return canonical(ResultJson.text(r));
    }

    private static String runExperiment(Path file) throws Exception {
        String text = Files.readString(file)
                .replaceFirst("(?m)^duration = \\S+", "duration = " + EXPERIMENT_DURATION)
                .replaceFirst("(?m)^warmup = \\S+", "warmup = " + EXPERIMENT_WARMUP)
                .replaceFirst("(?m)^fork = \\S+", "fork = " + EXPERIMENT_FORK)
                .replaceAll("swap = \"[0-9.]+[a-z]*:", "swap = \"" + EXPERIMENT_FORK + ":");
        ExperimentService service = TestExperiments.of(ModelTests.simulator());
        ExperimentDTO e = service.read(file.getFileName().toString(), text, file.getParent());
        if (e.seeds.size() > EXPERIMENT_SEEDS) {
            e.seeds = new ArrayList<>(e.seeds.subList(0, EXPERIMENT_SEEDS));
        }
        ExperimentResultDTO r = service.run(e, 1, null);
        assertTrue(!r.cancelled && r.runs.stream().allMatch(s -> "FINISHED".equals(s.state)),
                file.getFileName() + ": every run finishes; " + r.problems);
        return canonical(ResultJson.text(r));
    }

    /** @return the JSON without its wall-clock and build fields, the repository's path as $RINGLAB, pretty-printed */
    private static String canonical(String json) {
        JsonObject o = JsonParser.parseString(json).getAsJsonObject();
        BUILD.forEach(o::remove);
        if (o.has("runs")) {
            for (JsonElement run : o.getAsJsonArray("runs")) {
                RUN_BUILD.forEach(run.getAsJsonObject()::remove);
            }
        }
        StringBuilder out = new StringBuilder();
        write(strip(o, root().toString()), "", out);
        return out.append('\n').toString();
    }

    /**
     * Writes JSON as the result files do (ResultJson's numbers and strings), one member per line, but an array of plain
     * values (a series row, a histogram) on one line: a diff then reads row by row, and the files stay small.
     */
    private static void write(JsonElement e, String indent, StringBuilder out) {
        if (e.isJsonObject()) {
            if (e.getAsJsonObject().isEmpty()) {
                out.append("{}");
                return;
            }
            out.append("{\n");
            String inner = indent + "  ";
            boolean first = true;
            for (String k : e.getAsJsonObject().keySet()) {
                out.append(first ? "" : ",\n").append(inner).append(new JsonPrimitive(k)).append(": ");
                write(e.getAsJsonObject().get(k), inner, out);
                first = false;
            }
            out.append('\n').append(indent).append('}');
        } else if (e.isJsonArray()) {
            JsonArray a = e.getAsJsonArray();
            boolean plain = true;
            for (JsonElement x : a) {
                plain &= x.isJsonPrimitive() || x.isJsonNull();
            }
            if (plain) {
                out.append(a);
                return;
            }
            out.append("[\n");
            String inner = indent + "  ";
            for (int i = 0; i < a.size(); i++) {
                out.append(i == 0 ? "" : ",\n").append(inner);
                write(a.get(i), inner, out);
            }
            out.append('\n').append(indent).append(']');
        } else {
            out.append(e);
        }
    }

    /**
     * @return whether a field measures the host: named {@code wall...} or {@code ...Wall...}, as RunResultDTO names them
     *         ({@code wallSeconds}, {@code wallMeasurements}, a swap's {@code pauseWallMillis})
     */
    private static boolean wallClock(String field) {
        return field.startsWith("wall") || field.contains("Wall");
    }

    private static JsonElement strip(JsonElement e, String root) {
        if (e.isJsonObject()) {
            JsonObject out = new JsonObject();
            for (String k : e.getAsJsonObject().keySet()) {
                if (!wallClock(k)) {
                    out.add(k, strip(e.getAsJsonObject().get(k), root));
                }
            }
            return out;
        }
        if (e.isJsonArray()) {
            JsonArray out = new JsonArray();
            e.getAsJsonArray().forEach(x -> out.add(strip(x, root)));
            return out;
        }
        if (e.isJsonPrimitive() && e.getAsJsonPrimitive().isString() && e.getAsString().contains(root)) {
            return new JsonPrimitive(e.getAsString().replace(root, "$RINGLAB"));
        }
        return e;
    }

    private static void check(String goldenName, String actual) throws IOException {
        Path golden = goldenDir().resolve(goldenName);
        if ("update".equals(System.getProperty(UPDATE_PROPERTY))) {
            Files.createDirectories(golden.getParent());
            Path tmp = golden.resolveSibling(goldenName + ".tmp");
            Files.writeString(tmp, actual, StandardCharsets.UTF_8);
            Files.move(tmp, golden, StandardCopyOption.REPLACE_EXISTING, StandardCopyOption.ATOMIC_MOVE);
            return;
        }
        if (!Files.isRegularFile(golden)) {
            fail(golden + " does not exist: a new sample needs its golden file; write it with"
                    + " ./mvnw -o test -pl workspace-tests/engine -Dtest=GoldenResultsTest -D" + UPDATE_PROPERTY + "=update");
        }
        String expected = Files.readString(golden, StandardCharsets.UTF_8);
        if (!expected.equals(actual)) {
            List<String> differences = new ArrayList<>();
            diff("", JsonParser.parseString(expected), JsonParser.parseString(actual), differences);
            fail(goldenName + ": the result differs from its golden file at " + differences.size() + " JSON path(s)"
                    + (differences.size() > DIFFERENCES_SHOWN ? " (the first " + DIFFERENCES_SHOWN + ")" : "") + ":\n  "
                    + String.join("\n  ", differences.subList(0, Math.min(DIFFERENCES_SHOWN, differences.size())))
                    + "\nIf the change is meant, say which field moved and why in the commit, and regenerate with"
                    + " ./mvnw -o test -pl workspace-tests/engine -Dtest=GoldenResultsTest -D" + UPDATE_PROPERTY + "=update");
        }
    }

    /** The failure names what moved: each path that differs, with both values, and what came or went. */
    @Test
    void aDifferenceIsNamedByItsPath() {
        List<String> d = new ArrayList<>();
        diff("", JsonParser.parseString("{\"events\": 10, \"elements\": {\"q\": {\"drops\": 1.0}}, \"rows\": [[1, 2]]}"),
                JsonParser.parseString("{\"events\": 9, \"elements\": {\"q\": {\"drops\": 1.0, \"backlog\": 3}}, \"rows\": [[1, 4]]}"), d);
        assertEquals(List.of(".elements.q.backlog: new, 3", ".events: 10 -> 9", ".rows[0][1]: 2 -> 4"), d);
        List<String> none = new ArrayList<>();
        diff("", JsonParser.parseString("{\"a\": [1.5]}"), JsonParser.parseString("{\"a\": [1.5]}"), none);
        assertEquals(List.of(), none);
    }

    /** Collects the paths where two JSON trees differ, with both values (or what is missing). */
    static void diff(String path, JsonElement a, JsonElement b, List<String> out) {
        if (a.isJsonObject() && b.isJsonObject()) {
            Set<String> keys = new TreeSet<>(a.getAsJsonObject().keySet());
            keys.addAll(b.getAsJsonObject().keySet());
            for (String k : keys) {
                JsonElement x = a.getAsJsonObject().get(k), y = b.getAsJsonObject().get(k);
                String p = path + "." + k;
                if (x == null) {
                    out.add(p + ": new, " + shortly(y));
                } else if (y == null) {
                    out.add(p + ": gone, was " + shortly(x));
                } else {
                    diff(p, x, y, out);
                }
            }
        } else if (a.isJsonArray() && b.isJsonArray()) {
            JsonArray x = a.getAsJsonArray(), y = b.getAsJsonArray();
            if (x.size() != y.size()) {
                out.add(path + ": " + x.size() + " elements, now " + y.size());
            }
            for (int i = 0; i < Math.min(x.size(), y.size()); i++) {
                diff(path + "[" + i + "]", x.get(i), y.get(i), out);
            }
        } else if (!a.equals(b)) {
            out.add(path + ": " + shortly(a) + " -> " + shortly(b));
        }
    }

    private static String shortly(JsonElement e) {
        String s = e.toString();
        return s.length() > 80 ? s.substring(0, 77) + "..." : s;
    }
}
