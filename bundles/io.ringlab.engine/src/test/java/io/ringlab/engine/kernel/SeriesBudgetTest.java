package io.ringlab.engine.kernel;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import org.junit.jupiter.api.Test;

import io.ringlab.pipeline.format.PipelineReader;
import io.ringlab.sim.api.dto.RunOptionsDTO;
import io.ringlab.sim.api.dto.RunResultDTO;

/** The series' memory budget: rows times columns within {@link Simulation#SERIES_MAX_VALUES}, and a run says where they stop. */
class SeriesBudgetTest {
    @Test
    void rowsFollowTheDurationWithinBothBudgets() {
        long s = 1_000_000_000_000L, ms = s / 1000;
        assertEquals(202, Simulation.seriesRows(200 * ms, ms, 10), "one per interval, the sample at 0 and one spare");
        assertEquals(1_000_000, Simulation.seriesRows(1000 * s, ms, 45), "the million-row benchmark, 45 M values, fits");
        assertEquals(50_000, Simulation.seriesRows(1000 * s, ms, 1000), "1,000 values a row: 50 million values");
        assertEquals(2, Simulation.seriesRows(s, ms, 100_000_000), "never fewer than two rows");
    }

    @Test
    void aRunWhoseSeriesOutgrowTheBudgetSaysWhereTheyStopAndWhatCoversIt() throws Exception {
        // ten source-sink pairs (over a hundred columns) at a 1 ns interval for 100 ms: 100 million samples, of which
        // fewer than a million rows fit the 50 million values
        StringBuilder text = new StringBuilder("name = \"budget\"\nduration = 100ms\n");
        for (int i = 0; i < 10; i++) {
            text.append("element src").append(i).append(" : source {\n    rate = 1Mbit\n}\n");
            text.append("element sink").append(i).append(" : sink\n");
            text.append("src").append(i).append(" -> sink").append(i).append('\n');
        }
        RunOptionsDTO o = new RunOptionsDTO();
        o.seed = 1L;
        o.snapshotIntervalMillis = 0;
        o.seriesIntervalPicos = 1_000; // 1 ns
        RunResultDTO r = new PipelineBuilder(new TestRegistry()).build(PipelineReader.read("budget.pipeline", text.toString()), o).run();
        int width = r.series.columns.size();
        int rows = Simulation.seriesRows(100_000_000_000L, 1_000, width);

        assertTrue(rows < Simulation.SERIES_MAX_ROWS, "the values bind, not the rows: " + width + " values a row");
        assertEquals(Simulation.SERIES_MAX_VALUES / width, rows);
        assertEquals(rows, r.series.rows.size(), "sampling stops when the rows are used up");
        String warning = Simulation.seriesBudgetWarning(100_000_000_000L, 1_000, width, rows);
        assertEquals(1L, r.warnings.get(warning), r.warnings.toString());
        assertTrue(warning.startsWith("the series stop at "), warning);
        assertTrue(warning.contains(" of 100ms: " + rows + " rows of " + width + " values are all the series hold"), warning);
    }
}
