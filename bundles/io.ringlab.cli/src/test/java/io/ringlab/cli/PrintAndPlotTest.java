package io.ringlab.cli;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.io.IOException;
import java.nio.ByteBuffer;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;

import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;
import org.jfree.chart.JFreeChart;
import org.jfree.chart.plot.CombinedDomainXYPlot;
import org.jfree.chart.plot.XYPlot;

import io.ringlab.sim.api.dto.PointsDTO;
import io.ringlab.sim.api.dto.RunResultDTO;
import io.ringlab.sim.api.dto.SeriesDTO;

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

    /** A stmmac-like pipeline whose plot names series of four units and plain numbers. */
    private static final String KEYED = """
            name = "keyed"
            headline = ping.rttP50Millis
            plot = [ping.rttMillis, eth0.limit, eth0.inflight, q.backlog, ping.rttP50Millis, far.latencyP99Micros,
                    back.backlog]

            element ping : ping
            element q : pfifo
            element eth0 : stmmac
            element far : host
            element back : pfifo

            ping -> q -> eth0 -> far
            far.out -> back -> eth0.rx
            """;

    /** @return a result with the series KEYED names (and one it does not), ping.rttMillis as points */
    private static RunResultDTO keyedResult() {
        RunResultDTO r = Results.ok("keyed");
        r.headline.metric = "ping.rttP50Millis";
        SeriesDTO s = new SeriesDTO();
        s.intervalSeconds = 1;
        s.columns.addAll(List.of("timeSeconds", "eth0.limit", "eth0.inflight", "q.backlog", "back.backlog",
                "ping.rttP50Millis", "far.latencyP99Micros", "iperf.stream0Ssthresh"));
        s.rows.add(new double[] {0, 0, 0, 0, 0, Double.NaN, Double.NaN, 2.1e9});
        s.rows.add(new double[] {1, 3028, 1514, 40, 0, 2.5, 80, 2.1e9});
        s.rows.add(new double[] {2, 4542, 3028, 90, 1, Double.NaN, 95, 2.1e9});
        PointsDTO rtt = new PointsDTO();
        rtt.timeSeconds = new double[] {0.0007, 1.0021, 2.0035};
        rtt.values = new double[] {0.7, 2.1, 3.5};
        s.points.put("ping.rttMillis", rtt);
        r.series = s;
        return r;
    }

    private static List<String> labels(JFreeChart chart) {
        return ((CombinedDomainXYPlot) chart.getPlot()).getSubplots().stream()
                .map(p -> p.getRangeAxis().getLabel()).toList();
    }

    /** @return the height of a PNG, from its IHDR chunk */
    private static int pngHeight(Path png) throws IOException {
        return ByteBuffer.wrap(Files.readAllBytes(png), 20, 4).getInt();
    }

    @Test
    void plotWithoutPlotSeriesDrawsThePipelinesKeySeriesInOnePanelPerUnit() throws IOException {
        cli.simulator.result(keyedResult());
        String file = Cli.write(dir, "keyed.pipeline", KEYED);
        Path png = dir.resolve("keyed.png");
        assertEquals(Runner.OK, cli.execute("run", file, "--plot", png.toString()), cli.err());
        assertEquals(120 + 220 * 5, pngHeight(png), "five panels: ms, limit, inflight, backlog, us");

        // the chart the command drew, from the same choice of series
        RunResultDTO r = keyedResult();
        List<String> series = Plots.chosen(List.of(), List.of("ping.rttMillis", "eth0.limit", "eth0.inflight",
                "q.backlog", "ping.rttP50Millis", "far.latencyP99Micros", "back.backlog"), r.headline.metric, r.series);
        JFreeChart chart = Plots.runChart(r, series, "keyed (seed 42)");
        assertEquals("keyed (seed 42)", chart.getTitle().getText(), "the caller's title");
        assertEquals(List.of("rttMillis, rttP50Millis (ms)", "limit", "inflight", "backlog", "latencyP99Micros (us)"),
                labels(chart));
        XYPlot ms = ((CombinedDomainXYPlot) chart.getPlot()).getSubplots().get(0);
        assertEquals("ping.rttP50Millis", ms.getDataset(0).getSeriesKey(0), "sampled: a line");
        assertEquals("ping.rttMillis", ms.getDataset(1).getSeriesKey(0), "points: dots");
        assertEquals(3, ms.getDataset(1).getItemCount(0));
        assertEquals(1.0021, ms.getDataset(1).getXValue(0, 1), 1e-12, "each echo at its time");
        assertEquals(2.1, ms.getDataset(1).getYValue(0, 1), 1e-12);
        XYPlot backlog = ((CombinedDomainXYPlot) chart.getPlot()).getSubplots().get(3);
        assertEquals(2, backlog.getDataset(0).getSeriesCount(), "q.backlog and back.backlog share their panel");
        assertEquals("simulated time (s)", ((CombinedDomainXYPlot) chart.getPlot()).getDomainAxis().getLabel());
    }

    @Test
    void plotSeriesGivenAreGroupedByUnitTooAndAPipelineWithoutPlotDrawsItsHeadline() throws IOException {
        cli.simulator.result(keyedResult());
        String file = Cli.write(dir, "keyed.pipeline", KEYED.replaceAll("(?s)plot = \\[.*?\\]\n", ""));
        assertFalse(Files.readString(Path.of(file)).contains("plot ="));
        Path png = dir.resolve("h.png");
        assertEquals(Runner.OK, cli.execute("run", file, "--plot", png.toString()), cli.err());
        assertEquals(120 + 220, pngHeight(png), "the headline alone");
        RunResultDTO r = keyedResult();
        assertEquals(List.of("ping.rttP50Millis"), Plots.chosen(List.of(), List.of(), r.headline.metric, r.series));

        assertEquals(Runner.OK, cli.execute("run", file, "--plot", png.toString(), "--plot-series",
                "far.latencyP99Micros,q.backlog,ping.rttMillis,ping.rttP50Millis"), cli.err());
        assertEquals(120 + 220 * 3, pngHeight(png), "us, backlog, ms");
        assertEquals(List.of("latencyP99Micros (us)", "backlog", "rttMillis, rttP50Millis (ms)"), labels(Plots.runChart(r,
                List.of("far.latencyP99Micros", "q.backlog", "ping.rttMillis", "ping.rttP50Millis"), "t")));
    }

    @Test
    void theKeySeriesARunLacksAreLeftOutUnlessItHasNoneOfThem() {
        RunResultDTO r = keyedResult();
        // eth0.bql=false, say: the engine warned that the run has no eth0.limit
        assertEquals(List.of("q.backlog"), Plots.chosen(List.of(), List.of("eth0.limt", "q.backlog"), null, r.series));
        IllegalArgumentException e = assertThrows(IllegalArgumentException.class,
                () -> Plots.chosen(List.of(), List.of("eth0.limt"), null, r.series));
        assertTrue(e.getMessage().startsWith("the pipeline's plot: the run has no series 'eth0.limt'; its series: eth0.limit, "),
                e.getMessage());
        e = assertThrows(IllegalArgumentException.class,
                () -> Plots.chosen(List.of("eth0.limt", "q.backlog"), List.of(), null, r.series));
        assertTrue(e.getMessage().startsWith("--plot-series: the run has no series 'eth0.limt'"), e.getMessage());
    }

    @Test
    void aHeadlineThatIsNoSeriesIsInvalidForAPlotWithoutSeries() {
        // tiny's headline, sink.rxMpps, is reported but not sampled
        assertEquals(Runner.INVALID, cli.execute("run", tiny, "--plot", dir.resolve("x.png").toString()));
        assertTrue(cli.err().contains("the headline (the pipeline has no plot = [...]; or give --plot-series): the run has no"
                + " series 'sink.rxMpps'; its series: q.backlog"), cli.err());
    }

    @Test
    void aPlotsTitleNamesTheSeedAndTheOverrides() {
        io.ringlab.sim.api.dto.RunResultDTO r = Results.ok("tiny");
        assertEquals("tiny (seed 42)", Plots.title(r));
        r.overrides = new io.ringlab.sim.api.dto.RunOverridesDTO();
        r.overrides.set.add("eth0.bql=true");
        r.overrides.duration = "1s";
        assertEquals("tiny (seed 42, --set eth0.bql=true --duration 1s)", Plots.title(r));
    }

    @Test
    void aMisspeltPlotSeriesIsRefusedBeforeTheRunWithTheClosestName() {
        String png = dir.resolve("x.png").toString();

        assertEquals(Runner.INVALID, cli.execute("run", tiny, "--plot", png, "--plot-series", "q.backlg"));

        assertTrue(cli.err().contains("--plot-series q.backlg: the run has no series 'q.backlg' (did you mean 'q.backlog'?);"
                + " its series: q.backlog"), cli.err());
        assertEquals("", cli.out(), "no summary: nothing ran");
        assertFalse(java.nio.file.Files.exists(dir.resolve("x.png")));
    }
}
