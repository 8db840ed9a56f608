package io.ringlab.workspace.tests;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.io.BufferedReader;
import java.io.InputStreamReader;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;
import java.util.concurrent.TimeUnit;
import java.util.regex.Matcher;
import java.util.regex.Pattern;

import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.ExtendWith;
import org.junit.jupiter.api.io.TempDir;
import org.osgi.framework.BundleContext;
import org.osgi.test.common.annotation.InjectBundleContext;
import org.osgi.test.common.annotation.InjectService;
import org.osgi.test.junit5.context.BundleContextExtension;
import org.osgi.test.junit5.service.ServiceExtension;

import io.ringlab.experiment.api.ResultsService;
import io.ringlab.experiment.api.dto.TableDTO;

/**
 * A sweep killed with SIGKILL half-way through (issue 18, section 2): started again, it runs only what the database
 * does not hold, and the database then holds every run exactly once, equal in every result to the same sweep run
 * without interruption. Runs {@code app/target/ringlab.jar} of this checkout in processes of their own; reads the two
 * databases with the results service.
 */
@ExtendWith({BundleContextExtension.class, ServiceExtension.class})
class ResumeAfterKillTest {
    /**
     * 2 variants x 6 ring sizes x 2 seeds = 24 runs of 300 ms simulated (some 30 ms each on one thread): the 16 runs
     * after the kill take long enough that the SIGKILL, sent once the 8th run's line is read, lands before they end (with
     * 30 ms runs of 3 ms, a fast process had recorded all 24 first).
     */
    private static final String EXPERIMENT = """
            name = "resume"
            pipeline = "%s"
            duration = 300ms
            seeds = 2
            metrics = [ping.rttP50Millis, eth0.ringUsed, sink.rxPackets]
            sweep eth0.ring = 16..512 *2
            variant off { set eth0.bql = false }
            variant on { set eth0.bql = true }
            """;
    /** Every column of a run that the engine decides (not the wall-clock ones), and every metric. */
    private static final String RUNS = "SELECT key, experiment, variant, seed, point, state, packet_conservation,"
            + " buffer_conservation, simulated_s, events, packets, \"eth0.ring\" FROM runs ORDER BY key";
    private static final String SCALARS = "SELECT run, element, metric, unit, value FROM scalars ORDER BY run, element,"
            + " metric";
    private static final Pattern RECORDED = Pattern.compile("(\\d+) runs? recorded now, (\\d+) taken from it");

    @InjectBundleContext
    BundleContext context;

    @TempDir
    Path dir;

    @Test
    void aSweepKilledHalfWayResumesAndHoldsEveryRunOnce(@InjectService ResultsService results) throws Exception {
        Path file = dir.resolve("resume.experiment");
        Files.writeString(file, EXPERIMENT.formatted(App.home(context).resolve("pipelines/netdev-bql.pipeline")));
        Path whole = dir.resolve("whole.duckdb");
        Path killed = dir.resolve("killed.duckdb");

        String uninterrupted = ab(file, whole, -1);
        assertTrue(uninterrupted.contains("24 runs recorded now, 0 taken from it"), uninterrupted);

        String first = ab(file, killed, 8); // SIGKILL once 8 runs have ended
        assertTrue(!first.contains("recorded now"), "killed before it could report:\n" + first);
        String resumed = ab(file, killed, -1);
        Matcher m = RECORDED.matcher(resumed);
        assertTrue(m.find(), resumed);
        int now = Integer.parseInt(m.group(1));
        int taken = Integer.parseInt(m.group(2));
        assertEquals(24, now + taken, resumed);
        assertTrue(taken >= 8 && now > 0, "the runs recorded before the kill were taken, the others run: " + resumed);

        TableDTO a = results.query(whole, RUNS);
        TableDTO b = results.query(killed, RUNS);
        assertEquals(24, a.rows.size());
        assertEquals(24, results.query(killed, "SELECT DISTINCT key FROM runs").rows.size(), "every run once");
        assertEquals(a.rows, b.rows, "the same runs, with the same results");
        assertEquals(results.query(whole, SCALARS).rows, results.query(killed, SCALARS).rows, "every metric the same");
        assertEquals(results.query(whole, "SELECT count(*) FROM series").rows,
                results.query(killed, "SELECT count(*) FROM series").rows);
    }

    /**
     * Runs {@code ringlab ab FILE --db DB --threads 1}; with {@code killAfter} &gt; 0, kills it with SIGKILL once that
     * many runs have ended.
     *
     * @return what it printed
     */
    private String ab(Path file, Path db, int killAfter) throws Exception {
        List<String> cmd = App.command(context, dir, "ab", file.toString(), "--db", db.toString(), "--threads", "1");
        Process p = new ProcessBuilder(cmd).directory(dir.toFile()).redirectErrorStream(true).start();
        StringBuilder output = new StringBuilder();
        Pattern ended = Pattern.compile("^(\\d+)/24 runs");
        try (BufferedReader r = new BufferedReader(new InputStreamReader(p.getInputStream(), StandardCharsets.UTF_8))) {
            for (String l; (l = r.readLine()) != null;) {
                output.append(l).append('\n');
                Matcher m = ended.matcher(l);
                if (killAfter > 0 && m.find() && Integer.parseInt(m.group(1)) >= killAfter) {
                    p.toHandle().destroyForcibly(); // SIGKILL: no shutdown hook, no close of the database
                    break;
                }
            }
        }
        assertTrue(p.waitFor(120, TimeUnit.SECONDS), "the process ended:\n" + output);
        return output.toString();
    }
}
