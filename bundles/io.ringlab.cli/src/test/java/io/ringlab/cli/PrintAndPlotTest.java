package io.ringlab.cli;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;

import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/** {@code ringlab run --print} for scripts and {@code --plot} for charts. */
class PrintAndPlotTest {
    @TempDir
    Path dir;

    private Cli cli;
    private String tiny;

    @BeforeEach
    void setUp() throws IOException {
        cli = new Cli(new FakeSimulator(), dir);
        tiny = Cli.write(dir, "tiny.pipeline", Cli.TINY);
    }

    @Test
    void printWritesOnlyTheNamedMetricsOnePerLine() {
        assertEquals(Runner.OK, cli.execute("run", tiny, "--print", "sink.rxPackets,q.drops"), cli.err());
        assertEquals("sink.rxPackets=990\nq.drops=10\n", cli.out().replace("\r", ""), "counts print as integers");
    }

    @Test
    void printWritesDecimalsWithoutFloatNoise() {
        assertEquals(Runner.OK, cli.execute("run", tiny, "--print", "sink.rxMpps"), cli.err());
        assertEquals("sink.rxMpps=148.8\n", cli.out().replace("\r", ""));
    }

    @Test
    void printOfAMisspeltMetricIsRefusedBeforeTheRunWithTheClosestName() {
        assertEquals(Runner.INVALID, cli.execute("run", tiny, "--print", "sink.rxPackts"));
        assertTrue(cli.err().contains("--print sink.rxPackts: sink reports no metric 'rxPackts' (did you mean 'rxPackets'?);"
                + " its metrics: rxMpps, rxPackets"), cli.err());
        assertEquals("", cli.out(), "no summary: nothing ran");
        assertEquals(Runner.INVALID, cli.execute("run", tiny, "--print", "snk.rxPackets"));
        assertTrue(cli.err().contains("nothing named snk reports metrics (did you mean 'sink'?)"), cli.err());
    }

    @Test
    void printOfAnUnknownMetricIsInvalidInput() {
        assertEquals(Runner.INVALID, cli.execute("run", tiny, "--print", "sink.nope"));
        assertTrue(cli.err().contains("sink.nope"), cli.err());
    }

    @Test
    void plotWritesAPngOfTheChosenSeries() throws IOException {
        Path png = dir.resolve("q.png");
        assertEquals(Runner.OK, cli.execute("run", tiny, "--plot", png.toString(), "--plot-series", "q.backlog"), cli.err());
        byte[] head = Files.readAllBytes(png);
        assertTrue(head.length > 1000, "size " + head.length);
        assertEquals((byte) 0x89, head[0]);
        assertEquals('P', head[1]);
        assertEquals('N', head[2]);
        assertEquals('G', head[3]);
    }

    @Test
    void plotOfASeriesTheRunDidNotSampleListsTheSampledOnes() {
        assertEquals(Runner.INVALID, cli.execute("run", tiny, "--plot", dir.resolve("x.png").toString(), "--plot-series",
                "eth0.limit"));
        assertTrue(cli.err().contains("eth0.limit") && cli.err().contains("q.backlog"), cli.err());
    }
}
