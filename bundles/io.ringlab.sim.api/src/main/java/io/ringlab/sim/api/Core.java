package io.ringlab.sim.api;

import org.osgi.annotation.versioning.ProviderType;

/**
 * A simulated CPU core: a resource that executes {@link CpuTask}s one at a time, in priority order of their work class
 * (hard IRQ before softirq before transmit before application), first come first served within a class, without
 * preemption.
 * <p>
 * A task starts when the core is free. While it runs it charges cycles with {@link #charge}; each charge advances the
 * task's clock, which {@link ElementContext#nowPicos()} returns, so packets a NAPI poll hands on carry the time at which the
 * poll reached them. The core stays busy until the task's clock; tasks submitted meanwhile wait. Cycles are converted at
 * the cost profile's frequency.
 * <p>
 * Not thread-safe.
 */
@ProviderType
public interface Core {

    /** Work class: hard interrupt handler. */
    int HARDIRQ = 0;
    /** Work class: softirq, NAPI poll ({@code NET_RX_SOFTIRQ}, {@code NET_TX_SOFTIRQ}). */
    int SOFTIRQ = 1;
    /** Work class: transmit path from process context. */
    int TX = 2;
    /** Work class: application work (a proxy, a socket reader). */
    int APP = 3;

    /** @return the core's index. */
    int index();

    /** @return the core's clock frequency in hertz. */
    long frequencyHz();

    /**
     * Queues a task. If the core is free, a dispatch event is armed at the current time (after the events already armed for
     * that time); when the core becomes free, the first task of the highest class runs.
     *
     * @param workClass one of {@link #HARDIRQ}, {@link #SOFTIRQ}, {@link #TX}, {@link #APP}
     * @param task the task; it must not be pending on this core already
     * @return {@code false} if the task was already waiting in this class's queue (it is not queued twice there)
     */
    boolean submit(int workClass, CpuTask task);

    /**
     * @param task a task
     * @return whether the task waits in one of this core's queues (submitted and not yet run); a hot swap hands such
     *         work over with {@link ElementState#putTask} and {@link ElementState#requeue}, which keep its place
     * @since 1.3
     */
    boolean queued(CpuTask task);

    /**
     * Charges cycles to the running task and to an element's account, and advances the task's clock.
     *
     * @param elementIndex the element the work belongs to (its {@link ElementContext#index()})
     * @param cycles cycles spent, at least 0
     * @param packets packets this work handled, for per-packet figures (0 for overhead)
     */
    void charge(int elementIndex, long cycles, int packets);

    /**
     * Touches memory from this core through its caches (the run's cache model, sized by the cost profile): each line
     * that misses the level-1 cache stalls for the latency of the level that has it, or of memory, charged to
     * {@code elementIndex} as by {@link #charge}. Without a cache model in the profile it costs nothing and returns 0.
     *
     * @param elementIndex the element the access belongs to
     * @param address the first byte's address ({@link ElementContext#memory}, {@link ElementContext#code},
     *        {@code Buffer.address()})
     * @param bytes bytes touched, at least 1
     * @param code {@code true} for instruction fetches (the code of a kernel function), {@code false} for data
     * @return the lines that missed the level-1 cache
     */
    int touch(int elementIndex, long address, int bytes, boolean code);

    /** @return {@code true} while a task runs or waits. */
    boolean busy();

    /**
     * @return {@code true} while a task executes on this core, i.e. when the caller runs inside it (the run executes one
     *         task at a time): work a softirq starts inline, as a forwarded packet's {@code dev_queue_xmit} runs the
     *         qdisc and the driver's transmit inside the receiving NAPI poll, can then run at once instead of queueing
     */
    boolean running();

    /** @return total busy time so far in picoseconds. */
    long busyPicos();

    /**
     * @param cycles a cycle count
     * @return its duration at this core's frequency, in picoseconds (rounded to nearest)
     */
    long picosForCycles(long cycles);
}
