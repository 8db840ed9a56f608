package io.ringlab.cli;

import java.io.ByteArrayOutputStream;
import java.io.IOException;
import java.io.PrintStream;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;

/**
 * Runs {@link Commands#execute} against a {@link FakeSimulator} and {@link FakeExperiments} with captured standard output
 * and error, and writes pipeline files for it.
 */
final class Cli {
    /** A small valid pipeline: name "tiny", headline sink.rxMpps. */
    static final String TINY = """
            name = "tiny"
            description = "a source straight into a sink"
            headline = sink.rxMpps

            element src : source {
                rate = 1Gbit
            }
            element sink : sink

            src -> sink
            """;

    final FakeSimulator simulator;
    final FakeExperiments experiments = new FakeExperiments();
    final FakeResults results = new FakeResults();
    final Path home;
    /** What {@code --plugins} installs with; refuses by default, as a command line without OSGi does. */
    PluginLoader plugins = PluginLoader.NONE;
    private final ByteArrayOutputStream outBuf = new ByteArrayOutputStream();
    private final ByteArrayOutputStream errBuf = new ByteArrayOutputStream();

    Cli(FakeSimulator simulator, Path home) {
        this.simulator = simulator;
        this.home = home;
    }

    /** @return the exit code of {@code ringlab args...}; output accumulates in {@link #out()} and {@link #err()}. */
    int execute(String... args) {
        PrintStream out = new PrintStream(outBuf, true, StandardCharsets.UTF_8);
        PrintStream err = new PrintStream(errBuf, true, StandardCharsets.UTF_8);
        int code = Commands.execute(new Runner(simulator, experiments, results, plugins), out, err, home, args);
        out.flush();
        err.flush();
        return code;
    }

    String out() {
        return outBuf.toString(StandardCharsets.UTF_8);
    }

    String err() {
        return errBuf.toString(StandardCharsets.UTF_8);
    }

    /** Writes {@code text} to {@code dir/name} and returns the file's path as a string. */
    static String write(Path dir, String name, String text) throws IOException {
        Path f = dir.resolve(name);
        Files.createDirectories(f.getParent());
        Files.writeString(f, text, StandardCharsets.UTF_8);
        return f.toString();
    }

    /** @return {@code true} if {@code text} looks like it holds a Java stack trace. */
    static boolean hasStackTrace(String text) {
        return text.contains("\tat ") || text.contains("Exception in thread") || text.matches("(?s).*\\n\\s+at [\\w$.]+\\(.*");
    }
}
