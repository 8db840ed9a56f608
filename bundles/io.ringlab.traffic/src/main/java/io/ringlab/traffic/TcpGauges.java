package io.ringlab.traffic;

import io.ringlab.sim.api.Metrics;

/**
 * The gauges and series of a {@link TcpElement}, registered in the order its results list them: the goodput, the
 * windows, the bytes in flight, the RTT and RTO, the pacing rate and TSQ, the send buffer, each stream's own, and
 * CUBIC's state. They read the element's per-stream arrays when a snapshot or the result asks; the counters are the
 * element's. Declared in {@link TcpFactory}.
 */
final class TcpGauges {
    private TcpGauges() {
    }

    static void register(TcpElement t, Metrics m) {
        m.gauge(TcpFactory.GOODPUT_MBIT_PER_SECOND, () -> mbps(t, t.ackedBytes.get()), () -> {
            long sum = 0;
            for (TcpSock sk : t.socks) {
                sum += sk.ackEvents;
            }
            return sum;
        }, t.start);
        m.gauge(TcpFactory.CWND, () -> t.cc.cwnd[0]);
        m.gauge(TcpFactory.CWND_MEAN, () -> {
            long sum = 0;
            for (int s = 0; s < t.streams; s++) {
                sum += t.cc.cwnd[s];
            }
            return (double) sum / t.streams;
        });
        m.gauge(TcpFactory.SSTHRESH, () -> t.cc.ssthresh[0]);
        m.gauge(TcpFactory.IN_FLIGHT_BYTES, () -> {
            long sum = 0;
            for (int s = 0; s < t.streams; s++) {
                sum += t.socks[s].sndNxt - t.socks[s].sndUna;
            }
            return sum;
        });
        m.gauge(TcpFactory.SRTT_MILLIS, () -> {
            long sum = 0;
            int n = 0;
            for (int s = 0; s < t.streams; s++) {
                if (t.socks[s].srttUs > 0) {
                    sum += t.socks[s].srttUs >> 3;
                    n++;
                }
            }
            return n == 0 ? 0 : sum / 1e3 / n;
        });
        m.gauge(TcpFactory.RTO_MILLIS, () -> t.socks[0].rtoPicos / 1e9);
        m.gauge(TcpFactory.PACING_RATE_MBIT_PER_SECOND, () -> t.pacingRate[0] * 8 / 1e6);
        m.gauge(TcpFactory.TSQ_LIMIT_BYTES, () -> t.tsq == TcpElement.TSQ_OFF ? 0
                : t.tsqLimit(0, t.gso ? t.cfg.skb.gsoTruesize(t.mss, t.tsoSegs(0)) : t.fullTruesize));
        m.gauge(TcpFactory.WMEM_BYTES, () -> {
            long sum = 0;
            for (int s = 0; s < t.streams; s++) {
                sum += t.wmem[s];
            }
            return sum;
        });
        m.gauge(TcpFactory.WMEM_MAX_BYTES, () -> {
            long max = 0;
            for (int s = 0; s < t.streams; s++) {
                max = Math.max(max, t.wmemMax[s]);
            }
            return max;
        });
        for (int s = 0; s < t.streams; s++) {
            int k = s;
            m.gauge(TcpFactory.stream(TcpFactory.STREAM_GOODPUT_MBIT_PER_SECOND, s), () -> mbps(t, t.socks[k].bytesAcked),
                    () -> t.socks[k].ackEvents, t.start);
            m.gauge(TcpFactory.stream(TcpFactory.STREAM_ACKED_BYTES, s), () -> t.socks[k].bytesAcked);
            m.gauge(TcpFactory.stream(TcpFactory.STREAM_SRTT_MILLIS, s), () -> (t.socks[k].srttUs >> 3) / 1e3);
            m.gauge(TcpFactory.stream(TcpFactory.STREAM_CWND, s), () -> t.cc.cwnd[k]);
            m.gauge(TcpFactory.stream(TcpFactory.STREAM_WMEM_MAX_BYTES, s), () -> t.wmemMax[k]);
            m.gauge(TcpFactory.stream(TcpFactory.STREAM_FRAMES_SENT, s), () -> t.framesSent[k]);
            m.gauge(TcpFactory.stream(TcpFactory.STREAM_BYTES_SENT, s), () -> t.bytesSent[k]);
            m.gauge(TcpFactory.stream(TcpFactory.STREAM_FRAMES_RECEIVED, s), () -> t.framesReceived[k]);
            m.gauge(TcpFactory.stream(TcpFactory.STREAM_BYTES_RECEIVED, s), () -> t.bytesReceived[k]);
        }
        m.series(TcpFactory.CWND.name);
        m.series(TcpFactory.SSTHRESH.name);
        m.series(TcpFactory.IN_FLIGHT_BYTES.name);
        m.series(TcpFactory.ACKED_BYTES.name);
        for (int s = 0; s < t.streams; s++) {
            m.series(TcpFactory.stream(TcpFactory.STREAM_ACKED_BYTES, s));
            m.series(TcpFactory.stream(TcpFactory.STREAM_CWND, s));
            m.series(TcpFactory.stream(TcpFactory.STREAM_SRTT_MILLIS, s));
        }
        m.series(TcpFactory.WMEM_BYTES.name);
        if (t.tsq != TcpElement.TSQ_OFF) {
            m.series(TcpFactory.TSQ_LIMIT_BYTES.name);
        }
        if (t.cc instanceof Cubic cubic) {
            m.gauge(TcpFactory.CUBIC_WMAX, () -> cubic.originPoint(0));
            m.gauge(TcpFactory.CUBIC_KSECONDS, () -> cubic.kSeconds(0));
            m.gauge(TcpFactory.CUBIC_EPOCH_SECONDS, () -> cubic.epochStartSeconds(0));
            m.gauge(TcpFactory.CUBIC_DELAY_MIN_SECONDS, () -> cubic.delayMinSeconds(0));
            m.series(TcpFactory.CUBIC_WMAX.name);
            m.series(TcpFactory.CUBIC_KSECONDS.name);
            m.series(TcpFactory.CUBIC_EPOCH_SECONDS.name);
            m.series(TcpFactory.CUBIC_DELAY_MIN_SECONDS.name);
        }
    }

    /** @return bytes in megabits per second of the time since the streams started */
    private static double mbps(TcpElement t, long bytes) {
        long since = t.ctx.nowPicos() - t.start;
        return since <= 0 ? 0 : bytes * 8 / (since / 1e12) / 1e6;
    }
}
