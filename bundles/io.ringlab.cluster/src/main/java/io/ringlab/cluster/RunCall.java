package io.ringlab.cluster;

import java.io.Serializable;
import java.util.concurrent.Callable;

import com.hazelcast.core.HazelcastInstance;
import com.hazelcast.core.HazelcastInstanceAware;

/**
 * The task a client submits to the cluster's durable executor for one run: the run as JSON ({@link Wire}); on the
 * member it is handed to the worker ({@link WorkerMember#run}), which answers with JSON. Only this class and strings are
 * serialized by Hazelcast.
 */
final class RunCall implements Callable<String>, Serializable, HazelcastInstanceAware {
    private static final long serialVersionUID = 1L;
    /** The key of the member's user context under which its worker is found. */
    static final String WORKER = "ringlab.worker";

    private final String task;
    private transient HazelcastInstance instance;

    RunCall(String task) {
        this.task = task;
    }

    @Override
    public void setHazelcastInstance(HazelcastInstance hazelcastInstance) {
        this.instance = hazelcastInstance;
    }

    @Override
    public String call() throws InterruptedException {
        Object h = instance == null ? null : instance.getUserContext().get(WORKER);
        WorkerMember worker = h instanceof WorkerMember.Holder holder ? holder.await() : null;
        if (worker == null) {
            return Wire.answer(instance == null ? null : WorkerMember.name(instance.getCluster().getLocalMember()), null,
                    "this member is not a Ringlab worker ready for runs");
        }
        return worker.run(task);
    }
}
