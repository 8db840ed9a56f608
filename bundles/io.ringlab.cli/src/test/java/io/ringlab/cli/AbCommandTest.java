package io.ringlab.cli;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;
import java.util.regex.Pattern;

import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

import com.google.gson.JsonArray;
import com.google.gson.JsonObject;
import com.google.gson.JsonParser;

import io.ringlab.experiment.api.dto.RunSummaryDTO;
import io.ringlab.sim.api.PipelineException;
import io.ringlab.sim.api.dto.ProblemDTO;

/** {@code ringlab ab}: {@link Commands.Ab} with {@link AbSummary}, {@link Progress}, {@link Json} and the plot. */
class AbCommandTest {
    @TempDir
    Path dir;

    private Cli cli;
    private FakeExperiments experiments;
    private String file;

    @BeforeEach
    void setUp() throws IOException {
        cli = new Cli(new FakeSimulator(), dir);
        experiments = cli.experiments;
        file = Cli.write(dir, "bql.experiment", "# the fake service does not read it\n");
    }

    // ---- the summary ------------------------------------------------------------------------------------------------

    @Test
    void theSummaryShowsEachVariantsMeanAndIntervalAndEachDifference() {
        assertEquals(Runner.OK, cli.execute("ab", file), cli.err());

        String out = cli.out();
        assertTrue(out.startsWith("experiment bql (bql.experiment): pipeline stmmac-bql-100m"), out);
        assertTrue(out.contains("2 variants x 3 seeds (1-3), 2s simulated per run after 200ms of warm-up, 6 runs on 2 threads"),
                out);
        assertTrue(Pattern.compile("(?m)^  off \\(baseline\\) +3 +10\\.9312   ± 0\\.0712$").matcher(out).find(), out);
        assertTrue(Pattern.compile("(?m)^  on +3 +2\\.6103   ± 0\\.0213$").matcher(out).find(), out);
        assertTrue(Pattern.compile("(?m)^  on - off +3 +-8\\.3209   \\[-8\\.3951, -8\\.2467\\] \\(-76\\.12 %\\)  p = 2\\.20e-05$")
                .matcher(out).find(), out);
        assertTrue(Pattern.compile("(?m)^  off \\(baseline\\) +0 +n/a   n/a$").matcher(out).find(), out);
        assertTrue(Pattern.compile("(?m)^  on +3 +3,028\\.50   ± 28\\.40$").matcher(out).find(), out);
        assertTrue(out.contains("note (eth0.limit off): no run gave a value"), out);
        assertTrue(out.contains("note (eth0.limit on - off): no seed gave a value in both variants"), out);
        assertTrue(out.contains("runs: 6 of 6 counted (finished with both invariants holding)"), out);
    }

    @Test
    void aSweepsSummaryHasTheTablesOfEachPointAndItsCsvAColumnPerTarget() throws IOException {
        experiments.result = AbResults.swept();
        Path csv = dir.resolve("out.csv");
        assertEquals(Runner.OK, cli.execute("ab", file, "--csv", csv.toString()), cli.err());

        String out = cli.out();
        assertTrue(out.contains("2 variants x 2 sweep points (eth0.txRing) x 3 seeds (1-3)"), out);
        int at64 = out.indexOf("\nat eth0.txRing=64:\n");
        int at256 = out.indexOf("\nat eth0.txRing=256:\n");
        assertTrue(at64 > 0 && at256 > at64, out);
        assertTrue(Pattern.compile("(?m)^  off \\(baseline\\) +3 +10\\.9312   ± 0\\.0712$").matcher(out.substring(at64, at256))
                .find(), out);
        assertTrue(Pattern.compile("(?m)^  off \\(baseline\\) +3 +11\\.9312   ± 0\\.0712$").matcher(out.substring(at256))
                .find(), out);
        assertTrue(out.contains("note (eth0.limit off; at every sweep point): no run gave a value"), out);
        List<String> rows = Files.readAllLines(csv);
        assertEquals("variant,seed,eth0.txRing,metric,value,state,invariants,counted", rows.get(0));
        assertEquals("off,1,64,ping.rttP50Millis,10.91,FINISHED,ok,true", rows.get(1));
        assertEquals(1 + 12 * 2, rows.size(), "a row per run and metric");
        assertTrue(rows.contains("on,3,256,eth0.limit,3030.0,FINISHED,ok,true"), rows.toString());
    }

    @Test
    void aDryRunListsTheRunsAndRunsNothing() {
        experiments.result = AbResults.swept();
        assertEquals(Runner.OK, cli.execute("ab", file, "--dry-run"), cli.err());
        String out = cli.out();
        assertTrue(out.startsWith("experiment bql (bql.experiment): 2 variants x 3 seeds = 12 runs\n"), out);
        assertTrue(out.contains("\n     1  variant off at eth0.txRing=64, seed 1\n"), out);
        assertTrue(out.contains("\n    12  variant on at eth0.txRing=256, seed 3\n"), out);
        assertEquals("", cli.err(), "no progress: nothing ran");

        assertEquals(Runner.INVALID, cli.execute("ab", file, "--dry-run", "--json", "-"));
        assertTrue(cli.err().contains("--dry-run runs nothing, so it writes no --json, --csv, --plot or --flent"), cli.err());
    }

    @Test
    void zeroVarianceShowsItsExactPAndEachNoteOnce() {
        String zero = "zero variance: every run gave the same value, so the interval is the mean itself";
        experiments.result.variants.values().forEach(m -> m.get("ping.rttP50Millis").note = zero);
        experiments.result.comparisons.get(0).pValue = 0.0;
        assertEquals(Runner.OK, cli.execute("ab", file), cli.err());
        String out = cli.out();
        assertTrue(out.contains("p = 0\n"), out);
        assertTrue(out.contains("note (ping.rttP50Millis off, ping.rttP50Millis on): " + zero + "\n"), out);
        assertEquals(out.indexOf(zero), out.lastIndexOf(zero), out);
    }

    @Test
    void progressOnAPipeIsOneLinePerRun() {
        cli.execute("ab", file);

        String err = cli.err();
        assertTrue(err.startsWith("experiment bql: 2 variants x 3 seeds = 6 runs on 2 threads\n"), err);
        assertTrue(Pattern.compile("(?m)^1/6 runs, \\d+:\\d\\d: variant off, seed 1 FINISHED$").matcher(err).find(), err);
        assertTrue(Pattern.compile("(?m)^6/6 runs, \\d+:\\d\\d: variant on, seed 3 FINISHED$").matcher(err).find(), err);
        assertFalse(err.contains("\r"), "no bar drawn in place when stderr is not a terminal");
    }

    // ---- options ----------------------------------------------------------------------------------------------------

    @Test
    void seedsDurationAndThreadsOverrideTheFile() {
        assertEquals(Runner.OK, cli.execute("ab", file, "--seeds", "5", "--duration", "50ms", "--threads", "3"), cli.err());
        assertEquals(List.of(Path.of(file)), experiments.read);
        assertEquals(List.of(1L, 2L, 3L, 4L, 5L), experiments.ran.seeds);
        assertEquals(50_000_000_000L, experiments.ran.durationPicos);
        assertEquals(3, experiments.threads);

        cli.execute("ab", file, "--seeds", "1,2,7");
        assertEquals(List.of(1L, 2L, 7L), experiments.ran.seeds);
        cli.execute("ab", file, "--seeds", "[9]");
        assertEquals(List.of(9L), experiments.ran.seeds);
        assertEquals(0, experiments.threads, "0: the service takes one thread per processor");
    }

    @Test
    void warmupOverridesTheFilesAndADurationBelowTheFilesWarmupSaysSo() {
        experiments.experiment.warmupPicos = 2_000_000_000_000L;

        assertEquals(Runner.INVALID, cli.execute("ab", file, "--duration", "1s"));
        assertTrue(cli.err().contains("--duration 1s is not longer than the file's warmup 2s: give --warmup too"), cli.err());
        assertEquals(null, experiments.ran, "nothing ran");

        assertEquals(Runner.OK, cli.execute("ab", file, "--duration", "1s", "--warmup", "100ms"), cli.err());
        assertEquals(100_000_000_000L, experiments.ran.warmupPicos);
        assertEquals(1_000_000_000_000L, experiments.ran.durationPicos);
    }

    @Test
    void aDurationNotLongerThanTheFilesWarmupNamesTheLineThatSetsIt() {
        experiments.experiment.warmupPicos = 2_000_000_000_000L;
        experiments.experiment.warmupValue = new io.ringlab.sim.api.dto.ValueDTO("2s", 6, 10);

        assertEquals(Runner.INVALID, cli.execute("ab", file, "--duration", "2s"));
        assertTrue(cli.err().startsWith("bql.experiment:6:10: --duration 2s is not longer than the file's warmup 2s, which"
                + " this line sets: give --warmup too (e.g. --warmup 0s, or less than 2s)"), cli.err());
        assertEquals(null, experiments.ran, "nothing ran");
    }

    @Test
    void eachVariantsFiguresOnTooFewSamplesAreMarkedWithTheFewestOfItsRuns() {
        for (RunSummaryDTO s : experiments.result.runs) {
            if (s.variant.equals("on")) {
                io.ringlab.sim.api.dto.SampleWarningDTO w = new io.ringlab.sim.api.dto.SampleWarningDTO();
                w.metric = "ping.rttP50Millis";
                w.samples = s.seed; // 1, 2, 3: the report names the fewest
                w.needed = 10;
                w.advice = "run at least 10s (" + s.seed + " samples in 1s measured)";
                s.sampleWarnings.add(w);
                io.ringlab.sim.api.dto.SampleWarningDTO other = new io.ringlab.sim.api.dto.SampleWarningDTO();
                other.metric = "q.notCompared";
                other.samples = 1;
                other.needed = 10;
                other.advice = "not shown: ab does not report this metric";
                s.sampleWarnings.add(other);
            }
        }

        assertEquals(Runner.OK, cli.execute("ab", file), cli.err());

        String out = cli.out();
        assertTrue(Pattern.compile("(?m)^  on +3 +2\\.6103\\*   ± 0\\.0213$").matcher(out).find(), out);
        assertTrue(Pattern.compile("(?m)^  off \\(baseline\\) +3 +10\\.9312   ± 0\\.0712$").matcher(out).find(), out);
        assertTrue(out.contains("  on: ping.rttP50Millis: 1 sample, needs 10; run at least 10s (1 samples in 1s measured)"), out);
        assertFalse(out.contains("q.notCompared"), out);
    }

    @Test
    void badOptionsAreInvalidInputWithWhatIsAllowed() {
        assertEquals(Runner.INVALID, cli.execute("ab", file, "--seeds", "1,1"));
        assertTrue(cli.err().contains("--seeds '1,1': seed 1 is listed twice; runs are paired by seed; write a count "
                + "(--seeds 10 runs seeds 1 to 10) or a list (--seeds 1,2,3,7)"), cli.err());
        assertEquals(Runner.INVALID, cli.execute("ab", file, "--seeds", "0"));
        assertTrue(cli.err().contains("--seeds '0': a count of 0 is less than 1"), cli.err());
        assertEquals(Runner.INVALID, cli.execute("ab", file, "--seeds", "1G")); // a billion seeds filled the heap
        assertTrue(cli.err().contains("--seeds '1G': a count of 1000000000 is more than 10,000, the most an experiment"
                + " runs"), cli.err());
        assertEquals(Runner.INVALID, cli.execute("ab", file, "--seeds", "1,".repeat(10_000) + "0"));
        assertTrue(cli.err().contains("the list has 10,001 seeds, more than 10,000"), cli.err());
        assertEquals(Runner.INVALID, cli.execute("ab", file, "--seeds", "x"));
        assertEquals(Runner.INVALID, cli.execute("ab", file, "--duration", "0s"));
        assertTrue(cli.err().contains("--duration must be more than 0s"), cli.err());
        assertEquals(Runner.INVALID, cli.execute("ab", file, "--threads", "0"));
        assertTrue(cli.err().contains("--threads must be at least 1"), cli.err());
        assertEquals(null, experiments.ran, "nothing ran");
    }

    @Test
    void aBadFileOrARefusedVariantIsInvalidInputWithItsPosition() {
        experiments.readFailure = new PipelineException(List.of(new ProblemDTO("bql.experiment", 3, 9,
                "seeds: a count of 0 is less than 1")));
        assertEquals(Runner.INVALID, cli.execute("ab", file));
        assertTrue(cli.err().contains("bql.experiment:3:9: seeds: a count of 0 is less than 1"), cli.err());

        experiments.readFailure = null;
        experiments.runFailure = new PipelineException(List.of(new ProblemDTO("bql.experiment", 8, 9,
                "variant 'on': pipelines/x.pipeline:3:1: unknown element type 'nosuch'")));
        assertEquals(Runner.INVALID, cli.execute("ab", file));
        assertTrue(cli.err().contains("bql.experiment:8:9: variant 'on': pipelines/x.pipeline:3:1: unknown element type"),
                cli.err());
        assertFalse(Cli.hasStackTrace(cli.err()), cli.err());
    }

    // ---- outputs ----------------------------------------------------------------------------------------------------

    @Test
    void jsonHasVariantsComparisonsAndEveryRun() throws IOException {
        Path json = dir.resolve("ab.json");
        assertEquals(Runner.OK, cli.execute("ab", file, "--json", json.toString()), cli.err());
        assertTrue(cli.out().contains("result written to " + json), cli.out());

        JsonObject o = JsonParser.parseString(Files.readString(json)).getAsJsonObject();
        assertEquals("bql", o.get("name").getAsString());
        assertEquals(3, o.getAsJsonArray("seeds").size());
        JsonObject offRtt = o.getAsJsonObject("variants").getAsJsonObject("off").getAsJsonObject("ping.rttP50Millis");
        assertEquals(10.9312, offRtt.get("mean").getAsDouble());
        assertEquals(10.86, offRtt.get("ci95Low").getAsDouble());
        assertEquals(11.0024, offRtt.get("ci95High").getAsDouble());
        assertEquals(3, offRtt.get("n").getAsInt());
        JsonObject offLimit = o.getAsJsonObject("variants").getAsJsonObject("off").getAsJsonObject("eth0.limit");
        assertTrue(offLimit.get("mean").isJsonNull(), "undefined is null, written out");
        assertTrue(offLimit.get("ci95Low").isJsonNull());
        JsonObject c = o.getAsJsonArray("comparisons").get(0).getAsJsonObject();
        for (String k : List.of("metric", "a", "b", "difference", "ci95Low", "ci95High", "pValue")) {
            assertTrue(c.has(k), k);
        }
        assertEquals("on", c.get("b").getAsString());
        assertEquals(-8.3209, c.get("difference").getAsDouble());
        assertEquals(2.2e-5, c.get("pValue").getAsDouble());
        JsonArray runs = o.getAsJsonArray("runs");
        assertEquals(6, runs.size());
        JsonObject run = runs.get(0).getAsJsonObject();
        assertEquals("off", run.get("variant").getAsString());
        assertEquals(1, run.get("seed").getAsLong());
        assertTrue(run.get("packetConservation").getAsBoolean());
        assertEquals("ms", run.getAsJsonObject("headline").get("unit").getAsString());
    }

    @Test
    void anExperimentStoppedBySignalWritesTheReportOfTheRunsThatFinishedMarkedIncomplete() throws IOException {
        experiments.result.cancelled = true;
        experiments.result.runs.get(4).state = RunSummaryDTO.STOPPED; // running when the signal came
        experiments.result.runs.get(5).state = RunSummaryDTO.CANCELLED; // never started
        experiments.interrupted = true; // the service hands back the signal's interrupt
        Path json = dir.resolve("ab.json");

        assertEquals(Runner.FAILED, cli.execute("ab", file, "--json", json.toString()));

        assertTrue(cli.out().contains("incomplete: stopped before every run ended; missing: on seeds 2, 3"), cli.out());
        assertTrue(cli.out().contains("result written to " + json), cli.out() + cli.err());
        assertTrue(JsonParser.parseString(Files.readString(json)).getAsJsonObject().get("cancelled").getAsBoolean());
        assertTrue(cli.err().contains("ringlab ab: stopped before every run ended (incomplete; missing: on seeds 2, 3)"),
                cli.err());
        assertFalse(Thread.interrupted(), "the interrupt was taken before the files were written");
    }

    @Test
    void outputPathsAreCheckedBeforeAnyRun() {
        String json = dir.resolve("gone/ab.json").toString();
        String csv = dir.resolve("gone/ab.csv").toString();

        assertEquals(Runner.INVALID, cli.execute("ab", file, "--json", json, "--csv", csv, "--plot", dir.toString()));

        assertTrue(cli.err().contains("--json " + json + ": the folder " + dir.resolve("gone") + " does not exist"),
                cli.err());
        assertTrue(cli.err().contains("--csv " + csv + ": the folder " + dir.resolve("gone") + " does not exist"),
                cli.err());
        assertTrue(cli.err().contains("--plot " + dir + ": is a folder: give a file name"), cli.err());
        assertTrue(experiments.read.isEmpty(), "the experiment was not even read");
    }

    @Test
    void jsonToStdoutMovesTheSummaryToStderr() {
        assertEquals(Runner.OK, cli.execute("ab", file, "--json", "-"), cli.err());
        JsonObject o = JsonParser.parseString(cli.out()).getAsJsonObject();
        assertEquals("off", o.get("baseline").getAsString());
        assertTrue(cli.err().contains("on - off"), cli.err());
    }

    @Test
    void csvHasOneRowPerVariantSeedAndMetric() throws IOException {
        Path csv = dir.resolve("ab.csv");
        assertEquals(Runner.OK, cli.execute("ab", file, "--csv", csv.toString()), cli.err());
        List<String> lines = Files.readAllLines(csv);
        assertEquals(1 + 2 * 3 * 2, lines.size());
        assertEquals("variant,seed,metric,value,state,invariants,counted", lines.get(0));
        assertEquals("off,1,ping.rttP50Millis,10.91,FINISHED,ok,true", lines.get(1));
        assertEquals("off,1,eth0.limit,,FINISHED,ok,true", lines.get(2), "a metric the run lacked has no value");
        assertEquals("on,3,eth0.limit,3030.0,FINISHED,ok,true", lines.get(12));
    }

    @Test
    void plotWritesAPng() throws IOException {
        Path png = dir.resolve("ab.png");
        assertEquals(Runner.OK, cli.execute("ab", file, "--plot", png.toString()), cli.err());
        byte[] head = Files.readAllBytes(png);
        assertTrue(head.length > 1000, "size " + head.length);
        assertEquals((byte) 0x89, head[0]);
        assertEquals('P', head[1]);
        assertTrue(cli.out().contains("plot written to " + png), cli.out());
    }

    // ---- exit codes -------------------------------------------------------------------------------------------------

    @Test
    void aFailedRunExitsOneAndTheOthersAreStillReported() {
        RunSummaryDTO s = experiments.result.runs.get(4);
        s.state = RunSummaryDTO.FAILED;
        s.error = "element eth0 (type stmmac): threw java.lang.IllegalStateException: ring corrupted";
        assertEquals(Runner.FAILED, cli.execute("ab", file));
        assertTrue(cli.err().contains("variant on, seed 2: FAILED: element eth0 (type stmmac): threw"), cli.err());
        assertTrue(cli.err().contains("ringlab ab: 1 run failed (see the runs above); the statistics leave them out"),
                cli.err());
        assertTrue(cli.out().contains("runs: 5 of 6 counted"), cli.out());
        assertTrue(cli.out().contains("on - off"), "the statistics are still printed");
    }

    @Test
    void aBrokenInvariantExitsThree() {
        RunSummaryDTO s = experiments.result.runs.get(1);
        s.bufferConservation = false;
        s.violations.add("buffers: 3 leaked by eth0");
        assertEquals(Runner.INVARIANT, cli.execute("ab", file));
        assertTrue(cli.out().contains("  variant off, seed 2: an invariant is broken: buffers: 3 leaked by eth0"), cli.out());
        assertTrue(cli.err().contains("ringlab ab: an invariant is broken in 1 run"), cli.err());
    }

    @Test
    void aMetricTheRunsDidNotReportExitsTwoNamingIt() {
        experiments.result.problems.add(new ProblemDTO("bql.experiment", 5, 31, "metric 'eth0.limt' was not reported by "
                + "variant off (seeds 1-3), variant on (seeds 1-3); eth0 reported inflight, limit (variant off, seed 1)"));
        assertEquals(Runner.INVALID, cli.execute("ab", file));
        assertTrue(cli.err().contains("bql.experiment:5:31: metric 'eth0.limt' was not reported by variant off"), cli.err());
    }

    @Test
    void theGogoCommandPrintsTheSameSummary() {
        String out = GogoCommands.capture(new FakeSimulator(), experiments, cli.results, "ab", file, "--db",
                dir.resolve("gogo.duckdb").toString());
        assertTrue(out.contains("on - off"), out);
    }

    // ---- the results database ----------------------------------------------------------------------------------------

    @Test
    void theRunsGoIntoTheExperimentsDatabaseUnlessAnotherIsNamed() {
        assertEquals(Runner.OK, cli.execute("ab", file), cli.err());
        assertEquals(List.of(Path.of("results", "bql.duckdb")), cli.results.opened, "results/NAME.duckdb by default");
        assertEquals(java.time.Duration.ofSeconds(10), cli.results.waits.get(0));
        assertEquals(6, cli.results.recorded.size());
        assertTrue(cli.results.closed, "the store is closed after the runs");
        assertFalse(experiments.rerun);
        assertTrue(cli.err().contains("results: " + Path.of("results", "bql.duckdb") + ": 6 runs recorded now, 0 taken from it"),
                cli.err());

        Path db = dir.resolve("x.duckdb");
        assertEquals(Runner.OK, cli.execute("ab", file, "--db", db.toString(), "--db-wait", "1500ms", "--rerun"), cli.err());
        assertEquals(db, cli.results.opened.get(1));
        assertEquals(java.time.Duration.ofMillis(1500), cli.results.waits.get(1));
        assertTrue(experiments.rerun);
    }

    @Test
    void aDatabaseThatCannotBeOpenedStopsTheExperimentWithItsReason() {
        cli.results.failure = new io.ringlab.experiment.api.ResultsException("results/bql.duckdb: held by another process"
                + " (PID 4242, /usr/bin/java; ringlab ab writes one database at a time)");
        assertEquals(Runner.INVALID, cli.execute("ab", file));
        assertTrue(cli.err().contains("held by another process (PID 4242"), cli.err());
        assertEquals(null, experiments.ran, "nothing ran");
    }

    @Test
    void resultsShowsTheExperimentsOrAQueryOrExportsIt() {
        io.ringlab.experiment.api.dto.TableDTO t = new io.ringlab.experiment.api.dto.TableDTO();
        t.columns.addAll(List.of("experiment", "runs", "wall"));
        t.rows.add(java.util.Arrays.asList("stmmac-bql", 10L, 1.25));
        t.rows.add(java.util.Arrays.asList("netdev-ring-sweep", 24L, null));
        cli.results.table = t;
        assertEquals(Runner.OK, cli.execute("results", "r.duckdb"), cli.err());
        assertEquals("query r.duckdb " + ResultsCommand.OVERVIEW, cli.results.calls.get(0));
        String out = cli.out();
        assertTrue(out.contains("experiment         runs  wall\n"), out);
        assertTrue(out.contains("stmmac-bql         10    1.25\n"), out);
        assertTrue(out.contains("netdev-ring-sweep  24    NULL\n(2 rows)\n"), out);

        assertEquals(Runner.OK, cli.execute("results", "r.duckdb", "--query", "SELECT 1", "--parquet", "o.parquet"), cli.err());
        assertEquals("export r.duckdb SELECT 1 o.parquet parquet", cli.results.calls.get(1));
        assertTrue(cli.out().contains("2 rows written to o.parquet"), cli.out());
        assertEquals(Runner.INVALID, cli.execute("results", "r.duckdb", "--csv", "a", "--parquet", "b"));
        assertTrue(cli.err().contains("give --csv or --parquet, not both"), cli.err());
        cli.results.failure = new io.ringlab.experiment.api.ResultsException("r.duckdb: the query failed: Parser Error");
        assertEquals(Runner.INVALID, cli.execute("results", "r.duckdb", "--query", "SELEC"));
        assertTrue(cli.err().contains("ringlab results: r.duckdb: the query failed: Parser Error"), cli.err());
    }
}
