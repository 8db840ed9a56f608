package io.ringlab.cli;

import java.io.IOException;
import java.io.Reader;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.NoSuchFileException;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.Callable;
import java.util.function.Function;

import io.ringlab.pipeline.format.ResultJson;
import io.ringlab.pipeline.format.TestbedViews;
import io.ringlab.sim.api.dto.ElementDescriptorDTO;
import io.ringlab.sim.api.dto.RunResultDTO;
import picocli.CommandLine.Command;
import picocli.CommandLine.Option;
import picocli.CommandLine.Parameters;

/**
 * {@code ringlab stats RESULT.json [--tc] [--ethtool] [--bql] [--dev DEV]}: a run's end-of-run counters in the layouts
 * of {@code tc -s qdisc show}, {@code ethtool -S} and the BQL sysfs files ({@link TestbedViews}).
 */
@Command(name = "stats", mixinStandardHelpOptions = true, header = "print a result's counters as tc -s qdisc, ethtool -S and BQL sysfs show them",
        description = "Print the end-of-run counters of a result (ringlab run --json) in the layouts of the testbed's tools,"
                + " so that a simulated and a measured run can be read side by side (docs/testbed-views.md): --tc as"
                + " iproute2's 'tc -s qdisc show', --ethtool as 'ethtool -S DEV' with the kernel driver's counter names,"
                + " --bql as 'grep . /sys/class/net/DEV/queues/tx-0/byte_queue_limits/*'. Without a view option, all"
                + " three, each under a '# command' line. Counters count the measured window; backlogs and limits are"
                + " their values at the end.",
        footer = {"%nExamples:",
            "  ./ringlab stats out.json --tc",
            "  ./ringlab stats out.json --ethtool --dev eth0",
            "  ./ringlab run pipelines/stmmac-bql-100m.pipeline --print tc,bql"})
final class StatsCommand implements Callable<Integer> {
    private final Commands root;

    @Parameters(index = "0", paramLabel = "RESULT", description = "a result file (ringlab run --json)")
    String file;
    @Option(names = "--tc", description = "the qdiscs, as 'tc -s qdisc show' (iproute2 6.1)")
    boolean tc;
    @Option(names = "--ethtool", description = "the drivers' counters, as 'ethtool -S DEV'")
    boolean ethtool;
    @Option(names = "--bql", description = "the drivers' byte queue limits, as their sysfs files")
    boolean bql;
    @Option(names = "--dev", paramLabel = "DEV", description = "only this device (a driver element of the run)")
    String dev;

    StatsCommand(Commands root) {
        this.root = root;
    }

    @Override
    public Integer call() {
        RunResultDTO r;
        try (Reader in = Files.newBufferedReader(Path.of(file), StandardCharsets.UTF_8)) {
            r = ResultJson.read(in, RunResultDTO.class);
        } catch (NoSuchFileException e) {
            root.err.println("ringlab stats: " + file + ": no such file");
            return Runner.INVALID;
        } catch (IOException | RuntimeException e) {
            root.err.println("ringlab stats: " + file + ": not a result file (ringlab run --json): " + e.getMessage());
            return Runner.INVALID;
        }
        if (r == null) {
            root.err.println("ringlab stats: " + file + ": empty");
            return Runner.INVALID;
        }
        List<String> views = new ArrayList<>();
        if (tc) {
            views.add(TestbedViews.TC);
        }
        if (ethtool) {
            views.add(TestbedViews.ETHTOOL);
        }
        if (bql) {
            views.add(TestbedViews.BQL);
        }
        boolean headers = views.isEmpty();
        try {
            root.out.print(TestbedViews.print(r, headers ? TestbedViews.ALL : views, dev, headers, root.runner.types()));
            return Runner.OK;
        } catch (TestbedViews.NotApplicable e) {
            root.err.println("ringlab stats: " + file + ": " + e.getMessage());
            return Runner.INVALID;
        }
    }
}
