package io.ringlab.engine.kernel;

import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.Queue;
import java.util.Set;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.CompletionStage;
import java.util.concurrent.ConcurrentLinkedQueue;
import java.util.concurrent.CountDownLatch;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.locks.LockSupport;

import io.ringlab.sim.api.RunState;
import io.ringlab.sim.api.SimulationRun;
import io.ringlab.sim.api.dto.PipelineDTO;
import io.ringlab.sim.api.dto.RunOptionsDTO;
import io.ringlab.sim.api.dto.RunResultDTO;
import io.ringlab.sim.api.dto.RunSnapshotDTO;
import io.ringlab.sim.api.dto.SwapDTO;

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
    /** What the prepared run can report ({@link #metricNames()}). */
    private final Map<String, java.util.Set<String>> metricNames;
    /** The series the prepared run will have ({@link #seriesNames()}). */
    private final List<String> seriesNames;
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
    /** Set by whoever ends the run first: the engine thread, or the watchdog when the engine thread is stuck. */
    private final java.util.concurrent.atomic.AtomicBoolean ended = new java.util.concurrent.atomic.AtomicBoolean();
    /** Set by the watchdog: the engine thread, should it ever return, leaves without a word. */
    private volatile boolean abandoned;
    /**
     * The engine thread's stack: 16 MiB, room for {@link Simulation#MAX_PUSH_DEPTH} nested pushes many times over (a
     * push between elements takes about 250 bytes of stack; the platform's default of 1 MiB overflowed after about 4,000),
     * so that a chain too deep ends with the engine's report, not a StackOverflowError. Reserved address space, touched
     * only as deep as a run goes.
     */
    static final long ENGINE_STACK_BYTES = 16L << 20;
    /** The default of {@code RunOptionsDTO.eventWatchdogMillis}. */
    static final long DEFAULT_WATCHDOG_MILLIS = 10_000;
    /** The watchdog's limit when the options give none: {@link #DEFAULT_WATCHDOG_MILLIS} unless the installation says. */
    private volatile long defaultWatchdogMillis = DEFAULT_WATCHDOG_MILLIS;
    /** Swaps from the options, armed as engine timers when the run starts. */
    private final List<SwapRequest> scheduledSwaps;
    /** Swaps asked for while the run goes ({@link #swap}), applied at the next safe point. */
    private final Queue<LiveSwap> liveSwaps = new ConcurrentLinkedQueue<>();

    private record LiveSwap(String element, String type, String version, CompletableFuture<SwapDTO> done) {
    }

    /** Requests to hold the elements of a type whose only factory is going away (see {@link #hold}). */
    private final Queue<Hold> holdRequests = new ConcurrentLinkedQueue<>();
    /** Types whose replacement factory arrived while their elements were held. */
    private final Queue<String> replacements = new ConcurrentLinkedQueue<>();
    /** The elements held for a replacement, with what they exported: engine thread only. */
    private final Map<Integer, Swapper.Exported> held = new java.util.TreeMap<>();
    /** Element name to {@code type@version} of the instance behind it, for other threads. */
    private final Map<String, String> implementations = new java.util.concurrent.ConcurrentHashMap<>();
    /** The state hash at the fork ({@code RunOptionsDTO.forkAtPicos}): engine thread. */
    private String forkStateHash;

    private record Hold(String type, CompletableFuture<Boolean> done) {
    }

    /** @param metricNames what the built pipeline can report ({@link Simulation#metricNames}), read by the builder */
    RunImpl(Simulation sim, PipelineDTO pipeline, RunOptionsDTO options, long durationPicos, Set<String> types,
            List<SwapRequest> swaps, Map<String, Set<String>> metricNames) {
        this.sim = sim;
        this.pipeline = pipeline;
        this.options = options;
        this.durationPicos = durationPicos;
        this.types = new java.util.concurrent.CopyOnWriteArraySet<>(types);
        this.scheduledSwaps = List.copyOf(swaps);
        // read on the preparing thread, before the engine thread owns the elements
        Map<String, java.util.Set<String>> names = new java.util.TreeMap<>();
        metricNames.forEach((owner, m) -> names.put(owner, java.util.Collections.unmodifiableSet(m)));
        this.metricNames = java.util.Collections.unmodifiableMap(names);
        this.seriesNames = List.copyOf(sim.seriesNames());
        for (ElementContextImpl c : sim.contexts) {
            implementations.put(c.name, c.implementation);
        }
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
        Thread t = new Thread(null, this::execute, "ringlab-run-" + pipeline.name, ENGINE_STACK_BYTES);
        t.setDaemon(true);
        t.start();
    }

    @Override
    public RunResultDTO run() {
        // on the engine's own thread, so that the watchdog can end a run whose element never returns; a run already
        // started (or stopped before it started, by a signal or a control command) is waited for
        start();
        try {
            done.await();
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
            stop();
            try {
                done.await();
            } catch (InterruptedException again) {
                Thread.currentThread().interrupt();
            }
        }
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

    /**
     * @param millis the watchdog's limit for a run whose options give none (the framework property
     *        {@code ringlab.eventWatchdogMillis}); call before the run starts
     */
    public void defaultWatchdogMillis(long millis) {
        this.defaultWatchdogMillis = millis;
    }

    /** The nice value the engine thread lowers itself to as it starts ({@link EngineNice}); 0 (the default): none. */
    private volatile int engineNice;
    /** The engine thread's nice value as the kernel reported it after lowering, or -1 when it could not be read. */
    private volatile int engineNiceSeen = -1;

    /** @return the engine thread's nice value after it lowered itself, as the kernel reported it; -1 when unknown */
    int engineNiceSeen() {
        return engineNiceSeen;
    }

    /**
     * @param nice 0 (the normal priority) to 19, for the engine thread (the framework property
     *        {@code ringlab.engineNice}); call before the run starts
     */
    public void engineNice(int nice) {
        if (nice < 0 || nice > EngineNice.MAX) {
            throw new IllegalArgumentException("engine nice " + nice + ": allowed 0 to " + EngineNice.MAX);
        }
        this.engineNice = nice;
    }

    /** @return element name to {@code type@bundleVersion} of the instance behind it now. */
    public Map<String, String> implementations() {
        return Map.copyOf(implementations);
    }

    /**
     * The only factory of {@code type} is going away (its bundle is being updated, stopped or uninstalled) while this run
     * uses it: at the next safe point the engine takes the state of every element of the type, while their bundle is still
     * active, and holds the run until {@link #replacementArrived} or an abort. Called on the thread that unregisters the
     * factory; waits for the engine thread.
     *
     * @param type the type
     * @param timeoutMillis how long to wait for the engine thread
     * @return whether the run now holds its elements of the type (false: not running, or no safe point in time)
     */
    public boolean hold(String type, long timeoutMillis) {
        CompletableFuture<Boolean> f = new CompletableFuture<>();
        synchronized (lock) {
            RunState s = state;
            if (!started || s == RunState.FINISHED || s == RunState.STOPPED || s == RunState.FAILED) {
                return false;
            }
            holdRequests.add(new Hold(type, f));
            lock.notifyAll();
        }
        try {
            return f.get(timeoutMillis, TimeUnit.MILLISECONDS);
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
            return false;
        } catch (java.util.concurrent.ExecutionException | java.util.concurrent.TimeoutException e) {
            return false;
        }
    }

    /** @return whether elements of {@code type} are held for a replacement. */
    public boolean holding(String type) {
        return heldTypes.contains(type);
    }

    private final Set<String> heldTypes = java.util.concurrent.ConcurrentHashMap.newKeySet();

    /** A factory of {@code type} arrived: the held elements of the type are swapped to it and the run goes on. */
    public void replacementArrived(String type) {
        synchronized (lock) {
            replacements.add(type);
            lock.notifyAll();
        }
    }

    /**
     * Finishes the current instant of virtual time and moves the clock to the next event's time, the safe point a live
     * swap or a hold is recorded at (so that {@code --swap} at that time replays it); the clock stays where it is when
     * that time lies beyond the run or the run has failed. Engine thread only.
     *
     * @return the next event's time
     */
    private long nextSafePoint() {
        sim.advance(sim.now + 1, Long.MAX_VALUE);
        long at = sim.nextEventTime();
        if (sim.failure == null && at < durationPicos) {
            sim.now = at;
        }
        return at;
    }

    /** Engine thread: takes the held elements' state at a safe point (the current instant finished first). */
    private void applyHolds() {
        nextSafePoint();
        for (Hold h; (h = holdRequests.poll()) != null;) {
            for (ElementContextImpl c : sim.contexts) {
                if (c.type.equals(h.type) && !held.containsKey(c.index)) {
                    held.put(c.index, Swapper.export(sim, c.index));
                }
            }
            heldTypes.add(h.type);
            h.done.complete(true);
        }
        publish(RunState.PAUSED);
    }

    /** Engine thread: waits for replacements (or a stop), and swaps the held elements to them. */
    private void waitForReplacements() {
        synchronized (lock) {
            while (replacements.isEmpty() && !stopRequested) {
                try {
                    lock.wait();
                } catch (InterruptedException e) {
                    Thread.currentThread().interrupt();
                    stopRequested = true;
                }
            }
        }
        for (String type; (type = replacements.poll()) != null;) {
            for (var it = held.entrySet().iterator(); it.hasNext();) {
                var e = it.next();
                ElementContextImpl c = sim.contexts.get(e.getKey());
                if (c.type.equals(type)) {
                    applySwap(c.name, type, null, e.getValue());
                    it.remove();
                }
            }
            heldTypes.remove(type);
        }
        publish(pauseRequested ? RunState.PAUSED : RunState.RUNNING);
    }

    @Override
    public CompletionStage<SwapDTO> swap(String element, String type, String version) {
        CompletableFuture<SwapDTO> f = new CompletableFuture<>();
        synchronized (lock) {
            RunState s = state;
            if (s == RunState.FINISHED || s == RunState.STOPPED || s == RunState.FAILED) {
                f.complete(Swapper.notApplied(sim, element, "the run has ended"));
                return f.minimalCompletionStage();
            }
            liveSwaps.add(new LiveSwap(element, type, version, f));
            lock.notifyAll(); // a paused run wakes to apply it
        }
        return f.minimalCompletionStage();
    }

    /**
     * Applies the swaps asked for while running: finishes the current instant of virtual time, then swaps before the next
     * event, so that {@code --swap AT:...} with AT = that event's time replays it exactly. Not counted as an event (nor is
     * the replay's swap timer). Engine thread only.
     */
    private void applyLiveSwaps() {
        long at = nextSafePoint();
        for (LiveSwap l; (l = liveSwaps.poll()) != null;) {
            if (sim.failure != null || at >= durationPicos) {
                l.done.complete(Swapper.notApplied(sim, l.element, "the run reached its end before a safe point"));
                continue;
            }
            l.done.complete(applySwap(l.element, l.type, l.version));
        }
        publish(pauseRequested ? RunState.PAUSED : RunState.RUNNING);
    }

    /**
     * Swaps now (the caller ensures a safe point: a timer event, or between events) and records it; a target that cannot
     * be found is recorded as a swap not applied. Engine thread only (tests call it between {@code Simulation.advance}s).
     */
    SwapDTO applySwap(String element, String type, String version) {
        return applySwap(element, type, version, null);
    }

    private SwapDTO applySwap(String element, String type, String version, Swapper.Exported exported) {
        int index = -1;
        for (ElementContextImpl c : sim.contexts) {
            if (c.name.equals(element)) {
                index = c.index;
            }
        }
        if (index < 0) {
            SwapDTO d = Swapper.notApplied(sim, element, "no element " + element);
            sim.swaps.add(d);
            return d;
        }
        ElementContextImpl ctx = sim.contexts.get(index);
        String t = type == null ? ctx.type : type;
        Swapper.Resolution to = Swapper.resolve(sim, pipeline, element, t, version);
        Swapper.Target target = to.target();
        String problem = to.problem();
        io.ringlab.sim.api.ElementFactory f = target == null ? null : target.factory();
        if (target == null) {
            SwapDTO d = Swapper.notApplied(sim, element, problem);
            d.from = ctx.implementation;
            d.to = ctx.implementation;
            sim.swaps.add(d);
            return d;
        }
        SwapDTO d = Swapper.swap(sim, index, target, exported);
        if (d.applied) {
            types.add(t);
            sim.noteProvider(f);
            implementations.put(element, d.to);
        }
        return d;
    }

    @Override
    public RunSnapshotDTO snapshot() {
        return snapshot;
    }

    /** How a run's engine thread ends: its state and error, as the loop and the elements' stop leave them. */
    private static final class Outcome {
        RunState end = RunState.FINISHED;
        String error;
    }

    private void execute() {
        if (engineNice > 0) {
            engineNiceSeen = EngineNice.lowerOrSay(engineNice);
        }
        LoopMeter meter = new LoopMeter();
        Outcome out = new Outcome();
        Throwable fatal = null;
        state = RunState.RUNNING;
        Thread watchdog = watchdog(Thread.currentThread());
        try {
            try {
                armControlTimers();
                if (sim.captures != null) {
                    sim.captures.open();
                }
                long interval = options.seriesIntervalPicos > 0 ? options.seriesIntervalPicos
                        : Math.max(1, durationPicos / 200);
                sim.start(durationPicos, interval, options.warmupPicos);
                meter.start();
                loop(meter, out);
            } catch (VirtualMachineError e) {
                fatal = e;
                sim.fail(Faults.culprit(sim, e), Faults.describe(e));
            } catch (Throwable e) {
                sim.fail(Faults.culprit(sim, e), Faults.describe(e));
            }
            meter.stop();
            settle(out);
            closeCaptures(out);
        } finally {
            if (watchdog != null) {
                watchdog.interrupt();
            }
            if (!ended.compareAndSet(false, true)) {
                return; // the watchdog ended this run while the engine thread was stuck; it has its result
            }
            complete(out, meter);
        }
        // an error of the machine itself (InternalError, UnknownError) goes on to the thread's handler once the run has
        // its result; running out of heap or stack is the run's, reported in its result without a trace
        if (fatal instanceof VirtualMachineError vme && !(vme instanceof OutOfMemoryError)
                && !(vme instanceof StackOverflowError)) {
            throw vme;
        }
    }

    /** Writes the captures' last frames and names their files; a file not written makes the run FAILED, naming it. */
    private void closeCaptures(Outcome out) {
        if (sim.captures == null) {
            return;
        }
        String problem = sim.captures.close();
        if (problem != null) {
            out.end = RunState.FAILED;
            out.error = out.error == null ? problem : out.error + "; " + problem;
        }
    }

    /** Arms the fork's state hash and the scheduled swaps: engine timers that fire first of all events at their instant. */
    private void armControlTimers() {
        if (options.forkAtPicos > 0) { // first of all: before the swaps of its instant
            new TimerImpl(sim, now -> forkStateHash = sim.stateHash(), TimerImpl.CONTROL).at(options.forkAtPicos);
        }
        for (SwapRequest req : scheduledSwaps) { // before start: first of all events at their instant
            new TimerImpl(sim, now -> applySwap(req.element(), req.type(), req.version()), TimerImpl.CONTROL)
                    .at(req.atPicos());
        }
    }

    /**
     * Runs the events to the end, a chunk at a time, between which it carries out what was asked of the run (stop,
     * holds for a replacement, live swaps, pause and step), keeps to the real-time factor and publishes snapshots.
     */
    private void loop(LoopMeter meter, Outcome out) {
        long publishNanos = options.snapshotIntervalMillis * 1_000_000L;
        long nextPublish = meter.wallStart + publishNanos;
        long pausedNanos = 0;
        while (true) {
            if (sim.failure != null || abandoned) {
                return;
            }
            if (stopRequested) {
                out.end = abortReason != null ? RunState.FAILED : RunState.STOPPED;
                out.error = abortReason;
                return;
            }
            if (!holdRequests.isEmpty()) {
                applyHolds();
                continue;
            }
            if (!held.isEmpty()) {
                waitForReplacements();
                continue;
            }
            if (!liveSwaps.isEmpty()) {
                applyLiveSwaps();
                continue;
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
                double wallSeconds = (System.nanoTime() - meter.loopStart - pausedNanos) / 1e9;
                limit = Math.min(durationPicos, (long) (wallSeconds * options.realTimeFactor * 1e12));
                if (sim.nextEventTime() >= limit && limit < durationPicos) {
                    LockSupport.parkNanos(1_000_000L);
                    continue;
                }
            }
            long n = sim.advance(limit, CHUNK);
            if (n < CHUNK && limit == durationPicos && sim.failure == null) {
                return;
            }
            if (publishNanos > 0 && System.nanoTime() >= nextPublish) {
                publish(RunState.RUNNING);
                nextPublish = System.nanoTime() + publishNanos;
            }
        }
    }

    /** After the loop: a failure decides the state, a held element's buffers stand in for it, the elements stop. */
    private void settle(Outcome out) {
        if (sim.failure != null) {
            out.end = RunState.FAILED;
            out.error = sim.failure;
        }
        if (out.end == RunState.FINISHED) {
            sim.now = durationPicos;
        }
        for (Map.Entry<Integer, Swapper.Exported> h : held.entrySet()) {
            // the element's bundle went away while it was held: its recorded buffers stand in for it (no call into
            // code that may no longer load)
            List<io.ringlab.buffer.api.Buffer> buffers = h.getValue().held();
            sim.elements[h.getKey()] = new io.ringlab.sim.api.Element() {
                @Override
                public void forEachHeld(io.ringlab.buffer.api.BufferVisitor visitor) {
                    buffers.forEach(visitor::visit);
                }
            };
        }
        held.clear();
        String stopError = sim.stopElements();
        if (stopError != null && out.error == null) {
            out.end = RunState.FAILED;
            out.error = stopError;
        }
    }

    /** The run ends with a result, whatever happened: {@code await()} and {@code onDone()} never hang. */
    private void complete(Outcome out, LoopMeter meter) {
        RunState end = out.end;
        String error = out.error;
        RunResultDTO r;
        try {
            r = RunReport.of(sim, pipeline, types, forkStateHash, end, error, meter.wallStart, meter.allocStart,
                    meter.allocEnd, meter.loopNanos, meter.cpuNanos());
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
        for (LiveSwap l; (l = liveSwaps.poll()) != null;) {
            l.done.complete(Swapper.notApplied(sim, l.element, "the run ended before a safe point"));
        }
        try {
            publish(end);
        } catch (Throwable ignored) {
            // a snapshot is a convenience; the result is what counts
        }
        publishResult(end, r);
    }

    /** Starts the run's watchdog (see {@code RunOptionsDTO.eventWatchdogMillis}); null when it is off. */
    private Thread watchdog(Thread engine) {
        long millis = options.eventWatchdogMillis == 0 ? defaultWatchdogMillis : options.eventWatchdogMillis;
        if (millis < 0) {
            return null;
        }
        return Watchdog.start(sim, millis * 1_000_000L, "ringlab-watchdog-" + pipeline.name, nanos -> stuck(engine, nanos));
    }

    /**
     * The engine thread has run one event for longer than the watchdog allows: ends the run FAILED now, from the
     * watchdog's thread, with a report naming the element whose code is innermost on the engine thread's stack and where
     * it is. The results are those of the last published snapshot (the state cannot be read safely while the engine
     * thread runs). The engine thread is interrupted and lowered in priority; Java cannot stop it, so a process that
     * must get its core back ends (the command line does) or runs such bundles in a child process (docs/engine.md).
     */
    private void stuck(Thread engine, long nanos) {
        if (!ended.compareAndSet(false, true)) {
            return;
        }
        abandoned = true;
        Watchdog.Stuck why = Watchdog.stuck(sim, engine, nanos);
        engine.interrupt();
        engine.setPriority(Thread.MIN_PRIORITY);
        RunSnapshotDTO last = snapshot;
        RunResultDTO r = RunReport.ofSnapshot(sim, pipeline, last, why.message(), why.culprit());
        result = r;
        snapshot = RunReport.failed(last);
        publishResult(RunState.FAILED, r);
    }

    /** The run has its result: its state is final, and whoever waits for it or asked to be told is. */
    private void publishResult(RunState end, RunResultDTO r) {
        state = end;
        completion.complete(r);
        done.countDown();
        Runnable callback = onDone;
        if (callback != null) {
            callback.run();
        }
    }

    /** @return true when a step is to be taken, false when the run resumed or stops (re-check the loop). */
    private boolean waitWhilePaused() {
        publish(RunState.PAUSED);
        state = RunState.PAUSED;
        synchronized (lock) {
            while (pauseRequested && !stopRequested && stepsRequested == 0 && liveSwaps.isEmpty() && holdRequests.isEmpty()) {
                try {
                    lock.wait();
                } catch (InterruptedException e) {
                    Thread.currentThread().interrupt();
                    stopRequested = true;
                }
            }
            if (stopRequested || !liveSwaps.isEmpty() || !holdRequests.isEmpty()) {
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
        s.droppedByElement = sim.droppedByElement();
        s.distributions = sim.distributions();
        s.series = sim.series(); // rows are never written again once sampled: sharing them is safe
        s.swaps = new ArrayList<>(sim.swaps);
        snapshot = s;
    }

    /** @return the series as the run was prepared; thread-safe */
    @Override
    public List<String> seriesNames() {
        return seriesNames;
    }

    /** @return the names as the run was prepared (a swap's new metrics are not among them); thread-safe */
    @Override
    public Map<String, java.util.Set<String>> metricNames() {
        return metricNames;
    }
}
