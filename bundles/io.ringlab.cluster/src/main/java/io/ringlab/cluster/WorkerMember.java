package io.ringlab.cluster;

import java.io.PrintStream;
import java.util.ArrayList;
import java.util.List;
import java.util.Locale;
import java.util.concurrent.CountDownLatch;
import java.util.concurrent.atomic.AtomicLong;

import com.hazelcast.cluster.Member;
import com.hazelcast.cluster.MembershipEvent;
import com.hazelcast.cluster.MembershipListener;
import com.hazelcast.config.Config;
import com.hazelcast.config.DurableExecutorConfig;
import com.hazelcast.core.Hazelcast;
import com.hazelcast.core.HazelcastInstance;
import com.hazelcast.core.LifecycleEvent;

import io.ringlab.experiment.api.ClusterException;
import io.ringlab.experiment.api.ClusterService;
import io.ringlab.experiment.api.ExperimentService;
import io.ringlab.experiment.api.dto.RunTaskDTO;
import io.ringlab.sim.api.PipelineException;
import io.ringlab.sim.api.dto.RunResultDTO;

/**
 * A worker: a Hazelcast member whose durable executor {@value #EXECUTOR} runs the clients' {@link RunCall}s, as many at
 * once as it has threads, each through {@link ExperimentService#execute} (which refuses a run whose key this
 * installation would compute differently). Its attributes say which Ringlab it runs ({@link Build}) and how many threads
 * it has, for the clients' scheduling.
 * <p>
 * On start it checks the members already there: if one runs another Ringlab build it leaves at once and says why. A
 * member of another build that joins later is named in the log (clients send it nothing).
 */
final class WorkerMember implements ClusterService.Worker {
    /** The durable executor's name, on members and clients. */
    static final String EXECUTOR = "ringlab-runs";
    /**
     * Tasks a partition keeps (waiting, running, or with a result not yet fetched): Hazelcast's default, 100. A client
     * sends at most one task per worker thread at a time, and fetches and disposes of each result.
     */
    static final int CAPACITY = 100;

    private final HazelcastInstance hz;
    private final ExperimentService experiments;
    private final PrintStream log;
    private final String address;
    private final CountDownLatch closed = new CountDownLatch(1);
    private final AtomicLong ran = new AtomicLong();
    /** The worker's framework, where shipped plug-ins are installed; {@code null} outside one (unit tests). */
    private final org.osgi.framework.BundleContext context;
    /** Plug-ins checked or installed here, by {@link Plugins#key}. */
    private final java.util.Set<String> plugins = java.util.concurrent.ConcurrentHashMap.newKeySet();
    /** Why a set of plug-ins cannot be used here, by the set (its keys joined), once found. */
    private final java.util.Map<String, String> unfit = new java.util.concurrent.ConcurrentHashMap<>();

    private WorkerMember(HazelcastInstance hz, ExperimentService experiments, PrintStream log,
            org.osgi.framework.BundleContext context) {
        this.hz = hz;
        this.experiments = experiments;
        this.log = log;
        this.context = context;
        Member self = hz.getCluster().getLocalMember();
        this.address = self.getAddress().getHost() + ":" + self.getAddress().getPort();
    }

    /** Joins the cluster; see {@link ClusterService#startWorker}. */
    static WorkerMember start(ClusterFile file, ClassLoader classes, ClassLoader hazelcast, int threads,
            ExperimentService experiments, PrintStream log, org.osgi.framework.BundleContext context)
            throws ClusterException {
        Build build = Build.of(experiments.bundles(), context == null ? null : Plugins.core(context));
        Config c = file.member();
        c.setClassLoader(classes);
        // SIGTERM or Ctrl-C: leave gracefully (partitions and their tasks move to the other members first)
        c.setProperty("hazelcast.shutdownhook.policy", "GRACEFUL");
        c.addDurableExecutorConfig(new DurableExecutorConfig(EXECUTOR).setPoolSize(threads).setCapacity(CAPACITY)
                .setDurability(1));
        c.getMemberAttributeConfig().setAttribute(Build.VERSION, build.version());
        c.getMemberAttributeConfig().setAttribute(Build.HASH, build.hash());
        c.getMemberAttributeConfig().setAttribute(Build.THREADS, Integer.toString(threads));
        Holder holder = new Holder();
        c.getUserContext().put(RunCall.WORKER, holder);
        HazelcastInstance hz;
        ClassLoader tccl = Thread.currentThread().getContextClassLoader();
        Thread.currentThread().setContextClassLoader(hazelcast);
        try {
            hz = Hazelcast.newHazelcastInstance(c);
        } catch (RuntimeException e) {
            throw new ClusterException(file.file() + ": the worker cannot start: " + e.getMessage(), e);
        } finally {
            Thread.currentThread().setContextClassLoader(tccl);
        }
        WorkerMember w = new WorkerMember(hz, experiments, log, context);
        for (Member m : hz.getCluster().getMembers()) {
            String why = m.localMember() ? null : build.refuses(m.getAttribute(Build.VERSION), m.getAttribute(Build.HASH));
            if (why != null) {
                hz.shutdown();
                throw new ClusterException(file.file() + ": cluster '" + file.name() + "' has member " + name(m) + ", and "
                        + why + ": every worker of a cluster must run the same Ringlab build; this worker left it");
            }
        }
        holder.ready(w);
        hz.getLifecycleService().addLifecycleListener(e -> {
            if (e.getState() == LifecycleEvent.LifecycleState.SHUTDOWN) {
                w.closed.countDown();
            }
        });
        hz.getCluster().addMembershipListener(new MembershipListener() {
            @Override
            public void memberAdded(MembershipEvent e) {
                String why = build.refuses(e.getMember().getAttribute(Build.VERSION), e.getMember().getAttribute(Build.HASH));
                w.say("member " + name(e.getMember()) + " joined" + (why == null ? "" : ", but " + why
                        + ": clients send it nothing") + "; " + e.getMembers().size() + " members");
            }

            @Override
            public void memberRemoved(MembershipEvent e) {
                w.say("member " + name(e.getMember()) + " left; " + e.getMembers().size() + " members (its runs are run"
                        + " again by the others)");
            }
        });
        w.say("worker " + w.address + " joined cluster '" + file.name() + "' (" + hz.getCluster().getMembers().size()
                + " members), " + threads + " thread" + (threads == 1 ? "" : "s") + ", " + build + "; waiting for runs");
        return w;
    }

    /**
     * What the member's user context holds under {@link RunCall#WORKER}: the worker, once the member has checked the
     * cluster's builds; a task that arrives before waits for it.
     */
    static final class Holder {
        private final CountDownLatch ready = new CountDownLatch(1);
        private volatile WorkerMember worker;

        void ready(WorkerMember w) {
            worker = w;
            ready.countDown();
        }

        /** @return the worker, or {@code null} if it is not ready within 30 s (it left the cluster) */
        WorkerMember await() throws InterruptedException {
            ready.await(30, java.util.concurrent.TimeUnit.SECONDS);
            return worker;
        }
    }

    /**
     * Runs one task (on one of the durable executor's threads), after installing the submitter's plug-ins it lacks.
     *
     * @param json the task, from {@link Wire#task(RunTaskDTO, List)}
     * @return the answer, from {@link Wire#answer(String, RunResultDTO, String, boolean)}
     */
    String run(String json) {
        Wire.Task t;
        try {
            t = Wire.task(json);
        } catch (RuntimeException e) {
            return Wire.answer(address, null, "the worker cannot read the task: " + e.getMessage());
        }
        RunTaskDTO task = t.run();
        String cannot = plugins(t.plugins());
        if (cannot != null) {
            return Wire.answer(address, null, cannot + "; this worker takes no run of experiment " + task.experiment, true);
        }
        long start = System.nanoTime();
        try {
            RunResultDTO r = experiments.execute(task);
            say(String.format(Locale.ROOT, "ran %s, variant %s, seed %d: %s in %.2f s (%d runs)", task.experiment,
                    task.variant, task.seed, r.state, (System.nanoTime() - start) / 1e9, ran.incrementAndGet()));
            return Wire.answer(address, r, null);
        } catch (PipelineException e) {
            say("refused " + task.experiment + ", variant " + task.variant + ", seed " + task.seed + ": " + e.getMessage());
            return Wire.answer(address, null, e.getMessage());
        } catch (RuntimeException | OutOfMemoryError e) {
            say("run of " + task.experiment + ", variant " + task.variant + ", seed " + task.seed + " failed: " + e);
            return Wire.answer(address, null, "the run failed on worker " + address + ": " + e);
        }
    }

    /** @return why the submitter's plug-ins cannot be used here, or {@code null} once each is here */
    private String plugins(List<String> keys) {
        if (keys.isEmpty() || plugins.containsAll(keys)) {
            return null;
        }
        String set = String.join(" ", keys);
        String known = unfit.get(set);
        if (known != null) {
            return known;
        }
        if (context == null) {
            return "this worker runs outside a framework and cannot install the submitter's plug-ins";
        }
        com.hazelcast.map.IMap<String, byte[]> shipped = hz.getMap(Plugins.MAP);
        String why = Plugins.ensure(context, keys, shipped::get);
        if (why != null) {
            unfit.put(set, why);
            say("cannot use the submitter's plug-ins: " + why);
            return why;
        }
        say("plug-ins of the submitter here: " + set);
        plugins.addAll(keys);
        return null;
    }

    private void say(String line) {
        synchronized (log) {
            log.println(line);
            log.flush();
        }
    }

    static String name(Member m) {
        return m.getAddress().getHost() + ":" + m.getAddress().getPort();
    }

    @Override
    public String address() {
        return address;
    }

    @Override
    public List<String> members() {
        List<String> out = new ArrayList<>();
        if (hz.getLifecycleService().isRunning()) {
            hz.getCluster().getMembers().forEach(m -> out.add(name(m)));
        }
        return out;
    }

    @Override
    public void awaitClosed() throws InterruptedException {
        closed.await();
    }

    @Override
    public void close() {
        if (hz.getLifecycleService().isRunning()) {
            hz.shutdown(); // graceful: its partitions, and the tasks in them, move to the other members first
        }
        closed.countDown();
    }
}
