package io.ringlab.engine.kernel;

import java.util.Map;
import java.util.Set;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.CompletionStage;
import java.util.concurrent.CountDownLatch;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.locks.LockSupport;

import io.ringlab.sim.api.RunState;
import io.ringlab.sim.api.SimulationRun;
import io.ringlab.sim.api.dto.HeadlineDTO;
import io.ringlab.sim.api.dto.PipelineDTO;
import io.ringlab.sim.api.dto.RunOptionsDTO;
import io.ringlab.sim.api.dto.RunResultDTO;
import io.ringlab.sim.api.dto.RunSnapshotDTO;

/**
 * A prepared run and its control. The engine thread processes events in chunks; between chunks (the safe point) it
 * applies control commands queued from other threads, publishes a snapshot when the wall-clock interval has passed, and
 * paces to a real-time factor if one is set. Commands are volatile flags that the engine reads once per chunk.
 * <p>
 * Thread-safe.
 */
public final class RunImpl implements SimulationRun {
    /** Events per chunk between two safe points; small enough that pause and stop answer within microseconds. */
    private static final int CHUNK = 4096;

    private final Simulation sim;
    private final PipelineDTO pipeline;
    private final RunOptionsDTO options;
    private final long durationPicos;
    private final Set<String> types;
    private final Object lock = new Object();
    private final CountDownLatch done = new CountDownLatch(1);
    private final CompletableFuture<RunResultDTO> completion = new CompletableFuture<>();

    private volatile RunState state = RunState.READY;
    private volatile boolean pauseRequested;
    private volatile boolean stopRequested;
    private volatile int stepsRequested;
    private volatile String abortReason;
    private volatile RunSnapshotDTO snapshot;
    private volatile RunResultDTO result;
    private boolean started;
    private volatile Runnable onDone;

    RunImpl(Simulation sim, PipelineDTO pipeline, RunOptionsDTO options, long durationPicos, Set<String> types) {
        this.sim = sim;
        this.pipeline = pipeline;
        this.options = options;
        this.durationPicos = durationPicos;
        this.types = types;
        RunSnapshotDTO s = new RunSnapshotDTO();
        s.state = RunState.READY;
        s.durationSeconds = durationPicos / 1e12;
        this.snapshot = s;
    }

    /** @return the element types the run uses (so a departing bundle can end the runs that use it). */
    public Set<String> types() {
        return types;
    }

    /** @param r called on the engine thread when the run has ended and its result is set. */
    public void onDone(Runnable r) {
        this.onDone = r;
    }

    /** @return the simulation, for tests in this package and the benchmark. */
    public Simulation simulation() {
        return sim;
    }

    @Override
    public RunState state() {
        return state;
    }

    @Override
    public void start() {
        synchronized (lock) {
            if (started) {
                return;
            }
            started = true;
        }
        Thread t = new Thread(this::execute, "ringlab-run-" + pipeline.name);
        t.setDaemon(true);
        t.start();
    }

    @Override
    public RunResultDTO run() {
        synchronized (lock) {
            if (started) {
                throw new IllegalStateException("run already started");
            }
            started = true;
        }
        execute();
        return result;
    }

    @Override
    public void pause() {
        pauseRequested = true;
    }

    @Override
    public void resume() {
        synchronized (lock) {
            pauseRequested = false;
            lock.notifyAll();
        }
    }

    @Override
    public void step() {
        synchronized (lock) {
            if (pauseRequested) { // a step asked for while running is ignored, not saved for the next pause
                stepsRequested++;
                lock.notifyAll();
            }
        }
    }

    @Override
    public void stop() {
        boolean endHere;
        synchronized (lock) {
            stopRequested = true;
            lock.notifyAll();
            endHere = !started;
            started = true;
        }
        if (endHere) {
            execute(); // never started: end it now, on the caller's thread, with a STOPPED result
        }
    }

    @Override
    public void abort(String reason) {
        boolean endHere;
        synchronized (lock) {
            abortReason = reason;
            stopRequested = true;
            lock.notifyAll();
            endHere = !started;
            started = true;
        }
        if (endHere) {
            execute();
        }
    }

    @Override
    public CompletionStage<RunResultDTO> completion() {
        return completion.minimalCompletionStage();
    }

    @Override
    public void close() {
        stop();
    }

    @Override
    public RunResultDTO await(long timeout, TimeUnit unit) throws InterruptedException {
        return done.await(timeout, unit) ? result : null;
    }

    @Override
    public RunSnapshotDTO snapshot() {
        return snapshot;
    }

    private void execute() {
        long wallStart = System.nanoTime();
        long allocStart = -1;
        long allocEnd = -1;
        long loopStart = wallStart;
        long loopNanos = 0;
        long publishNanos = options.snapshotIntervalMillis * 1_000_000L;
        long nextPublish = wallStart + publishNanos;
        RunState end = RunState.FINISHED;
        String error = null;
        Throwable fatal = null;
        state = RunState.RUNNING;
        try {
            try {
                long interval = options.seriesIntervalPicos > 0 ? options.seriesIntervalPicos
                        : Math.max(1, durationPicos / 200);
                sim.start(durationPicos, interval, options.warmupPicos);
                allocStart = Allocation.currentThreadAllocatedBytes();
                loopStart = System.nanoTime();
                long pausedNanos = 0;
                while (true) {
                    if (sim.failure != null) {
                        break;
                    }
                    if (stopRequested) {
                        end = abortReason != null ? RunState.FAILED : RunState.STOPPED;
                        error = abortReason;
                        break;
                    }
                    if (pauseRequested) {
                        long pausedAt = System.nanoTime();
                        boolean step = waitWhilePaused();
                        pausedNanos += System.nanoTime() - pausedAt;
                        if (step) {
                            sim.advance(durationPicos, 1);
                            publish(RunState.PAUSED);
                        }
                        continue;
                    }
                    long limit = durationPicos;
                    if (options.realTimeFactor > 0) {
                        // real time excludes the time spent paused
                        double wallSeconds = (System.nanoTime() - loopStart - pausedNanos) / 1e9;
                        limit = Math.min(durationPicos, (long) (wallSeconds * options.realTimeFactor * 1e12));
                        if (sim.nextEventTime() >= limit && limit < durationPicos) {
                            LockSupport.parkNanos(1_000_000L);
                            continue;
                        }
                    }
                    long n = sim.advance(limit, CHUNK);
                    if (n < CHUNK && limit == durationPicos && sim.failure == null) {
                        break;
                    }
                    if (publishNanos > 0 && System.nanoTime() >= nextPublish) {
                        publish(RunState.RUNNING);
                        nextPublish = System.nanoTime() + publishNanos;
                    }
                }
            } catch (VirtualMachineError e) {
                fatal = e;
                sim.fail(Faults.culprit(sim, e), Faults.describe(e));
            } catch (Throwable e) {
                sim.fail(Faults.culprit(sim, e), Faults.describe(e));
            }
            allocEnd = Allocation.currentThreadAllocatedBytes();
            loopNanos = System.nanoTime() - loopStart;
            if (sim.failure != null) {
                end = RunState.FAILED;
                error = sim.failure;
            }
            if (end == RunState.FINISHED) {
                sim.now = durationPicos;
            }
            String stopError = sim.stopElements();
            if (stopError != null && error == null) {
                end = RunState.FAILED;
                error = stopError;
            }
        } finally {
            // whatever happened above, the run ends with a result: await() and onDone() never hang
            RunResultDTO r;
            try {
                r = report(end, error, wallStart, allocStart, allocEnd, loopNanos);
            } catch (Throwable e) {
                r = new RunResultDTO();
                r.pipeline = pipeline.name;
                r.pipelineFile = pipeline.file;
                r.seed = sim.seed;
                r.state = RunState.FAILED.name();
                r.error = (error == null ? "" : error + "; ") + "reporting the run failed: " + Faults.describe(e);
                r.invariants.violations.add("invariants not checked: reporting failed");
                end = RunState.FAILED;
            }
            result = r;
            try {
                publish(end);
            } catch (Throwable ignored) {
                // a snapshot is a convenience; the result is what counts
            }
            state = end;
            completion.complete(r);
            done.countDown();
            Runnable callback = onDone;
            if (callback != null) {
                callback.run();
            }
        }
        if (fatal instanceof VirtualMachineError vme) {
            throw vme;
        }
    }

    private RunResultDTO report(RunState end, String error, long wallStart, long allocStart, long allocEnd, long loopNanos) {
        RunResultDTO r = new RunResultDTO();
        Map<String, String> core = sim.registry.coreBundles();
        r.ringlabVersion = core.getOrDefault("io.ringlab.engine", "dev");
        r.bundles.putAll(core);
        java.util.Set<String> used = new java.util.TreeSet<>(sim.providerBundles);
        for (String type : types) {
            String b = sim.registry.bundleOf(type);
            if (b != null) {
                used.add(b);
            }
        }
        for (String b : used) {
            int colon = b.lastIndexOf(':');
            r.bundles.put(b.substring(0, colon), b.substring(colon + 1));
        }
        r.pipeline = pipeline.name;
        r.pipelineFile = pipeline.file;
        r.seed = sim.seed;
        r.state = end.name();
        r.error = error;
        r.simulatedSeconds = sim.now / 1e12;
        r.wallSeconds = (System.nanoTime() - wallStart) / 1e9;
        r.events = sim.eventCount;
        r.wallMeasurements.put("engineAllocatedBytes", allocStart < 0 || allocEnd < 0 ? -1.0 : (double) (allocEnd - allocStart));
        r.wallMeasurements.put("eventsPerSecond", loopNanos <= 0 ? 0.0 : sim.eventCount / (loopNanos / 1e9));
        r.wallMeasurements.put("packetsPerSecond", loopNanos <= 0 ? 0.0 : sim.generated / (loopNanos / 1e9));
        r.packets = sim.generated;
        r.profile = sim.profile.name();
        r.elements = sim.elementMetrics();
        r.runtime = sim.runtime();
        r.series = sim.series();
        r.invariants = sim.checkInvariants();
        r.headline = headline(r.elements);
        sim.closePools();
        r.warnings.putAll(sim.warnings); // teardown's included
        return r;
    }

    /** @return true when a step is to be taken, false when the run resumed or stops (re-check the loop). */
    private boolean waitWhilePaused() {
        publish(RunState.PAUSED);
        state = RunState.PAUSED;
        synchronized (lock) {
            while (pauseRequested && !stopRequested && stepsRequested == 0) {
                try {
                    lock.wait();
                } catch (InterruptedException e) {
                    Thread.currentThread().interrupt();
                    stopRequested = true;
                }
            }
            if (stopRequested) {
                return false;
            }
            if (!pauseRequested) {
                publish(RunState.RUNNING);
                state = RunState.RUNNING;
                return false;
            }
            stepsRequested--;
            return true;
        }
    }

    private void publish(RunState current) {
        RunSnapshotDTO s = new RunSnapshotDTO();
        s.state = current;
        s.simulatedSeconds = sim.now / 1e12;
        s.durationSeconds = durationPicos / 1e12;
        s.events = sim.eventCount;
        s.elements = sim.elementMetrics();
        s.series = sim.series(); // rows are never written again once sampled: sharing them is safe
        snapshot = s;
    }

    private HeadlineDTO headline(Map<String, Map<String, Double>> elements) {
        if (pipeline.headline == null) {
            return null;
        }
        String h = pipeline.headline.text;
        int dot = h.lastIndexOf('.'); // metric names have no dots; pool names (pool:eth0.rx) do
        HeadlineDTO d = new HeadlineDTO();
        d.metric = h;
        Map<String, Double> m = elements.get(h.substring(0, dot));
        Double v = m == null ? null : m.get(h.substring(dot + 1));
        d.value = v == null ? Double.NaN : v;
        d.unit = Headlines.unitOf(h.substring(dot + 1));
        return d;
    }
}
