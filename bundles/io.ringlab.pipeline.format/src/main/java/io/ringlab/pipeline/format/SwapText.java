package io.ringlab.pipeline.format;

import java.util.Locale;

import io.ringlab.sim.api.dto.SwapDTO;

/**
 * A hot swap's record in the words the command line's summary and the console both print, so that they can be compared
 * line by line: {@code swap at 20ms: eth0 netdev@0.1.0 -> netdev@0.1.0: handover, 254 packet(s) handed over, 0 dropped,
 * 0.3 ms of wall time}.
 */
public final class SwapText {
    private SwapText() {
    }

    /**
     * @param s a swap's record; never {@code null}
     * @return one line, without a newline
     */
    public static String of(SwapDTO s) {
        String how = !s.applied ? "NOT APPLIED" : s.handover ? "handover" : "drain and restart";
        return String.format(Locale.ROOT, "swap at %s: %s %s -> %s: %s, %,d packet(s) handed over, %,d dropped, %.1f ms of wall"
                + " time%s", Units.formatPicos(Math.round(s.atSimulatedSeconds * 1e12)), s.element, s.from, s.to, how,
                s.packetsTransferred, s.packetsDropped, s.pauseWallMillis, s.message == null ? "" : " (" + s.message + ")");
    }
}
