package io.ringlab.qdisc;

import java.util.List;
import java.util.Map;

import org.osgi.service.component.annotations.Component;

import io.ringlab.queue.api.Qdisc;
import io.ringlab.queue.api.QdiscProvider;

/**
 * Qdisc kind {@code "fq_codel"}: Linux's fair-queueing CoDel ({@code net/sched/sch_fq_codel.c}), see {@link FqCodelQdisc}.
 * <p>
 * Settings, each a whole {@link Number}; defaults are the kernel's ({@code fq_codel_init}, {@code codel_params_init}):
 * <ul>
 * <li>{@value #LIMIT}: packet limit, 1 to 1,000,000, default 10,240 ({@code sch->limit = 10*1024});</li>
 * <li>{@value #FLOWS}: hash buckets, 1 to 65,536 (the kernel's range in {@code fq_codel_change}), default 1024;</li>
 * <li>{@value #QUANTUM}: DRR quantum in bytes, 256 to 1,048,576 ({@code max(256U, ...)} and
 * {@code FQ_CODEL_QUANTUM_MAX}; the kernel raises a smaller value to 256, Ringlab refuses it), default 1514
 * ({@code psched_mtu}: MTU 1500 + Ethernet header 14);</li>
 * <li>{@value #TARGET}: CoDel target in picoseconds, 0 to 100 s, default 5 ms ({@code MS2TIME(5)});</li>
 * <li>{@value #INTERVAL}: CoDel interval in picoseconds, 0 to 100 s, default 100 ms ({@code MS2TIME(100)}); both are
 * truncated to CoDel's 1024-ns unit as the kernel does ({@code (us * NSEC_PER_USEC) >> CODEL_SHIFT});</li>
 * <li>{@value #MEMORY_LIMIT}: bytes of {@code truesize}, 1 to 2^31 ({@code min(1U << 31, ...)}), default 32 MiB
 * ({@code 32 << 20});</li>
 * <li>{@value #DROP_BATCH}: packets dropped at most per overlimit event, 1 to 1,000,000, default 64
 * ({@code drop_batch_size}; current kernels take {@code max(1U, ...)});</li>
 * <li>{@value #MTU}: CoDel's {@code mtu} in bytes, 1 to 1,048,576, default 1514 ({@code psched_mtu}): CoDel never drops
 * while the qdisc's byte backlog is at most this;</li>
 * <li>{@value #PERTURBATION}: the hash seed, any {@code int}, default 0. An element draws it from its random stream.</li>
 * </ul>
 * Any other key is rejected, listing the allowed ones.
 * <p>
 * Stateless and thread-safe: every call returns an independent qdisc.
 */
@Component(service = QdiscProvider.class, property = QdiscProvider.KIND + "=fq_codel")
public final class FqCodelProvider implements QdiscProvider {

    /** Setting: packet limit. */
    public static final String LIMIT = "limit";
    /** Setting: number of hash buckets. */
    public static final String FLOWS = "flows";
    /** Setting: DRR quantum in bytes. */
    public static final String QUANTUM = "quantum";
    /** Setting: CoDel target in picoseconds. */
    public static final String TARGET = "target";
    /** Setting: CoDel interval in picoseconds. */
    public static final String INTERVAL = "interval";
    /** Setting: memory limit in bytes of truesize. */
    public static final String MEMORY_LIMIT = "memoryLimit";
    /** Setting: packets dropped at most per overlimit event. */
    public static final String DROP_BATCH = "dropBatch";
    /** Setting: CoDel's mtu in bytes. */
    public static final String MTU = "mtu";
    /** Setting: the hash perturbation, an {@code int}. */
    public static final String PERTURBATION = "perturbation";

    /** Default packet limit: {@code sch->limit = 10*1024} ({@code fq_codel_init}). */
    static final int DEFAULT_LIMIT = 10 * 1024;
    /** Largest packet limit: a Ringlab bound (the kernel's is a {@code u32}) that keeps the preallocated slots small. */
    static final int MAX_LIMIT = 1_000_000;
    /** Default number of buckets: {@code q->flows_cnt = 1024} ({@code fq_codel_init}). */
    static final int DEFAULT_FLOWS = 1024;
    /** Largest number of buckets: 65,536 ({@code fq_codel_change} refuses more). */
    static final int MAX_FLOWS = 65_536;
    /**
     * Default quantum and mtu: {@code psched_mtu(dev)} = {@code dev->mtu + dev->hard_header_len} = 1500 + 14 for Ethernet
     * ({@code include/net/pkt_sched.h}), which {@code fq_codel_init} takes for both.
     */
    static final int DEFAULT_QUANTUM = 1514;
    /** Smallest quantum: 256 ({@code max(256U, ...)} in {@code fq_codel_change}). */
    static final int MIN_QUANTUM = 256;
    /** Largest quantum: {@code FQ_CODEL_QUANTUM_MAX = 1 << 20} ({@code include/uapi/linux/pkt_sched.h}). */
    static final int MAX_QUANTUM = 1 << 20;
    /** Default target: 5 ms ({@code codel_params_init}: {@code MS2TIME(5)}). */
    static final long DEFAULT_TARGET_PICOS = 5_000_000_000L;
    /** Default interval: 100 ms ({@code codel_params_init}: {@code MS2TIME(100)}). */
    static final long DEFAULT_INTERVAL_PICOS = 100_000_000_000L;
    /** Largest target or interval: 100 s, a Ringlab bound well inside CoDel's signed 32-bit clock (about 36 minutes). */
    static final long MAX_TIME_PICOS = 100_000_000_000_000L;
    /** Default memory limit: 32 MiB ({@code q->memory_limit = 32 << 20}, {@code fq_codel_init}). */
    static final long DEFAULT_MEMORY_LIMIT = 32L << 20;
    /** Largest memory limit: 2^31 bytes ({@code min(1U << 31, ...)} in {@code fq_codel_change}). */
    static final long MAX_MEMORY_LIMIT = 1L << 31;
    /** Default drop batch: 64 packets ({@code q->drop_batch_size = 64}, {@code fq_codel_init}). */
    static final int DEFAULT_DROP_BATCH = 64;
    /** Largest drop batch: a Ringlab bound, the largest limit. */
    static final int MAX_DROP_BATCH = MAX_LIMIT;
    /** Largest mtu: a Ringlab bound. */
    static final int MAX_MTU = 1 << 20;

    private static final List<String> KEYS = List.of(LIMIT, FLOWS, QUANTUM, TARGET, INTERVAL, MEMORY_LIMIT, DROP_BATCH,
            MTU, PERTURBATION);

    /** Creates the provider; Declarative Services calls it. */
    public FqCodelProvider() {
    }

    /**
     * @throws IllegalArgumentException with a {@code key=value} message for an unknown key or a value out of its range
     */
    @Override
    public Qdisc create(Map<String, Object> settings) {
        Settings.checkKeys(settings, KEYS);
        return new FqCodelQdisc(
                (int) Settings.whole(settings, LIMIT, 1, MAX_LIMIT, DEFAULT_LIMIT, "packets"),
                (int) Settings.whole(settings, FLOWS, 1, MAX_FLOWS, DEFAULT_FLOWS, "buckets"),
                (int) Settings.whole(settings, QUANTUM, MIN_QUANTUM, MAX_QUANTUM, DEFAULT_QUANTUM, "bytes"),
                Settings.whole(settings, TARGET, 0, MAX_TIME_PICOS, DEFAULT_TARGET_PICOS, "picoseconds"),
                Settings.whole(settings, INTERVAL, 0, MAX_TIME_PICOS, DEFAULT_INTERVAL_PICOS, "picoseconds"),
                Settings.whole(settings, MEMORY_LIMIT, 1, MAX_MEMORY_LIMIT, DEFAULT_MEMORY_LIMIT, "bytes"),
                (int) Settings.whole(settings, DROP_BATCH, 1, MAX_DROP_BATCH, DEFAULT_DROP_BATCH, "packets"),
                (int) Settings.whole(settings, MTU, 1, MAX_MTU, DEFAULT_QUANTUM, "bytes"),
                (int) Settings.whole(settings, PERTURBATION, Integer.MIN_VALUE, Integer.MAX_VALUE, 0, "(an int)"));
    }
}
