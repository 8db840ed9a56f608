package io.ringlab.sim.api.dto;

/**
 * One hot swap applied during a run: the implementation behind an element replaced at a safe point of virtual time, the
 * old instance's state handed over to the new one (or drained when either side cannot hand over).
 *
 * @since 1.3
 */
public class SwapDTO {
    /** Virtual time of the safe point the swap was applied at, in seconds. */
    public double atSimulatedSeconds;
    /** The element's name in the pipeline. */
    public String element;
    /** The implementation before: {@code type@bundleVersion}. */
    public String from;
    /** The implementation after: {@code type@bundleVersion}; equal to {@link #from} when the swap failed. */
    public String to;
    /** {@code true} when the old instance exported its state and the new one imported it; {@code false} for a drain. */
    public boolean handover;
    /** {@code false} when the new implementation failed to initialise and the old one kept running. */
    public boolean applied;
    /** Why the swap failed, or why it fell back to a drain; {@code null} otherwise. */
    public String message;
    /** Wall-clock time the engine spent in the swap, in milliseconds (a host measurement, not deterministic). */
    public double pauseWallMillis;
    /** Packets the new instance took over (held by the old one at the safe point). */
    public long packetsTransferred;
    /** Packets the swap dropped (a drain), counted under the drop reason {@code swap-drain}. */
    public long packetsDropped;
    /** Buffers the new instance took over. */
    public long buffersTransferred;
    /** The hash of the run's state at the safe point, before the swap (16 hex digits; see {@link RunResultDTO#forkStateHash}). */
    public String stateHash;
}
