package io.ringlab.experiment;

import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.concurrent.ExecutionException;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.concurrent.Future;
import java.util.concurrent.atomic.AtomicInteger;

import io.ringlab.experiment.api.ExperimentListener;
import io.ringlab.experiment.api.ResultsException;
import io.ringlab.experiment.api.RunExecutor;
import io.ringlab.experiment.api.RunStore;
import io.ringlab.experiment.api.dto.ExperimentDTO;
import io.ringlab.experiment.api.dto.RunSummaryDTO;
import io.ringlab.experiment.api.dto.RunTaskDTO;
import io.ringlab.pipeline.format.Syntax;
import io.ringlab.sim.api.PipelineException;
import io.ringlab.sim.api.SimulationRun;
import io.ringlab.sim.api.Simulator;
import io.ringlab.sim.api.dto.RunResultDTO;
import io.ringlab.sim.api.dto.ValueDTO;

/**
 * Runs the jobs of a {@link Plan} on a fixed number of worker threads, each run an independent
 * {@code Simulator.prepare(...).run()} on its worker, and collects the outcomes by the job's index, so the result is the
 * same whatever the number of threads and the order in which runs end. A run that fails is recorded with its error and
 * the others go on.
 * <p>
 * Cancellation: an interrupt of the thread in {@link #execute()} sets a flag that keeps workers from starting more runs
 * and stops the runs in progress (at their next safe point); {@link #execute()} then waits for the workers, returns what
 * ended, and sets the interrupt status again.
 * <p>
 * One instance executes once. Workers are daemon threads named {@code ringlab-experiment-N}.
 */
final class ParallelRuns {

    /**
     * What one run gave.
     *
     * @param summary the run's summary (state {@code CANCELLED} when it never started)
     * @param missing the experiment's metrics the run did not report, each with what it reported instead (for messages);
     *        empty for a run without result
     * @param ringlabVersion the engine's version from the result; {@code null} without result
     */
    record Outcome(RunSummaryDTO summary, Map<String, String> missing, String ringlabVersion) {
    }

    private final Simulator simulator;
    /** Where the runs run instead of {@link #simulator}'s threads here (a cluster), or {@code null}. */
    private final RunExecutor executor;
    /** With an executor, the bundles the keys were computed from (sent with each task). */
    private final Map<String, String> bundles;
    private final Plan plan;
    private final int threads;
    private final ExperimentListener listener;
    /** Where runs are kept, or {@code null}; with it, {@link #keys} holds every job's run key by job index. */
    private final RunStore store;
    private final String[] keys;
    private final boolean rerun;
    /** Why recording a run failed, once it did; then no further run starts. */
    private volatile String storeFailure;
    /** With a store, what records the runs as they end; {@code null} without. */
    private final Recorder recorder;
    private final Outcome[] outcomes;
    /** The run each job has in progress, by job index; guarded by {@link #lock}. */
    private final SimulationRun[] active;
    /** With an executor, the thread that waits for each job's remote run, by job index; guarded by {@link #lock}. */
    private final Thread[] waiting;
    /** With an executor, the worker each job was last sent to, by job index. */
    private final String[] workers;
    private final AtomicInteger next = new AtomicInteger();
    private final Object lock = new Object();
    private int done; // guarded by lock
    private volatile boolean cancelled;

    /**
     * @param store where runs are kept and found by key; {@code null} for none
     * @param keys with a store, every job's run key by job index
     * @param rerun with a store, run every job even if the store holds it
     */
    ParallelRuns(Simulator simulator, Plan plan, int threads, ExperimentListener listener, RunStore store, String[] keys,
            boolean rerun) {
        this(simulator, null, null, plan, threads, listener, store, keys, rerun);
    }

    /**
     * @param executor where the runs run (a cluster), or {@code null} for {@code simulator} on this process's threads;
     *        with one, {@code keys} must be given
     * @param bundles with an executor, the bundles {@code keys} were computed from
     */
    ParallelRuns(Simulator simulator, RunExecutor executor, Map<String, String> bundles, Plan plan, int threads,
            ExperimentListener listener, RunStore store, String[] keys, boolean rerun) {
        this.simulator = simulator;
        this.executor = executor;
        this.bundles = bundles;
        this.plan = plan;
        this.threads = threads;
        this.listener = listener;
        this.store = store;
        this.keys = keys;
        this.rerun = rerun;
        this.outcomes = new Outcome[plan.jobs.size()];
        this.active = new SimulationRun[plan.jobs.size()];
        this.waiting = new Thread[plan.jobs.size()];
        this.workers = new String[plan.jobs.size()];
        this.recorder = store == null ? null : new Recorder();
    }

    /**
     * @return every job's outcome by job index; those cancelled before they started have state {@code CANCELLED}
     * @throws ResultsException if the store cannot be read before the runs
     */
    Outcome[] execute() throws ResultsException {
        ExperimentDTO e = plan.experiment;
        if (listener != null) {
            listener.started(e, plan.jobs.size(), threads);
        }
        if (store != null && !rerun) {
            Map<String, RunSummaryDTO> held = store.find(java.util.Arrays.asList(keys));
            for (Plan.Job j : plan.jobs) { // what the store holds counts as run, and is not run again
                RunSummaryDTO found = held.get(keys[j.index()]);
                if (found != null) {
                    Outcome o = stored(j, found);
                    outcomes[j.index()] = o;
                    report(o, null);
                }
            }
        }
        if (recorder != null) {
            recorder.start();
        }
        AtomicInteger number = new AtomicInteger();
        ExecutorService pool = Executors.newFixedThreadPool(threads, r -> {
            Thread t = new Thread(r, "ringlab-experiment-" + number.incrementAndGet());
            t.setDaemon(true);
            return t;
        });
        boolean interrupted = false;
        try {
            List<Future<?>> workers = new ArrayList<>();
            for (int i = 0; i < threads; i++) {
                workers.add(pool.submit(this::work));
            }
            for (Future<?> w : workers) {
                while (true) {
                    try {
                        w.get();
                        break;
                    } catch (InterruptedException ex) {
                        interrupted = true;
                        cancel();
                    } catch (ExecutionException ex) {
                        throw new IllegalStateException("an experiment worker failed: " + ex.getCause(), ex.getCause());
                    }
                }
            }
        } finally {
            pool.shutdownNow();
            if (recorder != null) {
                recorder.finish(); // what ended is recorded, even after a cancel
            }
            if (interrupted) {
                Thread.currentThread().interrupt();
            }
        }
        for (Plan.Job j : plan.jobs) {
            if (outcomes[j.index()] == null) {
                outcomes[j.index()] = cancelledOutcome(j);
            }
        }
        return outcomes;
    }

    /** @return whether the runs were cancelled (a signal, or a run that could not be recorded) */
    boolean cancelled() {
        return cancelled;
    }

    /** @return why recording a run failed, or {@code null} */
    String storeFailure() {
        return storeFailure;
    }

    private void cancel() {
        synchronized (lock) {
            cancelled = true;
            for (SimulationRun run : active) {
                if (run != null) {
                    run.stop();
                }
            }
            for (Thread t : waiting) {
                if (t != null) {
                    t.interrupt(); // a remote run cannot be stopped from here: its wait ends, its result is dropped
                }
            }
        }
    }

    private void work() {
        while (!cancelled) {
            int i = next.getAndIncrement();
            if (i >= plan.jobs.size()) {
                return;
            }
            Plan.Job job = plan.jobs.get(i);
            if (outcomes[job.index()] != null) {
                continue; // taken from the store
            }
            RunResultDTO result = null;
            Outcome o;
            try {
                result = runOne(job);
                o = result == null ? cancelledOutcome(job) : outcome(job, result);
            } catch (PipelineException | RuntimeException | OutOfMemoryError ex) {
                RunSummaryDTO s = summary(job);
                s.state = RunSummaryDTO.FAILED;
                s.error = ex instanceof PipelineException ? ex.getMessage() : ex.toString();
                o = new Outcome(s, Map.of(), null);
            }
            if (recorder != null && !RunSummaryDTO.CANCELLED.equals(o.summary().state)) {
                recorder.put(job, o, result); // recorded, then reported, on the recorder's thread
            } else {
                outcomes[job.index()] = o;
                report(o, result);
            }
        }
    }

    /** A run that ended, waiting to be recorded. */
    private record Ended(Plan.Job job, Outcome outcome, RunResultDTO result) {
    }

    /**
     * Records the runs as they end, on a thread of its own, so that the workers go on simulating while the store writes:
     * it takes every run waiting and those that end within {@link #GATHER_NANOS} (at most {@link #BATCH}) and hands them
     * to the store in one call (one transaction),
     * then reports each to the listener, so that a run reported has been recorded. A full queue makes the workers wait.
     * After a failure to record, the runs are stopped and what still arrives is reported without being recorded.
     */
    private final class Recorder implements Runnable {
        static final int BATCH = 64;
        /** How long the recorder gathers runs that end after the first of a batch: 50 ms. */
        static final long GATHER_NANOS = 50_000_000L;
        private final java.util.concurrent.BlockingQueue<Ended> queue = new java.util.concurrent.ArrayBlockingQueue<>(2 * BATCH);
        private final Ended end = new Ended(null, null, null);
        private final Thread thread = new Thread(this, "ringlab-experiment-recorder");

        void start() {
            thread.setDaemon(true);
            thread.start();
        }

        void put(Plan.Job job, Outcome o, RunResultDTO result) {
            boolean interrupted = false;
            while (true) {
                try {
                    queue.put(new Ended(job, o, result));
                    break;
                } catch (InterruptedException ex) {
                    interrupted = true; // the run ended: it is kept whatever happens
                }
            }
            if (interrupted) {
                Thread.currentThread().interrupt();
            }
        }

        /** Waits until every run put before has been recorded and reported. */
        void finish() {
            put(null, null, null);
            boolean interrupted = false;
            while (true) {
                try {
                    thread.join();
                    break;
                } catch (InterruptedException ex) {
                    interrupted = true;
                }
            }
            if (interrupted) {
                Thread.currentThread().interrupt();
            }
        }

        @Override
        public void run() {
            List<Ended> batch = new ArrayList<>();
            boolean last = false;
            while (!last) {
                batch.clear();
                try {
                    batch.add(queue.take());
                } catch (InterruptedException ex) {
                    continue; // nobody interrupts this thread but the JVM's end
                }
                // gather what ends within GATHER_NANOS (a commit costs milliseconds, a run's rows far less)
                long until = System.nanoTime() + GATHER_NANOS;
                while (batch.size() < BATCH && batch.get(batch.size() - 1).job() != null) {
                    long left = until - System.nanoTime();
                    Ended x = null;
                    try {
                        x = left > 0 ? queue.poll(left, java.util.concurrent.TimeUnit.NANOSECONDS) : queue.poll();
                    } catch (InterruptedException ex) {
                        // nobody interrupts this thread but the JVM's end: record what is there
                    }
                    if (x == null) {
                        break;
                    }
                    batch.add(x);
                }
                if (batch.get(batch.size() - 1).job() == null) {
                    batch.remove(batch.size() - 1);
                    last = true;
                }
                if (batch.isEmpty()) {
                    continue;
                }
                if (storeFailure == null) {
                    List<RunSummaryDTO> summaries = new ArrayList<>();
                    List<RunResultDTO> results = new ArrayList<>();
                    batch.forEach(x -> {
                        summaries.add(x.outcome().summary());
                        results.add(x.result());
                    });
                    try {
                        store.record(plan.experiment, summaries, results);
                    } catch (ResultsException | RuntimeException ex) {
                        storeFailure = batch.size() + " run" + (batch.size() == 1 ? "" : "s") + " from variant "
                                + summaries.get(0).variant + ", seed " + summaries.get(0).seed
                                + " on could not be recorded: " + ex.getMessage();
                        cancel();
                    }
                }
                for (Ended x : batch) {
                    outcomes[x.job().index()] = x.outcome();
                    report(x.outcome(), x.result());
                }
            }
        }
    }

    /**
     * A run the store holds: its summary with only the experiment's metrics, and the metrics it lacks named as for a run
     * that did not report them.
     */
    private Outcome stored(Plan.Job job, RunSummaryDTO found) {
        RunSummaryDTO s = summary(job);
        s.stored = true;
        s.state = found.state;
        s.error = found.error;
        s.packetConservation = found.packetConservation;
        s.bufferConservation = found.bufferConservation;
        s.violations.addAll(found.violations);
        s.simulatedSeconds = found.simulatedSeconds;
        s.wallSeconds = found.wallSeconds;
        s.events = found.events;
        s.packets = found.packets;
        s.swaps.addAll(found.swaps);
        s.forkStateHash = found.forkStateHash;
        s.sampleWarnings.addAll(found.sampleWarnings);
        Map<String, String> missing = new LinkedHashMap<>();
        for (ValueDTO metric : plan.experiment.metrics) {
            if (found.metrics.containsKey(metric.text)) {
                s.metrics.put(metric.text, found.metrics.get(metric.text));
            } else {
                missing.put(metric.text, "the run stored under key " + s.key + " has no '" + metric.text + "'");
            }
        }
        return new Outcome(s, missing, null);
    }

    /** @return the run's result, or {@code null} if the experiment was cancelled before the run started */
    private RunResultDTO runOne(Plan.Job job) throws PipelineException {
        if (executor != null) {
            return runRemote(job);
        }
        SimulationRun run = simulator.prepare(plan.pipeline(job.variant(), job.point()),
                plan.options(job.variant(), job.point(), job.seed()));
        synchronized (lock) {
            if (cancelled) {
                run.close();
                return null;
            }
            active[job.index()] = run;
        }
        started(summary(job));
        try {
            return run.run();
        } catch (IllegalStateException ex) {
            if (cancelled) {
                return null; // cancel() stopped the run before it started: stop() ended it, so run() refuses
            }
            throw ex;
        } finally {
            synchronized (lock) {
                active[job.index()] = null;
            }
        }
    }

    /**
     * Sends the job to the executor and waits for its result.
     *
     * @return the result, or {@code null} if the experiment was cancelled before or while it waited
     */
    private RunResultDTO runRemote(Plan.Job job) throws PipelineException {
        RunTaskDTO task = new RunTaskDTO();
        task.key = keys[job.index()];
        task.experiment = plan.experiment.name;
        task.variant = plan.experiment.variants.get(job.variant()).name;
        task.seed = job.seed();
        task.pipeline = plan.pipeline(job.variant(), job.point());
        task.options = plan.options(job.variant(), job.point(), job.seed());
        task.bundles.putAll(bundles);
        synchronized (lock) {
            if (cancelled) {
                return null;
            }
            waiting[job.index()] = Thread.currentThread();
        }
        try {
            return executor.run(task, worker -> {
                workers[job.index()] = worker;
                started(summary(job));
            });
        } catch (InterruptedException ex) {
            return null; // only cancel() interrupts a waiting worker: the run counts as cancelled
        } finally {
            synchronized (lock) {
                waiting[job.index()] = null;
                Thread.interrupted(); // an interrupt from cancel() that came after the result: this thread goes on
            }
        }
    }

    /** Tells the listener that a run started (or was sent to a worker). */
    private void started(RunSummaryDTO s) {
        if (listener == null) {
            return;
        }
        synchronized (lock) {
            try {
                listener.runStarted(s);
            } catch (RuntimeException ex) {
                // a listener's failure must not stop the experiment (ExperimentListener says so)
            }
        }
    }

    private void report(Outcome o, RunResultDTO result) {
        if (listener == null) {
            return;
        }
        synchronized (lock) {
            done++;
            try {
                listener.runEnded(o.summary(), result, done, plan.jobs.size());
            } catch (RuntimeException ex) {
                // a listener's failure must not stop the experiment (ExperimentListener says so)
            }
        }
    }

    private Outcome cancelledOutcome(Plan.Job job) {
        RunSummaryDTO s = summary(job);
        s.state = RunSummaryDTO.CANCELLED;
        return new Outcome(s, Map.of(), null);
    }

    private RunSummaryDTO summary(Plan.Job job) {
        RunSummaryDTO s = new RunSummaryDTO();
        s.key = keys == null ? null : keys[job.index()];
        s.variant = plan.experiment.variants.get(job.variant()).name;
        s.seed = job.seed();
        s.point.putAll(plan.points.get(job.point()));
        s.worker = workers[job.index()];
        return s;
    }

    /** Takes what the experiment needs from a run's result: state, invariants, headline numbers, the metrics. */
    private Outcome outcome(Plan.Job job, RunResultDTO r) {
        RunSummaryDTO s = summary(job);
        s.state = r.state;
        s.error = r.error;
        s.packetConservation = r.invariants.packetConservation;
        s.bufferConservation = r.invariants.bufferConservation;
        s.violations.addAll(r.invariants.violations);
        s.headline = r.headline;
        s.simulatedSeconds = r.simulatedSeconds;
        s.wallSeconds = r.wallSeconds;
        s.events = r.events;
        s.packets = r.packets;
        s.swaps.addAll(r.swaps);
        s.forkStateHash = r.forkStateHash;
        s.sampleWarnings.addAll(r.sampleWarnings);
        Map<String, String> missing = new LinkedHashMap<>();
        for (ValueDTO metric : plan.experiment.metrics) {
            String m = metric.text;
            int dot = m.lastIndexOf('.');
            Map<String, Double> owner = r.elements.get(m.substring(0, dot));
            if (owner == null) {
                missing.put(m, "the run reported no '" + m.substring(0, dot) + "'; it reported " + Syntax.list(r.elements.keySet()));
            } else if (!owner.containsKey(m.substring(dot + 1))) {
                missing.put(m, m.substring(0, dot) + " reported " + Syntax.list(owner.keySet()));
            } else {
                Double v = owner.get(m.substring(dot + 1));
                s.metrics.put(m, v != null && Double.isFinite(v) ? v : null);
            }
        }
        return new Outcome(s, missing, r.ringlabVersion);
    }
}
