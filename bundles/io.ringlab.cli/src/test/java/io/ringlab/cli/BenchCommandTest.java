package io.ringlab.cli;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;

import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

import com.google.gson.JsonArray;
import com.google.gson.JsonObject;
import com.google.gson.JsonParser;

import io.ringlab.sim.api.PipelineException;
import io.ringlab.sim.api.dto.ElementDescriptorDTO;
import io.ringlab.sim.api.dto.ProblemDTO;
import io.ringlab.sim.api.dto.RunOptionsDTO;
import io.ringlab.sim.api.dto.RunResultDTO;

/** {@code ringlab bench}: {@link BenchCommand}. */
class BenchCommandTest {
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

    private JsonArray results() {
        JsonObject o = JsonParser.parseString(cli.out()).getAsJsonObject();
        return o.getAsJsonArray("results");
    }

    @Test
    void jsonDashGivesOneRowComputedFromTheWallMeasurements() {
        sim.result(Results.measured("tiny", 2_500_000.0, 7_000_000.0, 0.0, 1_000));

        int code = cli.execute("bench", "--json", "-", tiny);

        assertEquals(Runner.OK, code, cli.err());
        JsonArray results = results();
        assertEquals(1, results.size());
        JsonObject row = results.get(0).getAsJsonObject();
        assertTrue(row.get("pipeline").getAsString().startsWith("tiny"), row.toString());
        assertTrue(row.get("pipeline").getAsString().contains(tiny), row.toString());
        assertEquals(2_500_000.0, row.get("simulatedPacketsPerSecond").getAsDouble());
        assertEquals(7_000_000.0, row.get("eventsPerSecond").getAsDouble());
        assertEquals(0.0, row.get("allocatedBytesPerPacket").getAsDouble());
    }

    @Test
    void packetsPerCpuSecondComeFromTheEnginesCpuTime() {
        RunResultDTO r = Results.measured("tiny", 2_500_000.0, 7_000_000.0, 0.0, 1_000);
        r.wallMeasurements.put("packetsPerCpuSecond", 3_100_000.0);
        sim.result(r);

        assertEquals(Runner.OK, cli.execute("bench", "--json", "-", tiny), cli.err());

        assertEquals(3_100_000.0, results().get(0).getAsJsonObject().get("simulatedPacketsPerCpuSecond").getAsDouble());
    }

    @Test
    void allocatedBytesPerPacketIsEngineAllocatedBytesOverPackets() {
        sim.result(Results.measured("tiny", 1.0, 1.0, 3_000.0, 1_000));

        assertEquals(Runner.OK, cli.execute("bench", "--json", "-", tiny), cli.err());

        assertEquals(3.0, results().get(0).getAsJsonObject().get("allocatedBytesPerPacket").getAsDouble());
    }

    @Test
    void allocatedBytesPerPacketIsNullWhenTheJvmCannotMeasure() {
        sim.result(Results.measured("tiny", 1.0, 1.0, -1.0, 1_000));

        assertEquals(Runner.OK, cli.execute("bench", "--json", "-", tiny), cli.err());

        JsonObject row = results().get(0).getAsJsonObject();
        assertTrue(row.has("allocatedBytesPerPacket"), "allocatedBytesPerPacket is missing instead of null: " + row);
        assertTrue(row.get("allocatedBytesPerPacket").isJsonNull(), row.toString());
    }

    @Test
    void missingMeasurementsCountAsZeroThroughput() {
        sim.result(Results.measured("tiny", null, null, 0.0, 1_000));

        assertEquals(Runner.OK, cli.execute("bench", "--json", "-", tiny), cli.err());

        JsonObject row = results().get(0).getAsJsonObject();
        assertEquals(0.0, row.get("simulatedPacketsPerSecond").getAsDouble());
        assertEquals(0.0, row.get("eventsPerSecond").getAsDouble());
    }

    @Test
    void eachFileRunsTwiceWarmUpThenMeasured() throws IOException {
        String other = Cli.write(dir, "other.pipeline", Cli.TINY.replace("\"tiny\"", "\"other\""));
        // the warm-up result must not be the one reported
        sim.queued.add(Results.measured("tiny", 1.0, 1.0, 0.0, 1_000));
        sim.queued.add(Results.measured("tiny", 10.0, 20.0, 0.0, 1_000));
        sim.queued.add(Results.measured("other", 2.0, 2.0, 0.0, 1_000));
        sim.queued.add(Results.measured("other", 30.0, 40.0, 0.0, 1_000));

        int code = cli.execute("bench", "--repeat", "1", "--json", "-", tiny, other);

        assertEquals(Runner.OK, code, cli.err());
        assertEquals(4, sim.prepareCalls());
        assertEquals(List.of("tiny", "tiny", "other", "other"), sim.pipelines.stream().map(p -> p.name).toList());
        JsonArray results = results();
        assertEquals(2, results.size());
        assertEquals(10.0, results.get(0).getAsJsonObject().get("simulatedPacketsPerSecond").getAsDouble());
        assertEquals(20.0, results.get(0).getAsJsonObject().get("eventsPerSecond").getAsDouble());
        assertEquals(30.0, results.get(1).getAsJsonObject().get("simulatedPacketsPerSecond").getAsDouble());
        assertEquals(40.0, results.get(1).getAsJsonObject().get("eventsPerSecond").getAsDouble());
    }

    @Test
    void durationReachesBothRunsWithDefaultSeedAndNoOverrides() {
        assertEquals(Runner.OK, cli.execute("bench", "--duration", "50ms", tiny), cli.err());

        assertEquals(1 + 5, sim.prepareCalls(), "a warm-up run and five measured");
        for (RunOptionsDTO o : sim.options) {
            assertEquals(50_000_000_000L, o.durationPicos);
            assertEquals(null, o.seed);
            assertEquals(List.of(), o.overrides);
        }
    }

    @Test
    void jsonDashSendsTheTableToStderrAndOnlyJsonToStdout() {
        assertEquals(Runner.OK, cli.execute("bench", "--json", "-", tiny), cli.err());

        JsonParser.parseString(cli.out()); // stdout is one JSON document and nothing else
        assertTrue(cli.err().contains("handled pkt/CPU s"), cli.err());
        assertTrue(cli.err().contains("tiny"), cli.err());
    }

    @Test
    void withoutJsonTheTableGoesToStdout() {
        sim.result(Results.measured("tiny", 2_500_000.0, 7_000_000.0, 500.0, 1_000));

        assertEquals(Runner.OK, cli.execute("bench", tiny), cli.err());

        String out = cli.out();
        assertTrue(out.contains("pipeline"), out);
        assertTrue(out.contains("alloc B/pkt"), out);
        assertTrue(out.lines().anyMatch(l -> l.startsWith("tiny") && l.trim().endsWith("0.5000")), out);
        assertEquals("", cli.err());
    }

    @Test
    void jsonFileIsWritten() throws IOException {
        Path json = dir.resolve("bench.json");

        assertEquals(Runner.OK, cli.execute("bench", "--json", json.toString(), tiny), cli.err());

        JsonObject o = JsonParser.parseString(Files.readString(json, StandardCharsets.UTF_8)).getAsJsonObject();
        assertEquals(1, o.getAsJsonArray("results").size());
    }

    @Test
    void withoutFilesBenchRunsTheBuiltinPipelineAndTheSortedPipelinesFolder() throws IOException {
        Cli.write(dir, "pipelines/b.pipeline", Cli.TINY.replace("\"tiny\"", "\"b\""));
        Cli.write(dir, "pipelines/a.pipeline", Cli.TINY.replace("\"tiny\"", "\"a\""));
        Cli.write(dir, "pipelines/notes.txt", "not a pipeline");

        assertEquals(Runner.OK, cli.execute("bench", "--repeat", "1", "--json", "-"), cli.err());

        assertEquals(List.of("line-rate-64B", "line-rate-64B", "a", "a", "b", "b"),
                sim.pipelines.stream().map(p -> p.name).toList());
        assertEquals(3, results().size());
    }

    @Test
    void withoutFilesAndWithoutPipelinesFolderBenchRunsOnlyTheBuiltinPipeline() {
        assertEquals(Runner.OK, cli.execute("bench", "--repeat", "1", "--json", "-"), cli.err());

        assertEquals(List.of("builtin:line-rate", "builtin:line-rate"), sim.pipelines.stream().map(p -> p.file).toList());
    }

    @Test
    void anInvalidFileIsReportedWithExitTwoAndTheOthersAreStillMeasured() {
        String missing = dir.resolve("missing.pipeline").toString();

        int code = cli.execute("bench", "--repeat", "1", "--json", "-", missing, tiny);

        assertEquals(Runner.INVALID, code);
        assertTrue(cli.err().contains(missing), cli.err());
        assertFalse(Cli.hasStackTrace(cli.err()), cli.err());
        assertEquals(2, sim.prepareCalls());
        assertEquals(1, results().size());
    }

    @Test
    void anInvalidDurationExitsTwo() {
        int code = cli.execute("bench", "--duration", "10parsecs", tiny);

        assertEquals(Runner.INVALID, code);
        assertTrue(cli.err().contains("--duration"), cli.err());
        assertEquals(0, sim.prepareCalls());
    }

    @Test
    void aFailedRunMakesBenchExitOneAndPrintTheError() {
        sim.result(Results.failed("tiny", "element q threw IllegalStateException: ring overflow"));

        int code = cli.execute("bench", "--json", "-", tiny);

        assertEquals(Runner.FAILED, code, "bench exited " + code + " although the run FAILED; stderr: " + cli.err());
        assertTrue(cli.err().contains("ring overflow"), cli.err());
    }

    @Test
    void aBrokenInvariantMakesBenchExitThree() {
        RunResultDTO r = Results.ok("tiny");
        r.invariants.bufferConservation = false;
        r.invariants.violations.add("buffers: 2 leaked by q");
        sim.result(r);

        int code = cli.execute("bench", "--json", "-", tiny);

        assertEquals(Runner.INVARIANT, code, "bench exited " + code + " although buffer conservation is broken");
    }

    @Test
    void aMeasuredRunThatCannotBePreparedIsReportedLikeAFailedWarmUp() {
        // the warm-up prepares, the measured run does not (for example a bundle went away in between)
        sim.failWith(new PipelineException(List.of(new ProblemDTO(tiny, 7, 1, "unknown element type 'sink'"))), 1);

        int code = cli.execute("bench", "--json", "-", tiny);

        assertEquals(2, sim.prepareCalls());
        assertEquals(Runner.INVALID, code, cli.err());
        assertTrue(cli.err().contains(tiny + ":7:1: unknown element type 'sink'"), cli.err());
        assertFalse(cli.err().contains("NullPointerException"), cli.err());
    }

    /** Issue 21: the figures are medians over the measured runs, the CPU seconds of each run listed. */
    @Test
    void theFiguresAreMediansOverTheMeasuredRuns() {
        sim.queued.add(Results.measured("tiny", 1.0, 1.0, 0.0, 1_000)); // the warm-up: not counted
        double[] cpu = { 0.5, 0.1, 0.3 };
        for (double c : cpu) {
            RunResultDTO r = Results.measured("tiny", 1_000 / c, 2_000 / c, 0.0, 1_000);
            r.wallMeasurements.put("engineCpuSeconds", c);
            r.wallMeasurements.put("packetsPerCpuSecond", 1_000 / c);
            r.events = 2_000;
            sim.queued.add(r);
        }

        assertEquals(Runner.OK, cli.execute("bench", "--repeat", "3", "--json", "-", tiny), cli.err());

        assertEquals(4, sim.prepareCalls());
        JsonObject row = results().get(0).getAsJsonObject();
        assertEquals(3, row.get("repetitions").getAsInt());
        assertEquals(0.3, row.get("engineCpuSeconds").getAsDouble(), "the median of 0.5, 0.1, 0.3");
        assertEquals("[0.5,0.1,0.3]", row.get("engineCpuSecondsEach").toString());
        assertEquals(1_000 / 0.3, row.get("offeredPerCpuSecond").getAsDouble(), 1e-6);
        assertEquals(2_000 / 0.3, row.get("eventsPerCpuSecond").getAsDouble(), 1e-6);
        assertEquals(0.3, row.get("loopWallSeconds").getAsDouble(), 1e-12, "events over the loop's events per wall second");
        assertEquals(1_000 / 0.3, row.get("simulatedPacketsPerCpuSecond").getAsDouble(), 1e-6);
    }

    /**
     * Issue 21: packets handled are the drivers' received and transmitted ones, apart from the packets offered; without
     * a driver, the sinks' received ones.
     */
    @Test
    void handledPacketsAreTheDriversOrElseTheSinks() {
        ElementDescriptorDTO nic = new ElementDescriptorDTO(), sink = new ElementDescriptorDTO();
        nic.type = "nic";
        nic.category = ElementDescriptorDTO.DRIVER;
        sink.type = "sink";
        sink.category = ElementDescriptorDTO.SINK;
        RunResultDTO r = Results.measured("tiny", 1.0, 1.0, 0.0, 148_800);
        r.wallMeasurements.put("engineCpuSeconds", 0.01);
        r.types.put("eth0", "nic");
        r.types.put("eth1", "nic");
        r.types.put("sink", "sink");
        r.elements.put("eth0", java.util.Map.of("rxPackets", 12_000.0, "txPackets", 0.0));
        r.elements.put("eth1", java.util.Map.of("rxPackets", 0.0, "txPackets", 11_000.0));
        r.elements.put("sink", java.util.Map.of("rxPackets", 11_000.0));
        java.util.function.Function<String, ElementDescriptorDTO> types = t -> t.equals("nic") ? nic : t.equals("sink") ? sink : null;

        java.util.Map<String, Object> row = BenchCommand.row("tiny.pipeline", List.of(r), types);

        assertEquals(148_800L, row.get("offeredPackets"));
        assertEquals(23_000L, row.get("handledPackets"), "eth0's 12,000 received and eth1's 11,000 sent");
        assertEquals("drivers eth0,eth1", row.get("handledBy"));
        assertEquals(2_300_000.0, (double) row.get("handledPerCpuSecond"), 1e-6);
        r.types.remove("eth0");
        r.types.remove("eth1");
        BenchCommand.Handled sinks = BenchCommand.handled(r, types);
        assertEquals(new BenchCommand.Handled(11_000, "sinks sink"), sinks, "no driver: the sinks");
        r.types.clear();
        assertEquals(-1, BenchCommand.handled(r, types).packets(), "neither: unknown");
    }

    @Test
    void chainsAreGeneratedPipelinesOfOneSecond() {
        assertEquals(Runner.OK, cli.execute("bench", "--repeat", "1", "--chains", "1,3", "--json", "-"), cli.err());

        assertEquals(List.of("builtin:chains-1", "builtin:chains-1", "builtin:chains-3", "builtin:chains-3"),
                sim.pipelines.stream().map(p -> p.file).toList());
        assertEquals(15, sim.pipelines.get(2).elements.size(), "3 chains of 5 elements");
        assertEquals(1_000_000_000_000L, sim.options.get(0).durationPicos, "1 s");
    }

    @Test
    void aBadRepeatOrChainCountExitsTwoNamingTheOption() {
        assertEquals(Runner.INVALID, cli.execute("bench", "--repeat", "0", tiny));
        assertTrue(cli.err().contains("--repeat"), cli.err());
        assertEquals(Runner.INVALID, cli.execute("bench", "--chains", "0"));
        assertTrue(cli.err().contains("--chains: 0"), cli.err());
        assertEquals(0, sim.prepareCalls());
    }

    /** Issue 21: a property can be set for every run, as ringlab run --set does (TCP streams 1 to 64). */
    @Test
    void setReachesTheWarmUpAndEveryMeasuredRun() {
        assertEquals(Runner.OK, cli.execute("bench", "--repeat", "2", "--set", "src.rate=2Gbit", tiny), cli.err());

        assertEquals(3, sim.prepareCalls());
        for (RunOptionsDTO o : sim.options) {
            assertEquals(1, o.overrides.size(), o.overrides.toString());
        }
    }
}
