package io.ringlab.engine.kernel;

import io.ringlab.sim.api.Core;
import io.ringlab.sim.api.CpuTask;

/**
 * A simulated core. Tasks wait in one FIFO per work class; when the core is free, a dispatch event runs the first task of
 * the highest class. A task runs with the simulation clock set to its start; each {@link #charge} advances that clock, and
 * when the task returns the core stays busy until the clock it reached. No preemption: a hard interrupt raised during a
 * long softirq waits for it, which at the microsecond scale of a NAPI poll is what the per-packet figures need.
 * <p>
 * Every queued task carries the token of the element instance that submitted it (through its {@link #view}), so that a
 * hot swap can cancel the old instance's pending work ({@link #cancelOwned}); the engine's own submissions carry token 0.
 * <p>
 * Not thread-safe.
 */
final class CoreImpl implements Core {
    private static final int CLASSES = 4;

    private final Simulation sim;
    private final int index;
    private final long frequencyHz;
    /** {@code 1e12 / frequencyHz}, computed once: what {@link CpuAccounts#account} adds per cycle (a division less per charge). */
    final double picosPerCycle;
    /**
     * {@code 1e12 / frequencyHz} when the frequency divides 10^12 (4 GHz: 250, 1.6 GHz: 625), else 0: then a cycle count's
     * time is a multiplication, exactly what {@link #picosForCycles} rounds to with a division.
     */
    private final long wholePicosPerCycle;
    private final TimerImpl dispatch;
    private final CpuTask[][] queues = new CpuTask[CLASSES][8];
    /** The submitting instance's token of each queued task, parallel to {@link #queues}. */
    private final int[][] owners = new int[CLASSES][8];
    /** Views by token, created on first use. */
    private View[] views = new View[8];
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
        this.picosPerCycle = 1e12 / frequencyHz;
        this.wholePicosPerCycle = 1_000_000_000_000L % frequencyHz == 0 ? 1_000_000_000_000L / frequencyHz : 0;
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
        return submit(workClass, task, 0);
    }

    boolean submit(int workClass, CpuTask task, int token) {
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
        int[] o = owners[workClass];
        if (n == q.length) {
            CpuTask[] bigger = new CpuTask[q.length * 2];
            int[] biggerOwners = new int[q.length * 2];
            for (int i = 0; i < n; i++) {
                bigger[i] = q[(h + i) % q.length];
                biggerOwners[i] = o[(h + i) % q.length];
            }
            queues[workClass] = q = bigger;
            owners[workClass] = o = biggerOwners;
            heads[workClass] = h = 0;
        }
        q[(h + n) % q.length] = task;
        o[(h + n) % q.length] = token;
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
                int token = owners[c][h];
                q[h] = null;
                heads[c] = (h + 1) % q.length;
                sizes[c]--;
                runTask(task, token);
                return;
            }
        }
    }

    private void runTask(CpuTask task, int token) {
        long eventTime = sim.now;
        running = true;
        taskStart = eventTime;
        taskCycles = 0;
        int previous = sim.currentCore;
        sim.currentCore = index;
        try {
            task.run(token == 0 ? this : view(token)); // what the task submits is its instance's
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
                // with a whole number w of picoseconds per cycle, prod = cycles * w * f and the rounding adds
                // (f / 2) / f = 0: the same value without the 64-bit division (a charge's hot path)
                return wholePicosPerCycle != 0 ? cycles * wholePicosPerCycle : (prod + frequencyHz / 2) / frequencyHz;
            }
        }
        return Math.round(cycles * picosPerCycle);
    }

    @Override
    public boolean queued(CpuTask task) {
        for (int c = 0; c < CLASSES; c++) {
            CpuTask[] q = queues[c];
            for (int i = 0, n = sizes[c], h = heads[c]; i < n; i++) {
                if (q[(h + i) % q.length] == task) {
                    return true;
                }
            }
        }
        return false;
    }

    /**
     * Removes every queued task an element instance submitted (a hot swap retiring the old instance); the others keep
     * their order.
     *
     * @param token the instance's token, not 0
     * @return the tasks removed
     */
    int cancelOwned(int token) {
        int removed = 0;
        for (int c = 0; c < CLASSES; c++) {
            removed += removeIf(c, (t, owner) -> owner == token);
        }
        return removed;
    }

    /**
     * Puts a hot swap's new task in the place of an old one in every queue where the old one waits, with the new
     * instance's token; a copy of the new task queued elsewhere in that class goes (it waits only once per class).
     *
     * @param old the old instance's task
     * @param neu the new instance's task that does the same work
     * @param token the new instance's token
     * @return the places replaced
     */
    int replaceQueued(CpuTask old, CpuTask neu, int token) {
        int replaced = 0;
        for (int c = 0; c < CLASSES; c++) {
            CpuTask[] q = queues[c];
            int h = heads[c];
            boolean found = false;
            for (int i = 0; i < sizes[c] && !found; i++) {
                found = q[(h + i) % q.length] == old;
            }
            if (!found) {
                continue;
            }
            removeIf(c, (t, owner) -> t == neu);
            for (int i = 0; i < sizes[c]; i++) {
                int at = (h + i) % q.length;
                if (q[at] == old) {
                    q[at] = neu;
                    owners[c][at] = token;
                    replaced++;
                }
            }
        }
        return replaced;
    }

    /** Which queued tasks {@link #removeIf} takes out. */
    @FunctionalInterface
    private interface Entry {
        boolean matches(CpuTask task, int owner);
    }

    /** Takes the entries that match out of one class's queue; the others keep their order. A hot swap's, not per task. */
    private int removeIf(int workClass, Entry rule) {
        CpuTask[] q = queues[workClass];
        int[] o = owners[workClass];
        int n = sizes[workClass], h = heads[workClass], kept = 0;
        for (int i = 0; i < n; i++) {
            int from = (h + i) % q.length;
            CpuTask t = q[from];
            int owner = o[from];
            q[from] = null;
            if (rule.matches(t, owner)) {
                continue;
            }
            int to = (h + kept++) % q.length;
            q[to] = t;
            o[to] = owner;
        }
        sizes[workClass] = kept;
        return n - kept;
    }

    /**
     * @param token an element instance's token, at least 1
     * @return this core as that instance sees it: what it submits carries its token
     */
    Core view(int token) {
        if (token >= views.length) {
            views = java.util.Arrays.copyOf(views, Math.max(token + 1, views.length * 2));
        }
        View v = views[token];
        if (v == null) {
            views[token] = v = new View(this, token);
        }
        return v;
    }

    /** Adds the core's state (busy time, when it is free, its queues' lengths and owners) to a state hash. */
    void hash(StateHash h) {
        h.add(busyPicos).add(busyUntil).add(running ? 1 : 0);
        for (int c = 0; c < CLASSES; c++) {
            h.add(sizes[c]);
            for (int i = 0; i < sizes[c]; i++) {
                h.add(owners[c][(heads[c] + i) % queues[c].length]);
            }
        }
    }

    /** The core seen by one element instance. */
    private record View(CoreImpl core, int token) implements Core {
        @Override public int index() { return core.index; }
        @Override public long frequencyHz() { return core.frequencyHz; }
        @Override public boolean submit(int workClass, CpuTask task) { return core.submit(workClass, task, token); }
        @Override public boolean queued(CpuTask task) { return core.queued(task); }
        @Override public boolean running() { return core.running(); }
        @Override public boolean busy() { return core.busy(); }
        @Override public long busyPicos() { return core.busyPicos(); }
        @Override public void charge(int elementIndex, long cycles, int packets) { core.charge(elementIndex, cycles, packets); }
        @Override public int touch(int elementIndex, long address, int bytes, boolean code) {
            return core.touch(elementIndex, address, bytes, code);
        }
        @Override public long picosForCycles(long cycles) { return core.picosForCycles(cycles); }
    }
}
