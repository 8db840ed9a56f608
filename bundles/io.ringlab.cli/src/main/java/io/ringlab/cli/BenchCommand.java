package io.ringlab.cli;

import java.io.IOException;
import java.io.PrintStream;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;

import io.ringlab.sim.api.dto.RunResultDTO;

import picocli.CommandLine.Command;
import picocli.CommandLine.Option;
import picocli.CommandLine.Parameters;

/** {@code ringlab bench}: simulated packets per engine CPU second and per wall second, for the sample pipelines. */
@Command(name = "bench", mixinStandardHelpOptions = true, header = "measure simulated packets per engine CPU second and per wall second", description = "Measure simulated packets per second of the engine thread's CPU time and per wall second, events per wall second on one core, and heap bytes"
        + " allocated per simulated packet, for the line-rate pipeline and every file in pipelines/ (or the FILEs given).",
        footer = {"%nExamples:", "  ./ringlab bench", "  ./ringlab bench pipelines/netdev-line-rate.pipeline --duration 100ms --json -"})
final class BenchCommand extends Commands.PluginCommand {

    @Parameters(paramLabel = "FILE", arity = "0..*", description = "pipeline files (default: the line-rate pipeline and pipelines/*)")
    List<String> files = new ArrayList<>();
    @Option(names = "--json", paramLabel = "OUT|-", description = "write the figures as JSON to OUT, or to stdout with -")
    String json;
    @Option(names = "--duration", paramLabel = "D", description = "simulated time per pipeline (default: each file's own)")
    String duration;

    BenchCommand(Commands root) {
        super(root);
    }

    @Override
    Integer work() throws IOException {
        PrintStream human = root.human(json);
        List<String> targets = new ArrayList<>(files);
        if (targets.isEmpty()) {
            targets.add("builtin:line-rate");
            targets.addAll(Runner.pipelinesIn(root.home.resolve("pipelines")));
        }
        if (!root.outputsWritable("--json", json)) {
            return Runner.INVALID;
        }
        List<Map<String, Object>> results = new ArrayList<>();
        human.printf("%-40s %22s %22s %16s %14s%n", "pipeline", "sim packets/CPU s", "sim packets/wall s",
                "events/wall s", "alloc B/pkt");
        int worst = Runner.OK;
        for (String f : targets) {
            // warm-up run: lets the JIT compile the hot paths before the measured run
            String warm = duration;
            Runner.Outcome w = root.runner.run(Runner.Request.of(f, warm));
            if (w.result() == null) {
                root.err.println(w.message());
                worst = Math.max(worst, w.exitCode());
                continue;
            }
            Runner.Outcome o = root.runner.run(Runner.Request.of(f, duration));
            RunResultDTO r = o.result();
            if (r == null) {
                root.err.println(o.message());
                worst = Math.max(worst, o.exitCode());
                continue;
            }
            if (o.exitCode() != Runner.OK) {
                root.err.println(f + ": " + (o.message() != null ? o.message()
                        : "an invariant is broken: " + r.invariants.violations));
                worst = Math.max(worst, o.exitCode());
            }
            double pps = r.wallMeasurements.getOrDefault("packetsPerSecond", 0.0);
            double cpuPps = r.wallMeasurements.getOrDefault("packetsPerCpuSecond", 0.0);
            double eps = r.wallMeasurements.getOrDefault("eventsPerSecond", 0.0);
            double alloc = r.wallMeasurements.getOrDefault("engineAllocatedBytes", -1.0);
            double perPacket = alloc < 0 || r.packets == 0 ? Double.NaN : alloc / r.packets;
            Map<String, Object> row = new LinkedHashMap<>();
            row.put("pipeline", r.pipeline + " (" + f + ")");
            row.put("simulatedPacketsPerCpuSecond", cpuPps);
            row.put("simulatedPacketsPerSecond", pps);
            row.put("eventsPerSecond", eps);
            row.put("allocatedBytesPerPacket", perPacket);
            row.put("simulatedSeconds", r.simulatedSeconds);
            row.put("packets", r.packets);
            results.add(row);
            human.printf("%-40s %,22.0f %,22.0f %,16.0f %14.4f%n", r.pipeline, cpuPps, pps, eps, perPacket);
        }
        if (json != null && !root.writeOutput("--json", json, Commands.json(Map.of("results", results)), null, "result")) {
            worst = Math.max(worst, Runner.FAILED);
        }
        return worst;
    }
}
