package io.ringlab.cli;

import static org.junit.jupiter.api.Assertions.assertArrayEquals;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.nio.file.Files;
import java.nio.file.Path;
import java.util.Arrays;
import java.util.List;

import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

import io.ringlab.experiment.api.dto.RunSummaryDTO;
import io.ringlab.experiment.api.dto.ScalarDTO;
import io.ringlab.experiment.api.dto.TableDTO;

/**
 * {@code ringlab plot}: a metric of a sweep against a parameter from a results database (a {@link FakeResults}): the
 * groups of seeds it summarizes, the panels and lines, PNG and SVG, and each refusal with what is allowed.
 */
class PlotCommandTest {
    @TempDir
    Path dir;

    private Cli cli;

    @BeforeEach
    void setUp() {
        cli = new Cli(new FakeSimulator(), dir);
        FakeResults r = cli.results;
        r.experimentNames.add("sweep");
        TableDTO p = new TableDTO();
        p.columns.addAll(List.of("name", "kind", "unit"));
        p.rows.add(Arrays.asList("eth0.txRing", "INTEGER", null));
        p.rows.add(Arrays.asList("wire.rate", "RATE", "bit/s"));
        p.rows.add(Arrays.asList("rwire.rate", "RATE", "bit/s"));
        r.parameterTable = p;
        int k = 0;
        for (String rate : List.of("100Mbit", "1Gbit")) {
            for (String ring : List.of("256", "64", "128")) {
                for (String variant : List.of("off", "on")) {
                    for (long seed = 1; seed <= 2; seed++) {
                        String key = "k" + k++;
                        RunSummaryDTO s = new RunSummaryDTO();
                        s.key = key;
                        s.variant = variant;
                        s.seed = seed;
                        s.state = key.equals("k0") ? RunSummaryDTO.FAILED : RunSummaryDTO.FINISHED;
                        s.packetConservation = true;
                        s.bufferConservation = true;
                        s.point.put("wire.rate", rate);
                        s.point.put("rwire.rate", rate); // zipped with wire.rate: moves with it
                        s.point.put("eth0.txRing", ring);
                        r.runList.add(s);
                        ScalarDTO v = new ScalarDTO();
                        v.run = key;
                        v.variant = variant;
                        v.seed = seed;
                        v.point.putAll(s.point);
                        v.element = "ping";
                        v.metric = "rttP50Millis";
                        v.unit = "ms";
                        v.value = Integer.parseInt(ring) / (rate.equals("1Gbit") ? 10.0 : 1.0) + seed
                                + (variant.equals("on") ? 0.5 : 0);
                        r.scalarList.add(v);
                    }
                }
            }
        }
    }

    @Test
    void aPanelPerFacetALinePerVariantAndAPointPerGroupOfSeeds() throws Exception {
        Path png = dir.resolve("p.png");
        assertEquals(Runner.OK, cli.execute("plot", "r.duckdb", "--y", "ping.rttP50Millis", "--x", "eth0.txRing",
                "--facet", "wire.rate", "--png", png.toString()), cli.err());
        byte[] b = Files.readAllBytes(png);
        assertTrue(b.length > 1000 && b[1] == 'P' && b[2] == 'N' && b[3] == 'G');
        // 2 panels x 2 lines x 3 ring sizes, each point the runs of its seeds; x in numeric order
        List<double[]> groups = cli.experiments.summarized;
        assertEquals(12, groups.size());
        assertArrayEquals(new double[] {65, 66}, groups.get(0), "100Mbit, off, ring 64 first (k0 at 256 failed)");
        assertArrayEquals(new double[] {129, 130}, groups.get(1));
        assertArrayEquals(new double[] {258}, groups.get(2), "the failed run is left out, as the report does");
        assertArrayEquals(new double[] {65.5, 66.5}, groups.get(3), "then the line of variant on");
        assertArrayEquals(new double[] {7.4, 8.4}, groups.get(6), "then the 1Gbit panel");
    }

    @Test
    void svgToo() throws Exception {
        Path svg = dir.resolve("p.svg");
        assertEquals(Runner.OK, cli.execute("plot", "r.duckdb", "--y", "ping.rttP50Millis", "--facet", "wire.rate",
                "--svg", svg.toString()), cli.err());
        String text = Files.readString(svg);
        assertTrue(text.contains("<svg") && text.contains("sweep: ping.rttP50Millis against eth0.txRing"),
                text.substring(0, 200));
        assertTrue(text.contains(">variant off<") && text.contains(">variant on<"), "the legend");
        assertTrue(text.contains("eth0.txRing, log scale"), "ring sizes are powers of two");
    }

    @Test
    void eachRefusalSaysWhatIsAllowed() {
        assertEquals(Runner.INVALID, cli.execute("plot", "r.duckdb", "--y", "ping.rttP50Millis", "--png",
                dir.resolve("a.png").toString()));
        assertTrue(cli.err().contains("wire.rate has 2 values at one point of a line (100Mbit, 1Gbit): give it to --by or"
                + " --facet"), cli.err());
        assertEquals(Runner.INVALID, cli.execute("plot", "r.duckdb", "--y", "ping.rttP50Millis", "--x", "eth0.ring",
                "--png", dir.resolve("b.png").toString()));
        assertTrue(cli.err().contains("--x eth0.ring: not a dimension of the experiment; it has eth0.txRing, wire.rate, rwire.rate"),
                cli.err());
        assertEquals(Runner.INVALID, cli.execute("plot", "r.duckdb", "--y", "ping.rttP90Millis", "--facet", "wire.rate",
                "--png", dir.resolve("c.png").toString()));
        assertTrue(cli.err().contains("no counted run of experiment sweep reported ping.rttP90Millis"), cli.err());
        assertEquals(Runner.INVALID, cli.execute("plot", "r.duckdb", "--y", "ping.rttP50Millis", "--png", "a", "--svg", "b"));
        assertTrue(cli.err().contains("give --png OUT or --svg OUT (one of them)"), cli.err());
        cli.results.experimentNames.add("other");
        assertEquals(Runner.INVALID, cli.execute("plot", "r.duckdb", "--y", "ping.rttP50Millis", "--png",
                dir.resolve("d.png").toString()));
        assertTrue(cli.err().contains("r.duckdb holds 2 experiments (sweep, other): name one with --experiment"), cli.err());
        assertFalse(Files.exists(dir.resolve("a.png")) || Files.exists(dir.resolve("d.png")), "nothing written");
    }
}
