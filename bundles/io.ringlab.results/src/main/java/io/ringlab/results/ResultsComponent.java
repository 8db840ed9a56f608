package io.ringlab.results;

import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.StandardCopyOption;
import java.sql.Connection;
import java.sql.SQLException;
import java.sql.Statement;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.Locale;
import java.util.Objects;
import java.util.UUID;

import org.osgi.framework.BundleContext;
import org.osgi.service.component.annotations.Activate;
import org.osgi.service.component.annotations.Component;
import org.osgi.service.component.annotations.Reference;

import io.ringlab.experiment.api.ResultsException;
import io.ringlab.experiment.api.ResultsService;
import io.ringlab.experiment.api.RunStore;
import io.ringlab.experiment.api.dto.RunSummaryDTO;
import io.ringlab.experiment.api.dto.ScalarDTO;
import io.ringlab.experiment.api.dto.TableDTO;
import io.ringlab.sim.api.Simulator;
import io.ringlab.sim.api.dto.SeriesDTO;

/**
 * The {@link ResultsService}: writers get a {@link DuckStore}; every read opens the file read-only ({@link Database}),
 * answers from it ({@link Reading}) and closes it, so a reader holds DuckDB's lock on the file only while it reads.
 * DuckDB's driver is loaded on the first database opened ({@link DuckDb}).
 * <p>
 * Thread-safe: it keeps no state between calls but the framework's context.
 */
@Component(service = ResultsService.class)
public class ResultsComponent implements ResultsService {

    /** The engine, for the element types' units and property kinds; package-private so that tests set a fake one. */
    @Reference
    Simulator simulator;

    /** The bundle's context, to find DuckDB's bundle; {@code null} outside a framework (tests). */
    volatile BundleContext context;

    /** @param context the bundle's context */
    @Activate
    void activate(BundleContext context) {
        this.context = context;
    }

    @Override
    public RunStore openForWriting(Path database, Duration wait) throws ResultsException {
        Objects.requireNonNull(database, "database");
        Objects.requireNonNull(wait, "wait");
        return DuckStore.open(DuckDb.driver(context), database, wait, Catalog.of(simulator));
    }

    @Override
    public List<String> experiments(Path database) throws ResultsException {
        return read(database, c -> {
            List<String> names = new ArrayList<>();
            for (List<Object> row : Reading.table(c, "SELECT DISTINCT experiment FROM runs ORDER BY experiment").rows) {
                names.add((String) row.get(0));
            }
            return names;
        });
    }

    @Override
    public List<RunSummaryDTO> runs(Path database, String experiment) throws ResultsException {
        Objects.requireNonNull(experiment, "experiment");
        return read(database, c -> {
            List<String> metrics = Reading.metrics(c, experiment);
            return Reading.summaries(c, Reading.EXPERIMENT, experiment, metrics);
        });
    }

    @Override
    public List<ScalarDTO> scalars(Path database, String experiment, String metric) throws ResultsException {
        Objects.requireNonNull(experiment, "experiment");
        Objects.requireNonNull(metric, "metric");
        return read(database, c -> Reading.scalars(c, experiment, metric));
    }

    @Override
    public SeriesDTO series(Path database, String runKey) throws ResultsException {
        Objects.requireNonNull(runKey, "runKey");
        return read(database, c -> Reading.series(c, runKey));
    }

    @Override
    public TableDTO query(Path database, String sql) throws ResultsException {
        Objects.requireNonNull(sql, "sql");
        Connection c = Database.openForReading(DuckDb.driver(context), database);
        try {
            return Reading.table(c, sql);
        } catch (SQLException | RuntimeException e) {
            throw queryFailed(database, e);
        } finally {
            Database.release(c);
        }
    }

    @Override
    public long export(Path database, String sql, Path out, String format) throws ResultsException {
        Objects.requireNonNull(sql, "sql");
        Objects.requireNonNull(out, "out");
        String options = switch (String.valueOf(format).toLowerCase(Locale.ROOT)) {
            case "csv" -> "(FORMAT CSV, HEADER)";
            case "parquet" -> "(FORMAT PARQUET)";
            default -> throw new ResultsException(out + ": cannot export as '" + format + "': the formats are csv and parquet");
        };
        Path folder = out.toAbsolutePath().getParent();
        if (folder == null || !Files.isDirectory(folder)) {
            throw new ResultsException(out + ": cannot export there: the folder " + folder + " does not exist");
        }
        if (Files.isDirectory(out)) {
            throw new ResultsException(out + ": cannot export there: it is a folder");
        }
        Path tmp = folder.resolve("." + out.getFileName() + "." + UUID.randomUUID() + ".tmp");
        Connection c = Database.openForReading(DuckDb.driver(context), database);
        try {
            long rows;
            try (Statement s = c.createStatement()) {
                s.execute("COPY (" + stripSemicolons(sql) + ") TO " + Schema.literal(tmp.toString()) + " " + options);
                rows = s.getUpdateCount();
            } catch (SQLException | RuntimeException e) {
                throw queryFailed(database, e);
            }
            try {
                Files.move(tmp, out, StandardCopyOption.ATOMIC_MOVE, StandardCopyOption.REPLACE_EXISTING);
            } catch (IOException e) {
                throw new ResultsException(out + ": cannot replace it with the export: " + e, e);
            }
            return rows;
        } finally {
            Database.release(c);
            try {
                Files.deleteIfExists(tmp);
            } catch (IOException e) {
                // a stray temporary file, named as such, is all that is left; the failure was reported
            }
        }
    }

    /** @return a query without the semicolons and blank space that may end it, which a sub-query must not have */
    static String stripSemicolons(String sql) {
        String s = sql.strip();
        while (s.endsWith(";")) {
            s = s.substring(0, s.length() - 1).strip();
        }
        return s;
    }

    private static ResultsException queryFailed(Path database, Exception e) {
        return new ResultsException(database + ": the query failed: " + String.valueOf(e.getMessage()).strip(), e);
    }

    /** A read of an open database. */
    private interface Read<T> {
        T apply(Connection c) throws SQLException;
    }

    private <T> T read(Path database, Read<T> read) throws ResultsException {
        Objects.requireNonNull(database, "database");
        Connection c = Database.openForReading(DuckDb.driver(context), database);
        try {
            return read.apply(c);
        } catch (SQLException | RuntimeException e) {
            throw new ResultsException(database + ": cannot be read: " + Database.firstLine(String.valueOf(e.getMessage())),
                    e);
        } finally {
            Database.release(c);
        }
    }
}
