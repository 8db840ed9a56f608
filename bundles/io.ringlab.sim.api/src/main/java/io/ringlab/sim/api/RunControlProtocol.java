package io.ringlab.sim.api;

/**
 * The words of {@code ringlab run --control}: the run takes one command a line on standard input while it runs, and
 * answers a swap with a line of its standard output. The console's separate-process runs speak it to their child
 * process; the cli bundle's {@code RunControl} carries it out. Each word is written here once.
 *
 * @since 1.4
 */
public final class RunControlProtocol {
    /** The option of {@code ringlab run} that turns the protocol on. */
    public static final String OPTION = "--control";
    /** Commands, as {@link SimulationRun} has them. */
    public static final String PAUSE = "pause", RESUME = "resume", STEP = "step", STOP = "stop";
    /** {@code swap ELEMENT [TYPE[@VERSION]] [#ID]}: a live swap at the run's next safe point. */
    public static final String SWAP = "swap";
    /** Between a swap's TYPE and its VERSION. */
    public static final String VERSION_SEPARATOR = "@";
    /** The start of a swap's id, the command's last word, which its reply repeats. */
    public static final String ID_PREFIX = "#";
    /**
     * The start of the line that reports a swap's outcome: then {@code #ID } when the command gave one, then the
     * {@code SwapDTO} as JSON on the rest of the line.
     */
    public static final String SWAP_REPLY = "ringlab-control swap ";

    private RunControlProtocol() {
    }
}
