package io.ringlab.cli;

import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.Locale;
import java.util.concurrent.Callable;

import io.ringlab.experiment.api.ResultsException;
import io.ringlab.experiment.api.ResultsService;
import io.ringlab.experiment.api.dto.TableDTO;
import picocli.CommandLine.Command;
import picocli.CommandLine.Option;
import picocli.CommandLine.Parameters;

/**
 * {@code ringlab results FILE [--query SQL] [--csv OUT | --parquet OUT]}: a results database ({@code ringlab ab}'s
 * DuckDB file) read-only with SQL. Without {@code --query}, the experiments it holds with their runs; with
 * {@code --csv} or {@code --parquet} the query's result goes to the file (written whole or not at all) instead of the
 * table on standard output.
 */
@Command(name = "results", mixinStandardHelpOptions = true, header = "query a results database (DuckDB) with SQL, or export it",
        description = "Read a results database that ringlab ab wrote (docs/experiments.md, \"The results database\"): "
                + "without --query, the experiments it holds and their runs; with --query SQL, the query's rows; with "
                + "--csv or --parquet, the rows go to that file.",
        footer = {"%nExamples:",
            "  ./ringlab results results/stmmac-bql.duckdb",
            "  ./ringlab results results/stmmac-bql.duckdb --query \"SELECT variant, avg(value) FROM runs JOIN scalars ON"
                    + " scalars.run = runs.key WHERE element = 'ping' AND metric = 'rttP50Millis' GROUP BY variant\"",
            "  ./ringlab results results/stmmac-bql.duckdb --query \"SELECT * FROM scalars\" --parquet scalars.parquet"})
final class ResultsCommand implements Callable<Integer> {
    /** What the command shows without {@code --query}. */
    static final String OVERVIEW = "SELECT experiment, count(*) AS runs, count(*) FILTER (WHERE state = 'FINISHED') AS"
            + " finished, min(recorded_at) AS first, max(recorded_at) AS last FROM runs GROUP BY experiment ORDER BY"
            + " experiment";
    /** The widest a column of the table gets on standard output; longer values are cut with an ellipsis. */
    private static final int WIDEST = 60;

    private final Commands root;

    @Parameters(index = "0", paramLabel = "FILE", description = "the results database")
    String file;
    @Option(names = "--query", paramLabel = "SQL", description = "the query (DuckDB's SQL); default: the experiments and their runs")
    String query;
    @Option(names = "--csv", paramLabel = "OUT", description = "write the rows to OUT as CSV with a header line")
    String csv;
    @Option(names = "--parquet", paramLabel = "OUT", description = "write the rows to OUT as Parquet")
    String parquet;

    ResultsCommand(Commands root) {
        this.root = root;
    }

    @Override
    public Integer call() {
        ResultsService results = root.runner.results;
        if (results == null) {
            root.err.println("ringlab results: no results database service is installed (bundle io.ringlab.results)");
            return Runner.FAILED;
        }
        if (csv != null && parquet != null) {
            root.err.println("ringlab results: give --csv or --parquet, not both");
            return Runner.INVALID;
        }
        String sql = query != null ? query : OVERVIEW;
        try {
            if (csv != null || parquet != null) {
                String out = csv != null ? csv : parquet;
                long rows = results.export(Path.of(file), sql, Path.of(out), csv != null ? "csv" : "parquet");
                root.out.printf(Locale.ROOT, "%,d row%s written to %s%n", rows, rows == 1 ? "" : "s", out);
                return Runner.OK;
            }
            print(results.query(Path.of(file), sql));
            return Runner.OK;
        } catch (ResultsException e) {
            root.err.println("ringlab results: " + e.getMessage());
            return Runner.INVALID;
        }
    }

    /** Prints a table with a header line, columns as wide as their widest value (at most {@link #WIDEST}). */
    private void print(TableDTO t) {
        int n = t.columns.size();
        int[] width = new int[n];
        List<String[]> cells = new ArrayList<>();
        String[] header = t.columns.toArray(new String[0]);
        cells.add(header);
        for (List<Object> row : t.rows) {
            String[] c = new String[n];
            for (int i = 0; i < n; i++) {
                c[i] = cell(row.get(i));
            }
            cells.add(c);
        }
        for (String[] c : cells) {
            for (int i = 0; i < n; i++) {
                width[i] = Math.min(WIDEST, Math.max(width[i], c[i].length()));
            }
        }
        for (String[] c : cells) {
            StringBuilder sb = new StringBuilder();
            for (int i = 0; i < n; i++) {
                String v = c[i].length() > WIDEST ? c[i].substring(0, WIDEST - 1) + "…" : c[i];
                sb.append(i == 0 ? "" : "  ").append(String.format(Locale.ROOT, "%-" + width[i] + "s", v));
            }
            root.out.println(sb.toString().stripTrailing());
        }
        root.out.printf(Locale.ROOT, "(%,d row%s)%n", t.rows.size(), t.rows.size() == 1 ? "" : "s");
    }

    /** @return a value as the table shows it: numbers as people read them, NULL for none */
    private static String cell(Object v) {
        if (v == null) {
            return "NULL";
        }
        if (v instanceof Double d) {
            return io.ringlab.pipeline.format.Numbers.exact(d);
        }
        return v.toString();
    }
}
