package io.ringlab.cli;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;

import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

import io.ringlab.pipeline.format.PipelineReader;
import io.ringlab.sim.api.dto.ElementDescriptorDTO;
import io.ringlab.sim.api.dto.PropertyDescriptorDTO;
import io.ringlab.sim.api.dto.RunResultDTO;
import io.ringlab.sim.api.dto.ValueDTO;

/**
 * Old metric names (...Mbps) in {@code --print}, {@code --plot-series}, a pipeline's headline and an experiment's
 * metrics read today's metrics (...MbitPerSecond) with one warning each; rates in tc's bytes per second in a file, a
 * {@code --set} or a variant's set are named in bit/s. No warning changes the exit code.
 */
class InputWarningsTest {
    private static final String RENAMED = "warning: metric sink.rxMbps is now sink.rxMbitPerSecond (Mbit/s); the old"
            + " name will go";

    @TempDir
    Path dir;

    private FakeSimulator sim;
    private Cli cli;
    private String tiny;

    @BeforeEach
    void setUp() throws IOException {
        sim = new FakeSimulator();
        RunResultDTO r = Results.ok("tiny");
        r.elements.get("sink").put("rxMbitPerSecond", 787.25);
        r.series.columns.add("sink.rxMbitPerSecond");
        r.series.rows.replaceAll(row -> new double[] {row[0], row[1], 700 + row[0]});
        sim.result(r);
        ElementDescriptorDTO source = new ElementDescriptorDTO();
        source.type = "source";
        PropertyDescriptorDTO rate = new PropertyDescriptorDTO();
        rate.name = "rate";
        rate.kind = PropertyDescriptorDTO.Kind.RATE;
        source.properties.add(rate);
        sim.elementTypes.add(source);
        cli = new Cli(sim, dir);
        tiny = Cli.write(dir, "tiny.pipeline", Cli.TINY);
    }

    @Test
    void printOfAnOldNamePrintsTodaysMetricAndWarnsOnce() {
        assertEquals(Runner.OK, cli.execute("run", tiny, "--print", "sink.rxMbps,sink.rxPackets,sink.rxMbps"), cli.err());
        assertEquals("sink.rxMbitPerSecond=787.25\nsink.rxPackets=990\nsink.rxMbitPerSecond=787.25\n",
                cli.out().replace("\r", ""));
        assertEquals("--print: " + RENAMED + "\n", cli.err().replace("\r", ""));
    }

    @Test
    void plotSeriesOfAnOldNameDrawsTodaysSeries() {
        Path png = dir.resolve("r.png");
        assertEquals(Runner.OK, cli.execute("run", tiny, "--plot", png.toString(), "--plot-series", "sink.rxMbps"),
                cli.err());
        assertTrue(Files.exists(png));
        assertTrue(cli.err().contains("--plot-series: " + RENAMED), cli.err());
    }

    @Test
    void aHeadlineOfAnOldNameIsWarnedAboutWithItsPosition() throws IOException {
        String file = Cli.write(dir, "old.pipeline", Cli.TINY.replace("headline = sink.rxMpps", "headline = sink.rxMbps"));
        assertEquals(Runner.OK, cli.execute("run", file), cli.err());
        assertTrue(cli.err().contains(file + ":3:12: " + RENAMED), cli.err());
    }

    @Test
    void anExperimentsOldMetricNamesAreRunAsTodaysAndWarnedAbout() {
        cli.experiments.experiment.metrics.add(new ValueDTO("sink.rxMbps", 6, 9));
        assertEquals(Runner.OK, cli.execute("ab", "bql.experiment"), cli.err());
        assertEquals(List.of("ping.rttP50Millis", "eth0.limit", "sink.rxMbitPerSecond"),
                cli.experiments.ran.metrics.stream().map(v -> v.text).toList());
        assertTrue(cli.err().contains("bql.experiment:6:9: " + RENAMED), cli.err());
    }

    @Test
    void anExperimentWithoutMetricsComparesTheHeadlineUnderTodaysName() throws Exception {
        var e = cli.experiments.experiment;
        e.pipeline = PipelineReader.read("tiny.pipeline", Cli.TINY.replace("sink.rxMpps", "sink.rxMbps"));
        e.metrics.clear();
        e.metrics.add(new ValueDTO(e.pipeline.headline.text, 0, 0)); // as the reader does without a 'metrics' key
        assertEquals(Runner.OK, cli.execute("ab", "bql.experiment"), cli.err());
        assertEquals(List.of("sink.rxMbitPerSecond"), cli.experiments.ran.metrics.stream().map(v -> v.text).toList());
        assertTrue(cli.err().startsWith("tiny.pipeline:3:12: " + RENAMED + "\n"), cli.err());
    }

    @Test
    void ratesInBytesPerSecondAreNamedInBitsPerSecond() throws IOException {
        String file = Cli.write(dir, "bytes.pipeline", Cli.TINY.replace("rate = 1Gbit", "rate = 100Mbps"));
        assertEquals(Runner.OK, cli.execute("run", file, "--set", "src.rate=2Gbps"), cli.err());
        String err = cli.err();
        assertTrue(err.contains(file + ":6:12: warning: element src: rate = 100Mbps is 800 Mbit/s (tc's bytes per"
                + " second); write 100Mbit for megabits"), err);
        assertTrue(err.contains("--set 'src.rate=2Gbps': warning: 2Gbps is 16 Gbit/s (tc's bytes per second); write"
                + " 2Gbit for gigabits"), err);
        assertEquals(1, sim.prepareCalls(), "the run still runs");
    }

    @Test
    void aVariantsSetOfARateInBytesPerSecondIsNamedInBitsPerSecond() throws Exception {
        var e = cli.experiments.experiment;
        e.pipeline = PipelineReader.read("tiny.pipeline", Cli.TINY);
        e.variants.get(1).overrides.add("src.rate=10kbps");
        e.variants.get(1).line = 9;
        e.variants.get(1).column = 1;
        assertEquals(Runner.OK, cli.execute("ab", "bql.experiment"), cli.err());
        assertTrue(cli.err().startsWith("bql.experiment:9:1: warning: variant on: set src.rate=10kbps: 10kbps is 80 kbit/s"
                + " (tc's bytes per second); write 10kbit for kilobits"), cli.err());
    }

    @Test
    void ratesInBitsPerSecondGetNoWarning() {
        assertEquals(Runner.OK, cli.execute("run", tiny, "--set", "src.rate=2Gbit"), cli.err());
        assertEquals("", cli.err());
    }
}
