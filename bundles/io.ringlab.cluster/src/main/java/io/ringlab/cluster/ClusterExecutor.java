package io.ringlab.cluster;

import java.io.PrintStream;
import java.util.HashMap;
import java.util.HashSet;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.UUID;
import java.util.concurrent.ExecutionException;
import java.util.function.Consumer;

import com.hazelcast.client.HazelcastClient;
import com.hazelcast.cluster.Member;
import com.hazelcast.core.HazelcastInstance;
import com.hazelcast.durableexecutor.DurableExecutorService;
import com.hazelcast.durableexecutor.DurableExecutorServiceFuture;
import com.hazelcast.partition.Partition;

import io.ringlab.experiment.api.ClusterException;
import io.ringlab.experiment.api.RunExecutor;
import io.ringlab.experiment.api.dto.RunTaskDTO;
import io.ringlab.sim.api.PipelineException;
import io.ringlab.sim.api.dto.ProblemDTO;
import io.ringlab.sim.api.dto.RunResultDTO;

/**
 * A cluster client's {@link RunExecutor}: sends each run to a worker through the durable executor {@value
 * WorkerMember#EXECUTOR}, keyed so that it lands on a chosen member (the one with the most free threads among those
 * that run this Ringlab build), and waits for the answer. Hazelcast keeps each task with a backup on another member: if
 * the worker dies, the task's partition moves to the backup's member, which runs it again, and the wait ends with that
 * answer (a run executed twice is still answered, and recorded, once). A Hazelcast client opens no listening socket.
 * <p>
 * Thread-safe.
 */
final class ClusterExecutor implements RunExecutor {
    /** How long a client waits for the cluster when it connects: 20 s. */
    static final long CONNECT_TIMEOUT_MILLIS = 20_000;
    /** How long a run waits for a worker of this build to come back when none is left: 60 s. */
    static final long NO_WORKER_MILLIS = 60_000;
    /** How many times a run is sent before its failures count: a task lost with its worker is sent again. */
    static final int MAX_ATTEMPTS = 5;

    private final HazelcastInstance client;
    private final DurableExecutorService executor;
    private final Build build;
    private final PrintStream log;
    private final int parallelism;
    /** Runs in progress per member; guarded by {@code this}. */
    private final Map<UUID, Integer> busy = new HashMap<>();
    /** Members already named as refused, so each is named once; guarded by {@code this}. */
    private final Set<UUID> refused = new HashSet<>();
    /** The next partition key to try; guarded by {@code this}. */
    private int nextKey;
    /** The submitter's plug-ins, by {@link Plugins#key}: each task names them, each worker installs those it lacks. */
    private final List<String> plugins;
    /** Workers that cannot use the plug-ins, with why: they are sent no further run; guarded by {@code this}. */
    private final Map<UUID, String> unfit = new HashMap<>();

    private ClusterExecutor(HazelcastInstance client, Build build, PrintStream log, List<String> plugins) {
        this.client = client;
        this.plugins = List.copyOf(plugins);
        this.executor = client.getDurableExecutorService(WorkerMember.EXECUTOR);
        this.build = build;
        this.log = log;
        int threads = 0;
        for (Member m : workers()) {
            threads += threads(m);
        }
        this.parallelism = threads;
    }

    /**
     * @param plugins the submitter's plug-ins as jars, by {@link Plugins#key}: put in the cluster's map {@value
     *        Plugins#MAP} for the workers
     */
    static ClusterExecutor connect(ClusterFile file, ClassLoader classes, ClassLoader hazelcast, Build build,
            PrintStream log, Map<String, byte[]> plugins) throws ClusterException {
        HazelcastInstance client;
        ClassLoader tccl = Thread.currentThread().getContextClassLoader();
        Thread.currentThread().setContextClassLoader(hazelcast);
        try {
            com.hazelcast.client.config.ClientConfig cc = file.client(CONNECT_TIMEOUT_MILLIS);
            cc.setClassLoader(classes);
            client = HazelcastClient.newHazelcastClient(cc);
        } catch (RuntimeException e) {
            throw new ClusterException(file.file() + ": no member of cluster '" + file.name() + "' at "
                    + String.join(", ", file.members()) + " answered within " + CONNECT_TIMEOUT_MILLIS / 1000 + " s ("
                    + e.getMessage() + "): start workers with ringlab worker --cluster " + file.file(), e);
        } finally {
            Thread.currentThread().setContextClassLoader(tccl);
        }
        ClusterExecutor x = new ClusterExecutor(client, build, log, new java.util.ArrayList<>(plugins.keySet()));
        if (!plugins.isEmpty()) {
            com.hazelcast.map.IMap<String, byte[]> shipped = client.getMap(Plugins.MAP);
            plugins.forEach(shipped::putIfAbsent); // content-addressed: a key present holds the same bytes
        }
        if (x.parallelism == 0) {
            StringBuilder why = new StringBuilder();
            for (Member m : client.getCluster().getMembers()) {
                why.append("; ").append(WorkerMember.name(m)).append(": ").append(build.refuses(
                        m.getAttribute(Build.VERSION), m.getAttribute(Build.HASH)));
            }
            client.shutdown();
            throw new ClusterException(file.file() + ": no member of cluster '" + file.name() + "' runs " + build + why);
        }
        return x;
    }

    @Override
    public int parallelism() {
        return parallelism;
    }

    @Override
    public RunResultDTO run(RunTaskDTO task, Consumer<String> sent) throws PipelineException, InterruptedException {
        String json = Wire.task(task, plugins);
        for (int attempt = 1;; attempt++) {
            Member m = acquire(task.experiment);
            try {
                sent.accept(WorkerMember.name(m));
                DurableExecutorServiceFuture<String> f = executor.submitToKeyOwner(new RunCall(json), keyOf(m));
                String text;
                try {
                    text = f.get();
                } catch (ExecutionException e) {
                    if (attempt < MAX_ATTEMPTS && client.getLifecycleService().isRunning() && !workers().isEmpty()) {
                        continue; // the worker left, and the task with it: send it again
                    }
                    throw new IllegalStateException("the cluster lost run of variant " + task.variant + ", seed "
                            + task.seed + " (sent " + attempt + " times): " + e.getCause(), e.getCause());
                } finally {
                    dispose(f);
                }
                Wire.Answer a = Wire.answer(text);
                if (a.unfit()) {
                    synchronized (this) {
                        if (!unfit.containsKey(m.getUuid())) {
                            unfit.put(m.getUuid(), a.error());
                            log.println("ringlab: worker " + a.worker() + " is sent no further run: " + a.error());
                        }
                    }
                    continue; // to another worker, if one is left
                }
                if (a.error() != null) {
                    throw new PipelineException(List.of(new ProblemDTO(task.experiment, 0, 0, "worker " + a.worker() + ": "
                            + a.error())));
                }
                return a.result();
            } finally {
                release(m);
            }
        }
    }

    /** Frees the task's slot in its partition (a result nobody fetches would keep it). */
    private void dispose(DurableExecutorServiceFuture<String> f) {
        try {
            executor.disposeResult(f.getTaskId());
        } catch (RuntimeException e) {
            // the partition's member left meanwhile: the slot went with it
        }
    }

    /**
     * @return a member of this build with a free thread (the one with the most), waiting for one
     * @throws PipelineException if every worker left is unfit for the experiment, with the reasons
     */
    private synchronized Member acquire(String experiment) throws InterruptedException, PipelineException {
        long giveUp = System.nanoTime() + NO_WORKER_MILLIS * 1_000_000L;
        while (true) {
            List<Member> workers = workers();
            if (!workers.isEmpty() && unfit.keySet().containsAll(workers.stream().map(Member::getUuid).toList())) {
                throw new PipelineException(List.of(new ProblemDTO(experiment, 0, 0, "no worker can use this experiment's"
                        + " plug-ins: " + String.join("; ", new java.util.LinkedHashSet<>(unfit.values())))));
            }
            workers.removeIf(w -> unfit.containsKey(w.getUuid()));
            Member best = null;
            int bestFree = 0;
            for (Member m : workers) {
                int free = threads(m) - busy.getOrDefault(m.getUuid(), 0);
                if (free > bestFree) {
                    best = m;
                    bestFree = free;
                }
            }
            if (best != null) {
                busy.merge(best.getUuid(), 1, Integer::sum);
                return best;
            }
            if (workers.isEmpty() && System.nanoTime() > giveUp) {
                throw new IllegalStateException("no worker running " + build + " is left in the cluster (waited "
                        + NO_WORKER_MILLIS / 1000 + " s)");
            }
            wait(workers.isEmpty() ? 500 : 0); // a release, or a worker that comes back
        }
    }

    private synchronized void release(Member m) {
        busy.merge(m.getUuid(), -1, Integer::sum);
        notifyAll();
    }

    /** @return the members that run this build, naming (once each) those that do not */
    private List<Member> workers() {
        List<Member> out = new java.util.ArrayList<>();
        for (Member m : client.getCluster().getMembers()) {
            String why = build.refuses(m.getAttribute(Build.VERSION), m.getAttribute(Build.HASH));
            if (why == null) {
                out.add(m);
            } else {
                synchronized (this) {
                    if (refused.add(m.getUuid())) {
                        log.println("ringlab: cluster member " + WorkerMember.name(m) + " is sent no run: " + why);
                    }
                }
            }
        }
        return out;
    }

    private static int threads(Member m) {
        try {
            return Math.max(0, Integer.parseInt(m.getAttribute(Build.THREADS)));
        } catch (NumberFormatException e) {
            return 0;
        }
    }

    /** @return a partition key the member owns now, so that a task sent with it runs there */
    private synchronized String keyOf(Member m) {
        int partitions = client.getPartitionService().getPartitions().size();
        for (int i = 0; i < 4 * partitions; i++) {
            String key = "r" + (nextKey++ & 0xffff);
            Partition p = client.getPartitionService().getPartition(key);
            Member owner = p == null ? null : p.getOwner();
            if (owner != null && owner.getUuid().equals(m.getUuid())) {
                return key;
            }
        }
        return "r" + (nextKey++ & 0xffff); // the partition table is moving: any member runs it
    }

    @Override
    public void close() {
        if (client.getLifecycleService().isRunning()) {
            client.shutdown();
        }
    }
}
