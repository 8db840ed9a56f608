package io.ringlab.engine.kernel;

import io.ringlab.sim.api.Core;
import io.ringlab.sim.api.CpuTask;

/**
 * A simulated core. Tasks wait in one FIFO per work class; when the core is free, a dispatch event runs the first task of
 * the highest class. A task runs with the simulation clock set to its start; each {@link #charge} advances that clock, and
 * when the task returns the core stays busy until the clock it reached. No preemption: a hard interrupt raised during a
 * long softirq waits for it, which at the microsecond scale of a NAPI poll is what the per-packet figures need.
 * <p>
 * Not thread-safe.
 */
final class CoreImpl implements Core {
    private static final int CLASSES = 4;

    private final Simulation sim;
    private final int index;
    private final long frequencyHz;
    private final TimerImpl dispatch;
    private final CpuTask[][] queues = new CpuTask[CLASSES][8];
    private final int[] heads = new int[CLASSES];
    private final int[] sizes = new int[CLASSES];
    private boolean running;
    private long busyUntil;
    private long busyPicos;
    /** Cycles charged by the running task but not yet converted to time (keeps sub-picosecond remainders exact). */
    private long taskCycles;
    private long taskStart;

    CoreImpl(Simulation sim, int index, long frequencyHz) {
        this.sim = sim;
        this.index = index;
        this.frequencyHz = frequencyHz;
        this.dispatch = new TimerImpl(sim, now -> dispatch(), -1);
    }

    @Override public int index() { return index; }
    @Override public long frequencyHz() { return frequencyHz; }
    @Override public long busyPicos() { return busyPicos; }

    @Override
    public boolean running() {
        return running;
    }

    @Override
    public boolean busy() {
        if (running) {
            return true;
        }
        for (int s : sizes) {
            if (s > 0) {
                return true;
            }
        }
        return false;
    }

    @Override
    public boolean submit(int workClass, CpuTask task) {
        if (workClass < 0 || workClass >= CLASSES) {
            throw new IllegalArgumentException("workClass=" + workClass + ", allowed 0 (HARDIRQ) to 3 (APP)");
        }
        CpuTask[] q = queues[workClass];
        int n = sizes[workClass];
        int h = heads[workClass];
        for (int i = 0; i < n; i++) {
            if (q[(h + i) % q.length] == task) {
                return false;
            }
        }
        if (n == q.length) {
            CpuTask[] bigger = new CpuTask[q.length * 2];
            for (int i = 0; i < n; i++) {
                bigger[i] = q[(h + i) % q.length];
            }
            queues[workClass] = q = bigger;
            heads[workClass] = h = 0;
        }
        q[(h + n) % q.length] = task;
        sizes[workClass] = n + 1;
        if (!running && !dispatch.pending()) {
            dispatch.at(Math.max(sim.now, busyUntil));
        }
        return true;
    }

    private void dispatch() {
        for (int c = 0; c < CLASSES; c++) {
            if (sizes[c] > 0) {
                CpuTask[] q = queues[c];
                int h = heads[c];
                CpuTask task = q[h];
                q[h] = null;
                heads[c] = (h + 1) % q.length;
                sizes[c]--;
                runTask(task);
                return;
            }
        }
    }

    private void runTask(CpuTask task) {
        long eventTime = sim.now;
        running = true;
        taskStart = eventTime;
        taskCycles = 0;
        int previous = sim.currentCore;
        sim.currentCore = index;
        try {
            task.run(this);
        } finally {
            sim.currentCore = previous;
            running = false;
            long end = sim.now;
            busyPicos += end - eventTime;
            busyUntil = end;
            sim.now = eventTime;
        }
        for (int s : sizes) {
            if (s > 0) {
                dispatch.at(busyUntil);
                break;
            }
        }
    }

    @Override
    public void charge(int elementIndex, long cycles, int packets) {
        if (cycles < 0) {
            throw new IllegalArgumentException("cycles=" + cycles + ", must be at least 0");
        }
        sim.account(elementIndex, cycles, packets, this);
        if (running) {
            taskCycles += cycles;
            sim.now = taskStart + picosForCycles(taskCycles);
        }
    }

    @Override
    public int touch(int elementIndex, long address, int bytes, boolean code) {
        return sim.touch(index, elementIndex, address, bytes, code);
    }

    @Override
    public long picosForCycles(long cycles) {
        // cycles * 1e12 / f, rounded to nearest, without overflow for any realistic count (Math.multiplyHigh guards)
        long hi = Math.multiplyHigh(cycles, 1_000_000_000_000L);
        if (hi == 0) {
            long prod = cycles * 1_000_000_000_000L;
            if (prod >= 0) {
                return (prod + frequencyHz / 2) / frequencyHz;
            }
        }
        return Math.round(cycles * (1e12 / frequencyHz));
    }
}
