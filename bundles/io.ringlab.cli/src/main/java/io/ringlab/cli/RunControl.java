package io.ringlab.cli;

import static io.ringlab.sim.api.RunControlProtocol.*;

import java.io.BufferedReader;
import java.io.IOException;
import java.io.InputStream;
import java.io.InputStreamReader;
import java.io.PrintStream;
import java.nio.charset.StandardCharsets;

import io.ringlab.sim.api.SimulationRun;
import io.ringlab.sim.api.dto.SwapDTO;

/**
 * {@code ringlab run --control}: the run takes commands on standard input, one per line, while it runs (the console's
 * separate-process runs use it for Pause, Resume, Step and Swap):
 * <ul>
 * <li>{@code pause}, {@code resume}, {@code step}, {@code stop}: as {@link SimulationRun} has them;</li>
 * <li>{@code swap ELEMENT [TYPE[@VERSION]] [#ID]}: a live swap at the run's next safe point; its outcome is printed on
 * standard output as one line, {@link io.ringlab.sim.api.RunControlProtocol#SWAP_REPLY}, then {@code #ID } when the
 * command gave one, then the
 * {@link SwapDTO} as JSON.</li>
 * </ul>
 * A line that is none of these is answered on standard error with what is allowed, and the run goes on. The end of
 * standard input stops the run: whoever controlled it is gone (the console that started a separate-process run and
 * crashed), and a paused run would otherwise wait for ever.
 */
final class RunControl implements AutoCloseable {
    private final SimulationRun run;
    private final PrintStream out;
    private final PrintStream err;
    private final Thread thread;
    /** The run has ended and the command closed this control: the end of input stops nothing any more. */
    private volatile boolean closed;

    private RunControl(SimulationRun run, InputStream in, PrintStream out, PrintStream err) {
        this.run = run;
        this.out = out;
        this.err = err;
        thread = new Thread(() -> read(in), "ringlab-control");
        thread.setDaemon(true); // blocked in a read of standard input: nothing to wait for at the end
        thread.start();
    }

    /** @return a watcher that reads commands from {@code in}, replying on {@code out} and {@code err} */
    static Runner.Watcher from(InputStream in, PrintStream out, PrintStream err) {
        return Runner.Watcher.every(Long.MAX_VALUE, (run, pipeline) -> new RunControl(run, in, out, err));
    }

    private void read(InputStream in) {
        try {
            BufferedReader r = new BufferedReader(new InputStreamReader(in, StandardCharsets.UTF_8));
            for (String line; (line = r.readLine()) != null;) {
                if (!line.isBlank()) {
                    command(line.strip());
                }
            }
            if (!closed) {
                err.println("ringlab: " + OPTION + ": standard input ended; the run stops");
                run.stop();
            }
        } catch (IOException e) {
            err.println("ringlab: " + OPTION + ": standard input: " + e.getMessage() + "; no more commands for this run");
        }
    }

    /** Carries out one command line. */
    void command(String line) {
        String[] w = line.split("\\s+");
        switch (w[0]) {
            case PAUSE -> run.pause();
            case RESUME -> run.resume();
            case STEP -> run.step();
            case STOP -> run.stop();
            case SWAP -> swap(line, w);
            default -> refuse(line);
        }
    }

    /** {@code swap ELEMENT [TYPE[@VERSION]] [#ID]}. */
    private void swap(String line, String[] w) {
        int n = w.length;
        String id = n > 2 && w[n - 1].startsWith(ID_PREFIX) ? w[--n] : null;
        if (n < 2 || n > 3) {
            refuse(line);
            return;
        }
        String type = null;
        String version = null;
        if (n == 3) {
            int at = w[2].indexOf(VERSION_SEPARATOR);
            type = at < 0 ? w[2] : w[2].substring(0, at);
            version = at < 0 ? null : w[2].substring(at + VERSION_SEPARATOR.length());
        }
        run.swap(w[1], type, version).thenAccept(d -> {
            synchronized (out) {
                out.println(SWAP_REPLY + (id == null ? "" : id + " ") + Json.compact(d));
                out.flush();
            }
        });
    }

    private void refuse(String line) {
        err.println("ringlab: " + OPTION + ": '" + line + "' is not a command; allowed: " + String.join(", ", PAUSE, RESUME,
                STEP, STOP) + ", " + SWAP + " ELEMENT [TYPE[" + VERSION_SEPARATOR + "VERSION]] [" + ID_PREFIX + "ID]");
    }

    /** Waits until the input has ended and every command on it was carried out (for tests). */
    void join() throws InterruptedException {
        thread.join();
    }

    @Override
    public void close() {
        closed = true;
        thread.interrupt(); // a thread blocked in a read stays until the process ends (a daemon)
    }
}
