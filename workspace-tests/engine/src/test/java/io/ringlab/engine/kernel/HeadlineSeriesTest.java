package io.ringlab.engine.kernel;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;
import java.util.stream.Stream;

import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.MethodSource;

import io.ringlab.conformance.ModelTests;
import io.ringlab.sim.api.dto.RunResultDTO;

/**
 * The headline is always a column of the series (issue 20, section 2), so the console's headline chart is never empty: on
 * every sample pipeline the headline's column has values; a rate's column is its rate over each interval, whose
 * time-weighted mean is the whole run's rate the result reports.
 */
class HeadlineSeriesTest {

    static Stream<String> samples() throws Exception {
        try (Stream<Path> s = Files.list(DocsIndexTest.repository().resolve("pipelines"))) {
            return s.map(p -> p.getFileName().toString()).filter(n -> n.endsWith(".pipeline")).sorted().toList().stream();
        }
    }

    @ParameterizedTest(name = "{0}")
    @MethodSource("samples")
    void theHeadlineIsAColumnWithValues(String sample) throws Exception {
        String text = ModelTests.sample(sample, "50ms");
        String headline = text.lines().filter(l -> l.startsWith("headline = ")).findFirst().orElseThrow().substring(11)
                .strip();
        // a ping's percentile needs echoes (one a second); a connection rate, connections
        String duration = headline.startsWith("ping.") ? "2s" : headline.endsWith("connPerSecond") ? "200ms" : "50ms";
        RunResultDTO r = PcapTest.run(ModelTests.sample(sample, duration), List.of());
        int c = r.series.columns.indexOf(headline);
        assertTrue(c > 0, sample + ": no column " + headline + " in " + r.series.columns);
        long values = r.series.rows.stream().filter(row -> Double.isFinite(row[c])).count();
        assertTrue(values > 0, sample + ": the headline's column has no value");
        if (headline.endsWith("Mpps") || headline.endsWith("PerSecond") && !headline.endsWith("MbitPerSecond")) {
            // a rate: over each interval; weighted by the intervals, the whole run's rate
            double sum = 0;
            double span = 0;
            for (int i = 1; i < r.series.rows.size(); i++) {
                double[] row = r.series.rows.get(i);
                double dt = row[0] - r.series.rows.get(i - 1)[0];
                if (Double.isFinite(row[c])) {
                    sum += row[c] * dt;
                    span += dt;
                }
            }
            double whole = r.elements.get(headline.substring(0, headline.indexOf('.')))
                    .get(headline.substring(headline.indexOf('.') + 1));
            assertEquals(whole, sum / span, Math.max(whole * 0.05, 1e-9), sample + ": " + headline
                    + " over the intervals vs the whole run");
        }
    }
}
