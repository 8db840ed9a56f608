package io.ringlab.driver.api;

import java.util.function.Supplier;

import org.osgi.annotation.versioning.ProviderType;

import io.ringlab.queue.api.TxQueue;
import io.ringlab.sim.api.ElementContext;
import io.ringlab.sim.api.Metrics;
import io.ringlab.sim.api.dto.MetricDescriptorDTO;

/**
 * Kernel networking machinery a driver model needs, implemented by the engine and registered as a service. Thread-safe;
 * the objects it returns belong to one run.
 */
@ProviderType
public interface DriverSupport {

    /** Service property naming the networking core this support models, a {@code String}; the engine registers {@link #LINUX}. */
    String KIND = "ringlab.driversupport.kind";

    /** The kind of the engine's support: the Linux networking core ({@code net/core/dev.c}). */
    String LINUX = "linux";

    /**
     * {@code dev_tx_weight}: skbs one qdisc run ({@code __qdisc_run}) takes from the qdisc before it ends with
     * {@code __netif_schedule}. 64: {@code weight_p} (v3.18 to v4.11 use it directly as the quota), then
     * {@code dev_tx_weight = weight_p * dev_weight_tx_bias} (sysctl {@code net.core.dev_weight} 64 times
     * {@code net.core.dev_weight_tx_bias} 1, {@code net/core/dev.c}, {@code proc_do_dev_weight}), in
     * {@code net_hotdata} since v6.9. The quota of every {@link QdiscRun}.
     *
     * @since 1.4
     */
    int DEV_TX_WEIGHT = 64;

    /**
     * {@code netif_napi_add}: creates a NAPI context.
     *
     * @param context the driver element's context
     * @param core the core the poll runs on (the core that takes the device's interrupt)
     * @param weight the budget of one poll, 1 to 64 ({@code NAPI_POLL_WEIGHT} is 64)
     * @param pollCycles cycles charged per poll for the softirq entry and exit, at least 0
     * @param poller the poll function
     * @return the NAPI context
     */
    Napi napi(ElementContext context, int core, int weight, long pollCycles, NapiPoller poller);

    /**
     * Software GSO for a driver without TSO: the skbs to post, taken from {@code in}, a GSO skb split into
     * {@code segmentPool} (see {@link TxSegments}).
     *
     * @param context the driver element's context
     * @param core the core the driver transmits on
     * @param in the driver's input from the qdisc
     * @param segmentPool where segments come from; it needs room for the ring and one GSO skb's segments (745 at most)
     * @return the driver's segment source
     */
    TxSegments txSegments(ElementContext context, int core, io.ringlab.sim.api.InputPort in,
            io.ringlab.buffer.api.BufferPool segmentPool);

    /**
     * A TX descriptor ring for a driver (see {@link SendRing}).
     *
     * @param context the driver element's context
     * @param core the core the driver runs on
     * @param size descriptors in the ring, at least 1
     * @param wirePool where the wire's copies come from
     * @return the ring
     */
    SendRing sendRing(ElementContext context, int core, int size, io.ringlab.buffer.api.BufferPool wirePool);

    /**
     * A receive ring kept by the driver as an array of its descriptors' buffers, seen as a {@link DescriptorRing}: its
     * size is the array's length, {@code used} is what the driver says, and the buffers it holds are the array's
     * non-{@code null} entries (a descriptor's buffer, whether or not a frame is in it).
     *
     * @param slots the driver's descriptors, read live (not copied)
     * @param used the descriptors owned by the device or awaiting the driver
     * @return the view
     * @since 1.2
     */
    DescriptorRing receiveRing(io.ringlab.buffer.api.Buffer[] slots, java.util.function.IntSupplier used);

    /**
     * The qdisc run of the driver's TX queue (see {@link QdiscRun}): the transmit loop of {@code net/core/dev.c} with
     * the quota {@link #DEV_TX_WEIGHT}, on the sending core, handing skbs to {@code driver}; software GSO for a driver
     * without TSO as {@link #txSegments} does.
     *
     * @param context the driver element's context
     * @param core the device's core: where a run goes when no task signals (process context) and where freed
     *        segments' skbs are returned
     * @param in the driver's input from the qdisc
     * @param segmentPool where segments come from (see {@link #txSegments})
     * @param driver the driver's {@code ndo_start_xmit} side
     * @return the run
     * @since 1.4
     */
    QdiscRun qdiscRun(ElementContext context, int core, io.ringlab.sim.api.InputPort in,
            io.ringlab.buffer.api.BufferPool segmentPool, StartXmit driver);

    /**
     * The declarations of the gauges {@link #bqlMetrics} registers, in its order, for a driver factory's descriptor.
     *
     * @since 1.5
     */
    java.util.List<MetricDescriptorDTO> BQL_METRICS = java.util.List.of(MetricDescriptorDTO.bqlLimit(),
            MetricDescriptorDTO.bqlInflight(), MetricDescriptorDTO.bqlLimitMin(), MetricDescriptorDTO.bqlLimitMax(),
            MetricDescriptorDTO.bqlHoldTimeMillis(), MetricDescriptorDTO.bqlStackStops(),
            MetricDescriptorDTO.bqlDriverStops());

    /**
     * Registers a TX queue's Byte Queue Limits figures as a driver reports them ({@code /sys/class/net/DEV/queues/tx-N/
     * byte_queue_limits/limit} and {@code inflight}, and who stopped the queue): the gauges
     * {@link MetricDescriptorDTO#bqlLimit()}, {@link MetricDescriptorDTO#bqlInflight()} (0 without BQL),
     * {@link MetricDescriptorDTO#bqlStackStops()} and {@link MetricDescriptorDTO#bqlDriverStops()}, and the first two as
     * series when the queue has BQL; since 1.5 also the sysfs files' bounds {@link MetricDescriptorDTO#bqlLimitMin()},
     * {@link MetricDescriptorDTO#bqlLimitMax()} and {@link MetricDescriptorDTO#bqlHoldTimeMillis()} (0 without BQL). The
     * factory declares the seven ({@link #BQL_METRICS}).
     *
     * @param m the driver element's metrics
     * @param txq reads the element's TX queue, at registration and at every sample: a hot swap's successor takes its
     *        predecessor's queue over after it registered its metrics
     * @since 1.4
     */
    static void bqlMetrics(Metrics m, Supplier<TxQueue> txq) {
        // the order of BQL_METRICS
        m.gauge(MetricDescriptorDTO.bqlLimit(),
                () -> txq.get().limits() == null ? 0 : Integer.toUnsignedLong(txq.get().limits().limit()));
        m.gauge(MetricDescriptorDTO.bqlInflight(),
                () -> txq.get().limits() == null ? 0 : Integer.toUnsignedLong(txq.get().limits().inflight()));
        m.gauge(MetricDescriptorDTO.bqlLimitMin(),
                () -> txq.get().limits() == null ? 0 : Integer.toUnsignedLong(txq.get().limits().minLimit()));
        m.gauge(MetricDescriptorDTO.bqlLimitMax(),
                () -> txq.get().limits() == null ? 0 : Integer.toUnsignedLong(txq.get().limits().maxLimit()));
        m.gauge(MetricDescriptorDTO.bqlHoldTimeMillis(),
                () -> txq.get().limits() == null ? 0 : txq.get().limits().holdTimeMillis());
        m.gauge(MetricDescriptorDTO.bqlStackStops(), () -> txq.get().stackStops());
        m.gauge(MetricDescriptorDTO.bqlDriverStops(), () -> txq.get().driverStops());
        if (txq.get().limits() != null) {
            m.series(MetricDescriptorDTO.bqlLimit().name);
            m.series(MetricDescriptorDTO.bqlInflight().name);
        }
    }
}
