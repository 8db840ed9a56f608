package io.ringlab.cli;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertNull;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;
import java.util.regex.Pattern;

import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

import com.google.gson.JsonElement;
import com.google.gson.JsonObject;
import com.google.gson.JsonParser;

import io.ringlab.sim.api.PipelineException;
import io.ringlab.sim.api.dto.ProblemDTO;
import io.ringlab.sim.api.dto.RunOptionsDTO;
import io.ringlab.sim.api.dto.RunResultDTO;

/** {@code ringlab run}: {@link Commands.Run} with {@link Runner#run}, {@link Summary} and {@link Json}. */
class RunCommandTest {
    @TempDir
    Path dir;

    private FakeSimulator sim;
    private Cli cli;
    private String tiny;

    @BeforeEach
    void setUp() throws IOException {
        sim = new FakeSimulator();
        cli = new Cli(sim, dir);
        tiny = Cli.write(dir, "tiny.pipeline", Cli.TINY);
    }

    // ---- success ------------------------------------------------------------------------------------------------

    @Test
    void runExitsZeroAndPrintsSummaryWithNameHeadlineAndPacketsOk() {
        int code = cli.execute("run", tiny);

        assertEquals(Runner.OK, code, cli.err());
        String out = cli.out();
        assertTrue(out.contains("pipeline tiny (tiny.pipeline)"), out);
        assertTrue(out.contains("FINISHED"), out);
        assertTrue(out.contains("headline sink.rxMpps = 148.8 Mpps"), out);
        assertTrue(Pattern.compile("(?m)^packets: .*: ok$").matcher(out).find(), out);
        assertTrue(Pattern.compile("(?m)^buffers: .*: ok$").matcher(out).find(), out);
        assertFalse(out.contains("BROKEN"), out);
        assertEquals("", cli.err());
    }

    @Test
    void runHandsTheParsedPipelineFileToTheSimulatorOnce() {
        cli.execute("run", tiny);

        assertEquals(1, sim.prepareCalls());
        assertEquals("tiny", sim.lastPipeline().name);
        assertEquals(tiny, sim.lastPipeline().file);
        assertEquals("a source straight into a sink", sim.lastPipeline().description);
        assertEquals(List.of("src", "sink"), sim.lastPipeline().elements.stream().map(e -> e.name).toList());
        assertEquals("sink.rxMpps", sim.lastPipeline().headline.text);
        assertEquals(1, sim.lastPipeline().connections.size());
    }

    @Test
    void runSummaryListsElementMetricsAndDropReasons() {
        cli.execute("run", tiny);

        String out = cli.out();
        assertTrue(out.contains("rxPackets=990"), out);
        assertTrue(out.contains("drops=10"), out);
        assertTrue(out.contains("{qdisc-full=10}"), out);
    }

    @Test
    void runSummaryShowsNaForANanHeadline() {
        RunResultDTO r = Results.ok("tiny");
        r.headline.value = Double.NaN;
        sim.result(r);

        assertEquals(Runner.OK, cli.execute("run", tiny));
        assertTrue(cli.out().contains("headline sink.rxMpps = n/a Mpps"), cli.out());
    }

    @Test
    void runBuiltinLineRateReadsThePipelineShippedInTheBundle() {
        assertEquals(Runner.OK, cli.execute("run", "builtin:line-rate"), cli.err());

        assertEquals("line-rate-64B", sim.lastPipeline().name);
        assertEquals("builtin:line-rate", sim.lastPipeline().file);
        assertEquals(List.of("src", "q", "eth0", "wire", "sink"),
                sim.lastPipeline().elements.stream().map(e -> e.name).toList());
    }

    // ---- JSON ---------------------------------------------------------------------------------------------------

    @Test
    void jsonDashWritesOnlyTheJsonToStdoutAndTheSummaryToStderr() {
        int code = cli.execute("run", tiny, "--json", "-");

        assertEquals(Runner.OK, code, cli.err());
        JsonObject o = JsonParser.parseString(cli.out()).getAsJsonObject();
        assertEquals(1, o.get("schemaVersion").getAsInt());
        assertEquals("0.1.0.test", o.get("ringlabVersion").getAsString());
        assertEquals("0.1.0.test", o.getAsJsonObject("bundles").get("io.ringlab.engine").getAsString());
        assertEquals("tiny", o.get("pipeline").getAsString());
        assertEquals(42, o.get("seed").getAsLong());
        assertEquals(0.1, o.get("simulatedSeconds").getAsDouble());
        assertEquals(0.25, o.get("wallSeconds").getAsDouble());
        assertEquals(12_345, o.get("events").getAsLong());
        assertEquals(1_000, o.get("packets").getAsLong());
        assertEquals(148.8, o.getAsJsonObject("elements").getAsJsonObject("sink").get("rxMpps").getAsDouble());
        JsonObject series = o.getAsJsonObject("series");
        assertEquals("q.backlog", series.getAsJsonArray("columns").get(1).getAsString());
        assertEquals(12.0, series.getAsJsonArray("rows").get(1).getAsJsonArray().get(1).getAsDouble());
        JsonObject inv = o.getAsJsonObject("invariants");
        assertTrue(inv.get("packetConservation").getAsBoolean());
        assertTrue(inv.get("bufferConservation").getAsBoolean());
        JsonObject h = o.getAsJsonObject("headline");
        assertEquals("sink.rxMpps", h.get("metric").getAsString());
        assertEquals(148.8, h.get("value").getAsDouble());
        assertEquals("Mpps", h.get("unit").getAsString());

        assertFalse(cli.out().contains("headline sink.rxMpps ="), "summary leaked to stdout");
        assertTrue(cli.err().contains("pipeline tiny (tiny.pipeline)"), cli.err());
        assertTrue(cli.err().contains("headline sink.rxMpps = 148.8 Mpps"), cli.err());
    }

    @Test
    void jsonRecordsEveryOverrideOfTheCommandLine() {
        int code = cli.execute("run", tiny, "--json", "-", "--set", "eth0.bql=false", "--duration", "1s", "--seed", "7",
                "--warmup", "100ms", "--swap", "500ms:eth0", "--series-interval", "10ms");

        assertEquals(Runner.OK, code, cli.err());
        JsonObject o = JsonParser.parseString(cli.out()).getAsJsonObject().getAsJsonObject("overrides");
        assertEquals("eth0.bql=false", o.getAsJsonArray("set").get(0).getAsString());
        assertEquals("500ms:eth0", o.getAsJsonArray("swap").get(0).getAsString());
        assertEquals("1s", o.get("duration").getAsString());
        assertEquals("100ms", o.get("warmup").getAsString());
        assertEquals(7, o.get("seed").getAsLong());
        assertEquals("10ms", o.get("seriesInterval").getAsString());
        assertTrue(cli.err().contains("overrides: --set eth0.bql=false --swap 500ms:eth0 --duration 1s --warmup 100ms"
                + " --seed 7 --series-interval 10ms"), cli.err());
    }

    @Test
    void jsonCarriesTheSampleWarnings() {
        RunResultDTO r = Results.ok("tiny");
        io.ringlab.sim.api.dto.SampleWarningDTO w = new io.ringlab.sim.api.dto.SampleWarningDTO();
        w.metric = "sink.rxMpps";
        w.samples = 3;
        w.needed = 10;
        w.advice = "run at least 1s (3 samples in 0.1s measured)";
        r.sampleWarnings.add(w);
        sim.result(r);

        assertEquals(Runner.OK, cli.execute("run", tiny, "--json", "-"), () -> "a sample warning never fails a run: " + cli.err());
        JsonObject j = JsonParser.parseString(cli.out()).getAsJsonObject().getAsJsonArray("sampleWarnings").get(0)
                .getAsJsonObject();
        assertEquals("sink.rxMpps", j.get("metric").getAsString());
        assertEquals(3, j.get("samples").getAsLong());
        assertEquals(10, j.get("needed").getAsLong());
        assertEquals(w.advice, j.get("advice").getAsString());
        assertTrue(JsonParser.parseString(cli.out()).getAsJsonObject().getAsJsonObject("warnings").isEmpty(),
                "the old warnings map keeps its type and stays empty");
    }

    @Test
    void jsonFileIsWrittenAsValidJsonAndTheSummaryStaysOnStdout() throws IOException {
        Path json = dir.resolve("out.json");

        int code = cli.execute("run", tiny, "--json", json.toString());

        assertEquals(Runner.OK, code, cli.err());
        assertTrue(Files.isRegularFile(json));
        JsonObject o = JsonParser.parseString(Files.readString(json, StandardCharsets.UTF_8)).getAsJsonObject();
        assertEquals("tiny", o.get("pipeline").getAsString());
        assertEquals("sink.rxMpps", o.getAsJsonObject("headline").get("metric").getAsString());
        assertTrue(cli.out().contains("headline sink.rxMpps = 148.8 Mpps"), cli.out());
        assertTrue(cli.out().contains("result written to " + json), cli.out());
    }

    @Test
    void jsonWritesANanHeadlineValueAsNull() {
        RunResultDTO r = Results.ok("tiny");
        r.headline.value = Double.NaN;
        sim.result(r);

        assertEquals(Runner.OK, cli.execute("run", tiny, "--json", "-"), cli.err());

        JsonObject h = JsonParser.parseString(cli.out()).getAsJsonObject().getAsJsonObject("headline");
        assertTrue(h.has("value"), "headline.value is missing instead of null: " + h);
        assertTrue(h.get("value").isJsonNull(), h.toString());
        assertEquals("Mpps", h.get("unit").getAsString());
    }

    @Test
    void jsonWritesANanElementMetricAsNull() {
        RunResultDTO r = Results.ok("tiny");
        r.elements.get("sink").put("latencyUs", Double.NaN);
        sim.result(r);

        assertEquals(Runner.OK, cli.execute("run", tiny, "--json", "-"), cli.err());

        JsonObject sink = JsonParser.parseString(cli.out()).getAsJsonObject().getAsJsonObject("elements")
                .getAsJsonObject("sink");
        assertTrue(sink.has("latencyUs"), "elements.sink.latencyUs is missing instead of null: " + sink);
        assertTrue(sink.get("latencyUs").isJsonNull(), sink.toString());
        assertEquals(148.8, sink.get("rxMpps").getAsDouble());
    }

    @Test
    void jsonWritesNanInSeriesRowsAsNullKeepingTheRowLength() {
        RunResultDTO r = Results.ok("tiny");
        r.series.rows.add(new double[] {0.1, Double.NaN});
        sim.result(r);

        assertEquals(Runner.OK, cli.execute("run", tiny, "--json", "-"), cli.err());

        var row = JsonParser.parseString(cli.out()).getAsJsonObject().getAsJsonObject("series").getAsJsonArray("rows")
                .get(2).getAsJsonArray();
        assertEquals(2, row.size());
        assertEquals(0.1, row.get(0).getAsDouble());
        assertTrue(row.get(1).isJsonNull(), row.toString());
    }

    @Test
    void jsonIntoAMissingDirectoryIsRefusedBeforeTheRunWithAMessageAndNoStackTrace() {
        Path json = dir.resolve("no-such-dir").resolve("out.json");

        int code = cli.execute("run", tiny, "--json", json.toString());

        assertEquals(Runner.INVALID, code, "invalid input, found before the run (it ran to the end and lost the result)");
        assertEquals("--json " + json + ": the folder " + json.getParent() + " does not exist\n", cli.err());
        assertTrue(sim.pipelines.isEmpty(), "nothing ran");
    }

    // ---- options ------------------------------------------------------------------------------------------------

    @Test
    void durationIsConvertedToPicoseconds() {
        assertEquals(Runner.OK, cli.execute("run", tiny, "--duration", "150ms"), cli.err());

        assertEquals(150_000_000_000L, sim.lastOptions().durationPicos);
    }

    @Test
    void seedReachesTheSimulator() {
        assertEquals(Runner.OK, cli.execute("run", tiny, "--seed", "7"), cli.err());

        assertEquals(Long.valueOf(7), sim.lastOptions().seed);
    }

    @Test
    void seedTakesTheIntegerGrammarOfPipelineFiles() {
        for (String[] c : new String[][] {{"0x10", "16"}, {"10k", "10000"}, {"1_000", "1000"}, {"-3", "-3"}}) {
            assertEquals(Runner.OK, cli.execute("run", tiny, "--seed", c[0]), cli.err());
            assertEquals(Long.valueOf(c[1]), sim.lastOptions().seed, c[0]);
        }
    }

    @Test
    void aSeedOutsideTheIntegerGrammarIsRefusedWithWhatIsAllowed() {
        int code = cli.execute("run", tiny, "--seed", "1.5");

        assertEquals(Runner.INVALID, code);
        assertTrue(cli.err().contains("--seed") && cli.err().contains("'1.5' is not an integer: write decimal digits,"
                + " optionally followed by k, M or G"), cli.err());
        assertFalse(Cli.hasStackTrace(cli.err()), cli.err());
        assertEquals("", cli.out(), "nothing ran");
    }

    @Test
    void anEmptyPipelineFileIsAnErrorNamingTheFileNotARun() throws IOException {
        String empty = Cli.write(dir, "empty.pipeline", "# nothing yet\n");

        int code = cli.execute("run", empty);

        assertEquals(Runner.INVALID, code, cli.out());
        assertTrue(cli.err().startsWith(empty + ": the pipeline declares no element: nothing to run;"), cli.err());
        assertEquals("", cli.out(), "nothing ran");
    }

    @Test
    void aDeviceADirectoryAndANonUtf8FileAreRefusedWithExitTwoNamingThePath() throws IOException {
        assertEquals(Runner.INVALID, cli.execute("run", "/dev/zero"));
        assertTrue(cli.err().contains("/dev/zero: cannot read the pipeline: it is a character device, not a regular"
                + " file"), cli.err());

        assertEquals(Runner.INVALID, cli.execute("run", dir.toString()));
        assertTrue(cli.err().contains(dir + ": cannot read the pipeline: it is a directory"), cli.err());

        Path latin1 = Files.write(dir.resolve("latin1.pipeline"), "element a : sink\n# caf\u00e9\n"
                .getBytes(StandardCharsets.ISO_8859_1));
        assertEquals(Runner.INVALID, cli.execute("run", latin1.toString()));
        assertTrue(cli.err().contains(latin1 + ":2:6: cannot read the pipeline: the file is not UTF-8 text: byte 0xE9"),
                cli.err());
        assertFalse(Cli.hasStackTrace(cli.err()), cli.err());
        assertEquals("", cli.out(), "nothing ran");
    }

    @Test
    void repeatedSetOverridesArriveInOrder() {
        assertEquals(Runner.OK, cli.execute("run", tiny, "--set", "a.b=1", "--set", "c.d=2"), cli.err());

        assertEquals(List.of("a.b=1", "c.d=2"), sim.lastOptions().overrides);
    }

    @Test
    void withoutOptionsThePipelineDefaultsApply() {
        assertEquals(Runner.OK, cli.execute("run", tiny), cli.err());

        RunOptionsDTO o = sim.lastOptions();
        assertEquals(0L, o.durationPicos, "0 takes the pipeline's duration");
        assertNull(o.seed, "null takes the pipeline's seed");
        assertEquals(List.of(), o.overrides);
        assertEquals(0L, o.seriesIntervalPicos);
    }

    @Test
    void optionsMayComeBeforeTheFile() {
        assertEquals(Runner.OK, cli.execute("run", "--seed", "9", "--duration", "2s", tiny), cli.err());

        assertEquals(Long.valueOf(9), sim.lastOptions().seed);
        assertEquals(2_000_000_000_000L, sim.lastOptions().durationPicos);
    }

    @Test
    void progressSaysWhenTheRunStartsAndAsksTheEngineForSnapshots() {
        assertEquals(Runner.OK, cli.execute("run", tiny, "--duration", "2s", "--progress"), cli.err());

        assertTrue(cli.err().startsWith("progress: started tiny, 2s of simulated time\n"), cli.err());
        assertEquals(RunProgress.INTERVAL_MILLIS, sim.lastOptions().snapshotIntervalMillis);
        assertTrue(cli.out().contains("tiny"), "the summary still goes to stdout: " + cli.out());
    }

    @Test
    void withoutProgressAHeadlessRunPublishesNoSnapshots() {
        assertEquals(Runner.OK, cli.execute("run", tiny), cli.err());

        assertEquals(0L, sim.lastOptions().snapshotIntervalMillis);
        assertFalse(cli.err().contains("progress:"), cli.err());
    }

    @Test
    void snapshotsKeepTheLatestSnapshotAsJsonInTheFile() throws IOException {
        Path file = dir.resolve("live.json");

        assertEquals(Runner.OK, cli.execute("run", tiny, "--duration", "2s", "--snapshots", file.toString()), cli.err());

        assertEquals(SnapshotFile.INTERVAL_MILLIS, sim.lastOptions().snapshotIntervalMillis, "the engine publishes as"
                + " often as the file is rewritten");
        assertEquals("", cli.err());
        JsonObject s = JsonParser.parseString(Files.readString(file, StandardCharsets.UTF_8)).getAsJsonObject();
        assertEquals("READY", s.get("state").getAsString(), "the fake run's snapshot, written when the run ended");
        assertEquals(2.0, s.get("durationSeconds").getAsDouble());
        assertFalse(Files.exists(dir.resolve("live.json.partial")), "the partial file was moved over the real one");
    }

    @Test
    void snapshotsIntoAMissingFolderExitTwoBeforeTheRun() {
        String file = dir.resolve("nowhere/live.json").toString();

        assertEquals(Runner.INVALID, cli.execute("run", tiny, "--snapshots", file));

        assertTrue(cli.err().contains("--snapshots " + file + ": the folder " + dir.resolve("nowhere") + " does not exist"),
                cli.err());
        assertTrue(sim.pipelines.isEmpty(), "nothing ran");
    }

    @Test
    void everyOutputPathIsCheckedBeforeTheRunAndNamedWithItsReasonInWords() throws IOException {
        Cli.write(dir, "plain.txt", "x");
        String missing = dir.resolve("nonexistent/dir/o.json").toString();
        String underFile = dir.resolve("plain.txt/o.png").toString();

        assertEquals(Runner.INVALID, cli.execute("run", tiny, "--json", missing, "--plot", underFile, "--snapshots",
                dir.toString()));

        String err = cli.err();
        assertTrue(err.contains("--json " + missing + ": the folder " + dir.resolve("nonexistent/dir")
                + " does not exist"), err);
        assertTrue(err.contains("--plot " + underFile + ": " + dir.resolve("plain.txt") + " is not a folder"), err);
        assertTrue(err.contains("--snapshots " + dir + ": is a folder: give a file name"), err);
        assertFalse(err.contains("Exception"), "no exception's class name: " + err);
        assertTrue(sim.pipelines.isEmpty(), "nothing ran");
    }

    @Test
    void anEmptyOutputPathIsRefusedAndLeavesNoPartialFile() throws IOException {
        Path cwd = Path.of("").toAbsolutePath();
        try (var before = Files.list(cwd)) {
            long files = before.count();
            assertEquals(Runner.INVALID, cli.execute("run", tiny, "--json", ""));
            assertTrue(cli.err().contains("--json '': the path is empty: give a file name"), cli.err());
            try (var after = Files.list(cwd)) {
                assertEquals(files, after.count(), "nothing written in the working folder (./.partial was)");
            }
        }
        assertTrue(sim.pipelines.isEmpty(), "nothing ran");
    }

    @Test
    void jsonThroughALinkReplacesTheTargetAndKeepsTheLink() throws IOException {
        Path target = Files.writeString(dir.resolve("target.json"), "old");
        Path link = Files.createSymbolicLink(dir.resolve("result.json"), target.getFileName());

        assertEquals(Runner.OK, cli.execute("run", tiny, "--json", link.toString()), cli.err());

        assertTrue(Files.isSymbolicLink(link), "the link is kept");
        assertEquals("tiny", JsonParser.parseString(Files.readString(target)).getAsJsonObject().get("pipeline")
                .getAsString());
        try (var files = Files.list(dir)) {
            assertEquals(List.of(), files.filter(f -> f.toString().endsWith(".partial")).toList());
        }
    }

    @Test
    void jsonToDevNullLeavesTheDevice() throws IOException {
        Path devNull = Path.of("/dev/null");
        Object inode = Files.getAttribute(devNull, "unix:ino");

        assertEquals(Runner.OK, cli.execute("run", tiny, "--json", "/dev/null"), cli.err());

        assertEquals(0020000, (Integer) Files.getAttribute(devNull, "unix:mode") & 0170000, "still a character device");
        assertEquals(inode, Files.getAttribute(devNull, "unix:ino"));
        assertTrue(cli.out().contains("result written to /dev/null"), cli.out());
    }

    @Test
    void aProgressLineGivesSimulatedTimeShareEventsAndWallTime() {
        io.ringlab.sim.api.dto.RunSnapshotDTO s = new io.ringlab.sim.api.dto.RunSnapshotDTO();
        s.simulatedSeconds = 1.25;
        s.durationSeconds = 5;
        s.events = 1_234_567;

        assertEquals("progress: 1.25s of 5s simulated (25.0 %), 1,234,567 events, 1:02 wall, ETA 3:06",
                RunProgress.line(s, 62));
    }

    @Test
    void aProgressLineWritesSimulatedTimeInTheUnitOfTheDuration() {
        io.ringlab.sim.api.dto.RunSnapshotDTO s = new io.ringlab.sim.api.dto.RunSnapshotDTO();
        s.simulatedSeconds = 0.0125;
        s.durationSeconds = 0.02;
        s.events = 10;

        assertEquals("progress: 12.5ms of 20ms simulated (62.5 %), 10 events, 0:05 wall, ETA 0:03", RunProgress.line(s, 5));
        s.simulatedSeconds = 0.02;
        assertEquals("progress: 20ms of 20ms simulated (100.0 %), 10 events, 0:08 wall", RunProgress.line(s, 8),
                "no ETA at the end");
    }

    // ---- invalid input: exit 2 ----------------------------------------------------------------------------------

    @Test
    void missingFileExitsTwoNamingTheFile() {
        String missing = dir.resolve("nope.pipeline").toString();

        int code = cli.execute("run", missing);

        assertEquals(Runner.INVALID, code);
        assertTrue(cli.err().contains(missing), cli.err());
        assertTrue(cli.err().contains("no such file"), cli.err());
        assertFalse(Cli.hasStackTrace(cli.err()), cli.err());
        assertEquals("", cli.out());
        assertEquals(0, sim.prepareCalls());
    }

    @Test
    void syntaxErrorExitsTwoWithFileLineAndColumn() throws IOException {
        String bad = Cli.write(dir, "bad.pipeline", """
                name = "bad"
                element src source
                element sink : sink
                src -> sink
                """);

        int code = cli.execute("run", bad);

        assertEquals(Runner.INVALID, code);
        assertTrue(Pattern.compile(Pattern.quote(bad) + ":2:\\d+: ").matcher(cli.err()).find(), cli.err());
        assertTrue(cli.err().contains("':'"), cli.err());
        assertFalse(Cli.hasStackTrace(cli.err()), cli.err());
        assertEquals("", cli.out());
        assertEquals(0, sim.prepareCalls());
    }

    @Test
    void durationWithAnUnknownUnitExitsTwoListingTheUnits() {
        int code = cli.execute("run", tiny, "--duration", "10parsecs");

        assertEquals(Runner.INVALID, code);
        String err = cli.err();
        assertTrue(err.contains("--duration"), err);
        assertTrue(err.contains("10parsecs"), err);
        for (String unit : List.of("ps", "ns", "us", "ms", "s")) {
            assertTrue(Pattern.compile("\\b" + unit + "\\b").matcher(err).find(), unit + " missing in: " + err);
        }
        assertFalse(Cli.hasStackTrace(err), err);
        assertEquals(0, sim.prepareCalls());
    }

    @Test
    void zeroDurationExitsTwo() {
        int code = cli.execute("run", tiny, "--duration", "0s");

        assertEquals(Runner.INVALID, code);
        assertTrue(cli.err().contains("--duration must be more than 0s"), cli.err());
        assertEquals(0, sim.prepareCalls());
    }

    @Test
    void pipelineExceptionFromPrepareExitsTwoAndPrintsEveryProblem() {
        sim.failWith(new PipelineException(List.of(
                new ProblemDTO(tiny, 5, 5, "rate: '1Gbit' is above the maximum 400Gbit"),
                new ProblemDTO(tiny, 8, 16, "unknown element type 'sink'; installed: pfifo, source"))));

        int code = cli.execute("run", tiny);

        assertEquals(Runner.INVALID, code);
        String err = cli.err();
        assertTrue(err.contains(tiny + ":5:5: rate: '1Gbit' is above the maximum 400Gbit"), err);
        assertTrue(err.contains(tiny + ":8:16: unknown element type 'sink'; installed: pfifo, source"), err);
        assertFalse(Cli.hasStackTrace(err), err);
        assertEquals("", cli.out());
        assertEquals(1, sim.prepareCalls());
    }

    @Test
    void pipelineExceptionWithJsonWritesNoJson() {
        sim.failWith(new PipelineException(List.of(new ProblemDTO(tiny, 1, 1, "broken"))));

        assertEquals(Runner.INVALID, cli.execute("run", tiny, "--json", "-"));
        assertEquals("", cli.out());
        assertTrue(cli.err().contains(tiny + ":1:1: broken"), cli.err());
    }

    @Test
    void unknownOptionExitsTwoWithoutRunning() {
        int code = cli.execute("run", tiny, "--frobnicate");

        assertEquals(Runner.INVALID, code);
        assertTrue(cli.err().contains("--frobnicate"), cli.err());
        assertFalse(Cli.hasStackTrace(cli.err()), cli.err());
        assertEquals(0, sim.prepareCalls());
    }

    @Test
    void missingFileParameterExitsTwo() {
        int code = cli.execute("run");

        assertEquals(Runner.INVALID, code);
        assertTrue(cli.err().contains("FILE"), cli.err());
        assertEquals(0, sim.prepareCalls());
    }

    @Test
    void nonNumericSeedExitsTwo() {
        int code = cli.execute("run", tiny, "--seed", "seven");

        assertEquals(Runner.INVALID, code);
        assertTrue(cli.err().contains("seven"), cli.err());
        assertEquals(0, sim.prepareCalls());
    }

    @Test
    void unknownBuiltinPipelineExitsTwo() {
        int code = cli.execute("run", "builtin:no-such");

        assertEquals(Runner.INVALID, code);
        assertTrue(cli.err().contains("no built-in pipeline no-such"), cli.err());
        assertEquals(0, sim.prepareCalls());
    }

    // ---- failed runs and invariants -----------------------------------------------------------------------------

    @Test
    void failedRunExitsOneAndPrintsTheError() {
        sim.result(Results.failed("tiny", "element q threw IllegalStateException: ring overflow"));

        int code = cli.execute("run", tiny);

        assertEquals(Runner.FAILED, code);
        assertTrue(cli.out().contains("error: element q threw IllegalStateException: ring overflow"), cli.out());
        assertTrue(cli.out().contains(": FAILED"), cli.out());
    }

    @Test
    void failedRunWithJsonDashPrintsTheErrorOnStderrAndStillWritesJson() {
        sim.result(Results.failed("tiny", "boom"));

        int code = cli.execute("run", tiny, "--json", "-");

        assertEquals(Runner.FAILED, code);
        assertTrue(cli.err().contains("error: boom"), cli.err());
        JsonObject o = JsonParser.parseString(cli.out()).getAsJsonObject();
        assertEquals("FAILED", o.get("state").getAsString());
        assertEquals("boom", o.get("error").getAsString());
    }

    @Test
    void brokenPacketConservationExitsThreeAndPrintsTheViolations() {
        RunResultDTO r = Results.ok("tiny");
        r.invariants.packetConservation = false;
        r.invariants.inFlight = 3;
        r.invariants.violations.add("packets: generated 1000 != delivered 990 + dropped 10 + in flight 3");
        sim.result(r);

        int code = cli.execute("run", tiny);

        assertEquals(Runner.INVARIANT, code);
        assertTrue(Pattern.compile("(?m)^packets: .*: BROKEN$").matcher(cli.out()).find(), cli.out());
        assertTrue(cli.out().contains("violation: packets: generated 1000 != delivered 990 + dropped 10 + in flight 3"),
                cli.out());
        assertTrue(cli.err().contains("invariant is broken"), cli.err());
    }

    @Test
    void brokenBufferConservationExitsThreeAndPrintsTheViolations() {
        RunResultDTO r = Results.ok("tiny");
        r.invariants.bufferConservation = false;
        r.invariants.buffersInUse = 2;
        r.invariants.leaksByOwner.put("q", 2L);
        r.invariants.violations.add("buffers: 2 leaked by q");
        r.invariants.violations.add("buffers: 1 double free by eth0");
        sim.result(r);

        int code = cli.execute("run", tiny);

        assertEquals(Runner.INVARIANT, code);
        assertTrue(Pattern.compile("(?m)^buffers: .*: BROKEN$").matcher(cli.out()).find(), cli.out());
        assertTrue(Pattern.compile("(?m)^packets: .*: ok$").matcher(cli.out()).find(), cli.out());
        assertTrue(cli.out().contains("violation: buffers: 2 leaked by q"), cli.out());
        assertTrue(cli.out().contains("violation: buffers: 1 double free by eth0"), cli.out());
        assertTrue(cli.err().contains("invariant is broken"), cli.err());
    }

    @Test
    void brokenInvariantWithJsonDashKeepsStdoutPureJson() {
        RunResultDTO r = Results.ok("tiny");
        r.invariants.bufferConservation = false;
        r.invariants.violations.add("buffers: 1 leaked by q");
        sim.result(r);

        assertEquals(Runner.INVARIANT, cli.execute("run", tiny, "--json", "-"));

        JsonElement json = JsonParser.parseString(cli.out());
        assertFalse(json.getAsJsonObject().getAsJsonObject("invariants").get("bufferConservation").getAsBoolean());
        assertTrue(cli.err().contains("violation: buffers: 1 leaked by q"), cli.err());
        assertTrue(cli.err().contains("invariant is broken"), cli.err());
    }
}
