package io.ringlab.cli;

import java.io.ByteArrayOutputStream;
import java.io.PrintStream;
import java.nio.charset.StandardCharsets;
import java.nio.file.Path;

import org.osgi.framework.BundleContext;
import org.osgi.service.component.annotations.Activate;
import org.osgi.service.component.annotations.Component;
import org.osgi.service.component.annotations.Reference;
import org.osgi.service.component.annotations.ReferenceCardinality;
import org.osgi.service.component.annotations.ReferencePolicy;
import org.osgi.service.component.runtime.ServiceComponentRuntime;

import io.ringlab.experiment.api.ExperimentService;
import io.ringlab.experiment.api.ResultsService;
import io.ringlab.sim.api.Simulator;

/**
 * The same commands in the Gogo shell: {@code ringlab:run FILE [options]}, {@code ringlab:ab FILE [options]},
 * {@code ringlab:elements}, {@code ringlab:pools}, {@code ringlab:bench}, {@code ringlab:results FILE}, {@code ringlab:plot FILE}, {@code ringlab:stats FILE}. Each prints what the command line prints and
 * returns its exit code; {@code --plugins DIR} installs a folder's bundles into the shell's framework for that command
 * only.
 */
@Component(service = GogoCommands.class, property = {"osgi.command.scope=ringlab", "osgi.command.function=run",
    "osgi.command.function=ab", "osgi.command.function=bench", "osgi.command.function=elements",
    "osgi.command.function=pools", "osgi.command.function=results", "osgi.command.function=plot",
    "osgi.command.function=stats"})
public class GogoCommands {
    @Reference
    Simulator simulator;
    @Reference
    ExperimentService experiments;
    @Reference
    ResultsService results;
    /** The cluster ({@code ringlab:ab FILE --cluster FILE}); optional. */
    @Reference(cardinality = ReferenceCardinality.OPTIONAL, policy = ReferencePolicy.DYNAMIC)
    volatile io.ringlab.experiment.api.ClusterService cluster;
    /** Declarative Services' runtime: tells {@code --plugins} why a plugin's component is not up. */
    @Reference(cardinality = ReferenceCardinality.OPTIONAL, policy = ReferencePolicy.DYNAMIC)
    volatile ServiceComponentRuntime scr;

    private BundleContext context;

    @Activate
    void activate(BundleContext bc) {
        this.context = bc;
    }

    private int exec(String command, String... args) {
        String[] all = new String[args.length + 1];
        all[0] = command;
        System.arraycopy(args, 0, all, 1, args.length);
        Runner runner = new Runner(simulator, experiments, results, new FrameworkPluginLoader(context, () -> scr));
        runner.cluster = () -> cluster;
        return Commands.execute(runner, System.out, System.err, Path.of(System.getProperty("ringlab.home", ".")), all);
    }

    /** @return the exit code of {@code ringlab results} */
    public int results(String... args) {
        return exec("results", args);
    }

    /** @return the exit code of {@code ringlab stats} */
    public int stats(String... args) {
        return exec("stats", args);
    }

    /** @return the exit code of {@code ringlab plot} */
    public int plot(String... args) {
        return exec("plot", args);
    }

    /** @return the exit code of {@code ringlab run}; {@code --control} is refused (standard input is the shell's) */
    public int run(String... args) {
        if (java.util.Arrays.asList(args).contains(io.ringlab.sim.api.RunControlProtocol.OPTION)) {
            System.err.println("ringlab:run: " + io.ringlab.sim.api.RunControlProtocol.OPTION + " reads standard input,"
                    + " which is the shell's here; use it with ./ringlab run");
            return Runner.INVALID;
        }
        return exec("run", args);
    }

    /** @return the exit code of {@code ringlab ab}. */
    public int ab(String... args) {
        return exec("ab", args);
    }

    /** @return the exit code of {@code ringlab bench}. */
    public int bench(String... args) {
        return exec("bench", args);
    }

    /** @return the exit code of {@code ringlab elements} ({@code --plugins DIR} is its only option). */
    public int elements(String... args) {
        return exec("elements", args);
    }

    /** @return the exit code of {@code ringlab pools} ({@code --plugins DIR} is its only option). */
    public int pools(String... args) {
        return exec("pools", args);
    }

    /** Captures a command's standard output, for tests. */
    static String capture(Simulator sim, ExperimentService experiments, ResultsService results, String... args) {
        ByteArrayOutputStream buf = new ByteArrayOutputStream();
        PrintStream ps = new PrintStream(buf, true, StandardCharsets.UTF_8);
        Commands.execute(new Runner(sim, experiments, results, PluginLoader.NONE), ps, ps, Path.of("."), args);
        return buf.toString(StandardCharsets.UTF_8);
    }
}
