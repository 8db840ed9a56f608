package io.ringlab.cli;

import java.nio.file.Path;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;

import io.ringlab.experiment.api.ResultsException;
import io.ringlab.experiment.api.ResultsService;
import io.ringlab.experiment.api.RunStore;
import io.ringlab.experiment.api.dto.ExperimentDTO;
import io.ringlab.experiment.api.dto.RunSummaryDTO;
import io.ringlab.experiment.api.dto.ScalarDTO;
import io.ringlab.experiment.api.dto.TableDTO;
import io.ringlab.sim.api.dto.RunResultDTO;
import io.ringlab.sim.api.dto.SeriesDTO;

/**
 * A {@link ResultsService} for the command tests: {@link #openForWriting} records the file and the wait and hands back
 * a store that finds nothing and records what it is given; {@link #query} and {@link #export} record their arguments and
 * return {@link #table}. Each may throw a configured {@link ResultsException} instead.
 */
class FakeResults implements ResultsService {
    /** The files opened for writing, in order. */
    final List<Path> opened = new ArrayList<>();
    /** The waits given to {@link #openForWriting}. */
    final List<Duration> waits = new ArrayList<>();
    /** The summaries recorded by the stores handed out. */
    final List<RunSummaryDTO> recorded = new ArrayList<>();
    /** What {@link #query} returns. */
    TableDTO table = new TableDTO();
    /** The last query and export: database, sql, out, format. */
    final List<String> calls = new ArrayList<>();
    /** If set, every method throws it. */
    ResultsException failure;
    /** What {@link #experiments} returns. */
    List<String> experimentNames = new ArrayList<>();
    /** What {@link #runs} returns. */
    List<RunSummaryDTO> runList = new ArrayList<>();
    /** What {@link #scalars} returns. */
    List<ScalarDTO> scalarList = new ArrayList<>();
    /** What {@link #query} returns for a query of the {@code parameters} table; {@code null} for {@link #table}. */
    TableDTO parameterTable;
    /** Whether the last store was closed. */
    boolean closed;

    @Override
    public RunStore openForWriting(Path database, Duration wait) throws ResultsException {
        fail();
        opened.add(database);
        waits.add(wait);
        closed = false;
        return new RunStore() {
            @Override
            public RunSummaryDTO find(String key) {
                return null;
            }

            @Override
            public void record(ExperimentDTO experiment, List<RunSummaryDTO> summaries, List<RunResultDTO> results) {
                recorded.addAll(summaries);
            }

            @Override
            public void close() {
                closed = true;
            }
        };
    }

    @Override
    public List<String> experiments(Path database) throws ResultsException {
        fail();
        return experimentNames;
    }

    @Override
    public List<RunSummaryDTO> runs(Path database, String experiment) throws ResultsException {
        fail();
        return runList;
    }

    @Override
    public List<ScalarDTO> scalars(Path database, String experiment, String metric) throws ResultsException {
        fail();
        return scalarList.stream().filter(x -> metric.equals(x.element + "." + x.metric)).toList();
    }

    @Override
    public SeriesDTO series(Path database, String runKey) throws ResultsException {
        fail();
        return null;
    }

    @Override
    public TableDTO query(Path database, String sql) throws ResultsException {
        fail();
        calls.add("query " + database + " " + sql);
        return parameterTable != null && sql.contains("FROM parameters") ? parameterTable : table;
    }

    @Override
    public long export(Path database, String sql, Path out, String format) throws ResultsException {
        fail();
        calls.add("export " + database + " " + sql + " " + out + " " + format);
        return table.rows.size();
    }

    private void fail() throws ResultsException {
        if (failure != null) {
            throw failure;
        }
    }
}
