package io.ringlab.conformance;

import java.util.ArrayList;
import java.util.List;

import io.ringlab.queue.api.QueueLimits;
import io.ringlab.queue.api.QueueLimitsProvider;
import io.ringlab.queue.api.TxQueue;

/**
 * Queue limits kind {@code dql} as the kit registers it: the real provider's TX queues, each behind a {@link Recorded}
 * queue that adds up what the driver reports to BQL ({@code netdev_tx_sent_queue}, {@code netdev_tx_completed_queue})
 * and passes every call on unchanged.
 */
final class BqlRecorder implements QueueLimitsProvider {
    private final QueueLimitsProvider real;
    private final List<Recorded> queues = new ArrayList<>();

    BqlRecorder(QueueLimitsProvider real) {
        this.real = real;
    }

    @Override
    public TxQueue createTxQueue(boolean bql, int hz, int holdTimeJiffies, int minLimitBytes, int maxLimitBytes,
            boolean resetToMinLimit, TxQueue.Listener listener) {
        Recorded q = new Recorded(real.createTxQueue(bql, hz, holdTimeJiffies, minLimitBytes, maxLimitBytes, resetToMinLimit,
                listener));
        queues.add(q);
        return q;
    }

    /** @return the queues made so far, in order */
    List<Recorded> queues() {
        return queues;
    }

    /** A TX queue that counts the bytes reported sent and completed since its last reset. */
    static final class Recorded implements TxQueue {
        private final TxQueue q;
        long sentBytes, completedBytes, sentCalls, completedCalls;

        Recorded(TxQueue q) {
            this.q = q;
        }

        @Override
        public void sent(int bytes, long nowPicos) {
            sentBytes += bytes;
            sentCalls++;
            q.sent(bytes, nowPicos);
        }

        @Override
        public void completed(int packets, int bytes, long nowPicos) {
            completedBytes += bytes;
            completedCalls++;
            q.completed(packets, bytes, nowPicos);
        }

        @Override
        public void reset(long nowPicos) {
            sentBytes = 0;
            completedBytes = 0;
            q.reset(nowPicos);
        }

        @Override public void stopByDriver() { q.stopByDriver(); }
        @Override public void wakeByDriver() { q.wakeByDriver(); }
        @Override public boolean driverStopped() { return q.driverStopped(); }
        @Override public boolean stackStopped() { return q.stackStopped(); }
        @Override public boolean stopped() { return q.stopped(); }
        @Override public QueueLimits limits() { return q.limits(); }
        @Override public long stackStops() { return q.stackStops(); }
        @Override public long driverStops() { return q.driverStops(); }
        @Override public void listener(Listener listener) { q.listener(listener); }
    }
}
