package io.ringlab.console;

import java.util.List;

import io.ringlab.pipeline.format.Units;
import io.ringlab.sim.api.dto.RunOptionsDTO;

/**
 * The run panel's fields turned into {@link RunOptionsDTO}, without widgets, with the command line's rules: the duration
 * in the pipeline files' time grammar ({@code 20ms}), more than zero, empty for the file's own; the seed a whole number,
 * empty for the file's; the speed one of {@link #SPEEDS}.
 */
final class RunInputs {
    /** Speed choices, and the real-time factor of each (0: as fast as possible). */
    static final List<String> SPEEDS = List.of("as fast as possible", "real time (1x)", "0.1x real time", "0.01x real time",
            "0.001x real time");
    private static final double[] FACTORS = { 0, 1, 0.1, 0.01, 0.001 };

    /** Wall-clock interval at which the engine publishes snapshots; the console polls at the same rate (10 Hz). */
    static final long SNAPSHOT_MILLIS = 100;

    private RunInputs() {
    }

    /**
     * @param duration the duration field's text; empty or blank for the pipeline's duration
     * @param seed the seed field's text; empty or blank for the pipeline's seed
     * @param speed an index into {@link #SPEEDS}
     * @return the options
     * @throws IllegalArgumentException naming the field and what it accepts
     */
    static RunOptionsDTO options(String duration, String seed, int speed) {
        RunOptionsDTO o = new RunOptionsDTO();
        if (duration != null && !duration.isBlank()) {
            try {
                o.durationPicos = Units.parsePicos(duration.strip());
            } catch (IllegalArgumentException e) {
                throw new IllegalArgumentException("Duration: " + e.getMessage());
            }
            if (o.durationPicos <= 0) {
                throw new IllegalArgumentException("Duration: must be more than 0s");
            }
        }
        if (seed != null && !seed.isBlank()) {
            try {
                o.seed = Units.parseInteger(seed.strip()); // the file's integer grammar, as the file's seed and --seed
            } catch (IllegalArgumentException e) {
                throw new IllegalArgumentException("Seed: " + e.getMessage());
            }
        }
        if (speed < 0 || speed >= FACTORS.length) {
            throw new IllegalArgumentException("Speed: choose one of " + SPEEDS);
        }
        o.realTimeFactor = FACTORS[speed];
        o.snapshotIntervalMillis = SNAPSHOT_MILLIS;
        return o;
    }
}
