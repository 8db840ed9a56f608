package io.ringlab.engine.kernel;

import java.util.ArrayList;
import java.util.Arrays;
import java.util.BitSet;
import java.util.HashMap;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.TreeMap;
import java.util.function.DoubleSupplier;

import io.ringlab.buffer.api.Buffer;
import io.ringlab.buffer.api.BufferDestructor;
import io.ringlab.buffer.api.BufferPool;
import io.ringlab.buffer.api.BufferPoolProvider;
import io.ringlab.buffer.api.PoolContext;
import io.ringlab.buffer.api.dto.PoolStatsDTO;
import io.ringlab.sim.api.CostProfile;
import io.ringlab.sim.api.Element;
import io.ringlab.sim.api.dto.InvariantReportDTO;
import io.ringlab.sim.api.dto.MetricDescriptorDTO;
import io.ringlab.sim.api.dto.RuntimeRowDTO;
import io.ringlab.sim.api.dto.SeriesDTO;

/**
 * The state of one run: virtual clock, pending events, elements, cores, pools, packet and buffer accounting, and the event
 * loop. Single-threaded and deterministic: the same pipeline and seed give the same sequence of events.
 * <p>
 * Not thread-safe: every method is called on the run's engine thread (or before it starts), except where noted.
 */
public final class Simulation implements PoolContext, MetricsImpl.Window {
    /** Virtual time in picoseconds; inside a CPU task, the task's clock. */
    long now;
    final EventQueue events = new EventQueue();
    final Registry registry;
    final CostProfile profile;
    private final CacheModel caches;
    final CoreImpl[] cores;
    final long seed;
    int currentCore = -1;
    /** The owner of the event being processed, or -1 (fault and double-free attribution). */
    int current = -1;
    /** The innermost element a port call into which threw, or -1; set on the way out of a failure. */
    int faultHint = -1;

    final List<ElementContextImpl> contexts = new ArrayList<>();
    Element[] elements = new Element[0];
    final List<PacketBuffer> buffers = new ArrayList<>();
    final List<BufferPool> pools = new ArrayList<>();
    /** "symbolicName:version" of the bundles whose provider services the run obtained. */
    final java.util.Set<String> providerBundles = new java.util.TreeSet<>();

    // packet accounting
    long generated;
    long delivered;
    private long nextPacketId;
    private final Map<String, Integer> reasonIds = new HashMap<>();
    private final List<String> reasons = new ArrayList<>();
    private long[] dropCounts = new long[8];

    // buffer accounting
    private final Map<String, Long> doubleFrees = new TreeMap<>();
    /** The element whose deliver or drop is freeing a buffer now, or -1. */
    private int freeingElement = -1;

    // cpu accounting per element
    /** Start of the measured window: the end of the warm-up, or 0. */
    private long measureStart;
    // what the warm-up counted, subtracted from the results: per element, per core
    private long[] baseCalls = new long[0], basePackets = new long[0], baseCycles = new long[0];
    private double[] basePicos = new double[0];
    private long[] baseBusy = new long[0];
    private Map<String, Double>[] baseCaches;
    /**
     * Each pool's counters at the start of the measured window ({@link #poolCounters}); a pool created later (a swap to
     * other sizes) has none and reports its counters whole.
     */
    private final Map<BufferPool, Map<String, Double>> basePools = new java.util.IdentityHashMap<>();
    private long[] cpuCalls = new long[0];
    private long[] cpuPackets = new long[0];
    private long[] cpuCycles = new long[0];
    private double[] cpuPicos = new double[0];

    long eventCount;
    /** Whether the engine thread is inside {@link #advance} or the elements' start: the watchdog looks only then. */
    volatile boolean advancing;
    private static final java.lang.invoke.VarHandle EVENT_COUNT;

    static {
        try {
            EVENT_COUNT = java.lang.invoke.MethodHandles.lookup().findVarHandle(Simulation.class, "eventCount", long.class);
        } catch (ReflectiveOperationException e) {
            throw new ExceptionInInitializerError(e);
        }
    }

    /** @return the events counted so far, as another thread sees them (the watchdog's view of progress) */
    long progress() {
        return (long) EVENT_COUNT.getOpaque(this);
    }
    String failure;
    int failedElement = -1;

    /**
     * The most pushes that may nest within one call: a packet pushed from element to element without time passing goes
     * one stack frame deeper per element, so a cycle of such pushes (refused when the pipeline is built, where the
     * elements declare it: {@code PortDescriptorDTO.pushesInCall}) or a chain longer than this ends the run with a report
     * instead of a StackOverflowError. The engine thread's stack ({@link RunImpl#ENGINE_STACK_BYTES}) holds many times
     * this depth.
     */
    static final int MAX_PUSH_DEPTH = 1_000;
    /** Pushes nested in the current call now. */
    int pushDepth;
    /** The outputs of the nested pushes, outermost first, for the report of one too deep; allocated once. */
    final Ports.Out[] pushPath = new Ports.Out[MAX_PUSH_DEPTH];

    // series
    private TimerImpl sampler;
    private long sampleInterval;
    private DoubleSupplier[] seriesColumns = new DoubleSupplier[0];
    private final List<String> seriesNames = new ArrayList<>();
    /** Where the series' rows may go; the defaults unless a test sets others before {@link #start}. */
    SeriesRecorder.Limits seriesLimits = SeriesRecorder.Limits.defaults();
    /** The sampled rows; {@code null} before {@link #start}. */
    private SeriesRecorder seriesRecorder;
    /** Every element's metrics, whose interval histograms each sample ends. */
    private MetricsImpl[] intervalMetrics = new MetricsImpl[0];

    /**
     * @param registry where providers come from
     * @param profile the cost profile; its {@code cores} and {@code frequencyHz} size the CPU model
     * @param seed the run seed
     */
    public Simulation(Registry registry, CostProfile profile, long seed) {
        this.registry = registry;
        this.profile = profile;
        this.seed = seed;
        int n = profile.cores();
        if (n < 1 || n > 1024) {
            throw new IllegalArgumentException("profile " + profile.name() + ": cores=" + n + ", allowed 1 to 1024");
        }
        cores = new CoreImpl[n];
        for (int i = 0; i < n; i++) {
            cores[i] = new CoreImpl(this, i, profile.frequencyHz());
        }
        caches = CacheModel.of(profile, n);
    }

    /** Seeds an element's stream from the run seed and the element's name (SplitMix64 of both), stable across versions. */
    static long streamSeed(long seed, String name) {
        long h = seed ^ 0x9E3779B97F4A7C15L;
        for (int i = 0; i < name.length(); i++) {
            h = mix(h + name.charAt(i));
        }
        return mix(h);
    }

    private static long mix(long z) {
        z = (z ^ (z >>> 30)) * 0xBF58476D1CE4E5B9L;
        z = (z ^ (z >>> 27)) * 0x94D049BB133111EBL;
        return z ^ (z >>> 31);
    }

    // ---------------------------------------------------------------- building

    ElementContextImpl addContext(ElementContextImpl ctx) {
        contexts.add(ctx);
        int n = contexts.size();
        cpuCalls = Arrays.copyOf(cpuCalls, n);
        cpuPackets = Arrays.copyOf(cpuPackets, n);
        cpuCycles = Arrays.copyOf(cpuCycles, n);
        cpuPicos = Arrays.copyOf(cpuPicos, n);
        return ctx;
    }

    /** How a pool was created: a hot swap's new instance asking for the same gets the same pool. */
    record PoolSpec(String kind, int capacity, int bufferBytes, Map<String, Object> settings) {
    }

    /** The creation parameters of every pool, by name. */
    final Map<String, PoolSpec> poolSpecs = new HashMap<>();
    private int tokens;
    /** While a hot swap stages its new instance: what the import asked to take the old instance's places; else null. */
    Swapper.Staging staging;
    /** The swaps applied or refused so far, in order. */
    final List<io.ringlab.sim.api.dto.SwapDTO> swaps = new ArrayList<>();

    /** @return a new element-instance token (see {@link CoreImpl#view}), from 1. */
    int newToken() {
        return ++tokens;
    }

    /** @return the pool of that name, or null. */
    BufferPool pool(String name) {
        for (BufferPool p : pools) {
            if (p.name().equals(name)) {
                return p;
            }
        }
        return null;
    }

    BufferPool createPool(String kind, String name, int capacity, int bufferBytes, Map<String, Object> settings) {
        if (pool(name) != null) {
            throw new IllegalArgumentException("pool name used twice: name=" + name);
        }
        BufferPoolProvider provider = registry.poolProvider(kind);
        if (provider == null) {
            throw new IllegalArgumentException("no buffer pool of kind " + kind + " is installed; kinds: " + registry.poolKinds());
        }
        reserveHeap("pool " + name, capacity * BUFFER_BYTES); // before the provider creates its records
        BufferPool pool = provider.create(this, name, capacity, bufferBytes, settings);
        noteProvider(provider);
        pools.add(pool);
        poolSpecs.put(name, new PoolSpec(kind, capacity, bufferBytes, Map.copyOf(settings)));
        return pool;
    }

    /**
     * Heap one buffer record takes, estimated: a {@link PacketBuffer} is a 12-byte header, 14 ints, 7 longs, 2 references
     * and a boolean, 136 bytes with compressed references; 16 more for its slots in its pool's arrays and in
     * {@link #buffers}. Every pool kind creates one record per buffer of its capacity before the run.
     */
    static final long BUFFER_BYTES = 152;
    /** The share of the JVM's maximum heap that one run's buffer records and histograms may take. */
    static final double HEAP_SHARE = 0.75;
    /** What the run holds, by what holds it, as {@link #reserveHeap} counted it. */
    private final Map<String, Long> reserved = new LinkedHashMap<>();
    private long reservedBytes;
    /** Whether {@link #reserveHeap} has refused something: what follows is refused in a line. */
    private boolean heapRefused;

    /**
     * Counts heap the run will hold for the whole run (a pool's records, a histogram's counts), before it is allocated,
     * and refuses what would take the run past {@link #HEAP_SHARE} of the JVM's maximum heap: four sources with
     * {@code buffers = 16777216} died with OutOfMemoryError while they were created (issue 15).
     *
     * @param what what holds it, for the message ({@code pool src.pool}, {@code histogram sink.latency})
     * @param bytes its estimated size
     * @throws IllegalArgumentException naming it, the run's total and its largest holders, and what to do
     */
    @Override
    public void reserveHeap(String what, long bytes) {
        reservedBytes += bytes;
        reserved.merge(what, bytes, Long::sum);
        long max = Runtime.getRuntime().maxMemory();
        long budget = (long) (max * HEAP_SHARE);
        if (reservedBytes <= budget) {
            return;
        }
        String message;
        if (heapRefused) {
            message = what + " needs about " + mib(bytes) + " more of heap, which the run has not got either (see the first"
                    + " such problem)";
        } else {
            List<Map.Entry<String, Long>> largest = new ArrayList<>(reserved.entrySet());
            largest.sort(Map.Entry.<String, Long>comparingByValue().reversed());
            StringBuilder top = new StringBuilder();
            for (int i = 0; i < Math.min(3, largest.size()); i++) {
                top.append(i == 0 ? "" : ", ").append(largest.get(i).getKey()).append(' ')
                        .append(mib(largest.get(i).getValue()));
            }
            message = what + " needs about " + mib(bytes) + " of heap, which would bring the run to " + mib(reservedBytes)
                    + " before it starts (" + reserved.size() + " pools and histograms), more than "
                    + Math.round(HEAP_SHARE * 100) + " % of the JVM's " + mib(max) + " heap; the largest: " + top
                    + ". Make the pools smaller (a source's or tcp's 'buffers', a driver's rings) or the elements fewer, or"
                    + " give Java more heap (JAVA_TOOL_OPTIONS=-Xmx32g)";
        }
        heapRefused = true;
        reservedBytes -= bytes; // refused: it is not created
        reserved.computeIfPresent(what, (k, v) -> v == bytes ? null : v - bytes);
        throw new IllegalArgumentException(message);
    }

    private static String mib(long bytes) {
        return String.format("%,d MiB", (bytes + (1 << 19)) >> 20);
    }

    void noteProvider(Object service) {
        String b = registry.bundleOfService(service);
        if (b != null) {
            providerBundles.add(b);
        }
    }

    @Override
    public Buffer newBuffer(BufferPool pool, int capacityBytes) {
        PacketBuffer b = new PacketBuffer(buffers.size(), pool, capacityBytes, dataAddress(capacityBytes));
        buffers.add(b);
        return b;
    }

    @Override
    public void onAlloc(Buffer buffer, int owner) {
        PacketBuffer b = (PacketBuffer) buffer;
        b.reset();
        b.allocated = true;
        b.owner = owner;
    }

    @Override
    public boolean onFree(Buffer buffer) {
        PacketBuffer b = (PacketBuffer) buffer;
        if (!b.allocated) {
            int culprit = freeingElement >= 0 ? freeingElement : current >= 0 ? current : b.lastOwner;
            doubleFrees.merge(ownerName(culprit) + " (pool " + b.pool().name() + ")", 1L, Long::sum);
            // a broken model: the run stops here, naming the element (a swap's drain frees nothing twice)
            fail(culprit, "freed buffer " + b.id() + " of pool " + b.pool().name() + " a second time (a double free,"
                    + " refused; its last owner was " + ownerName(b.lastOwner) + ")");
            return false;
        }
        b.allocated = false; // first, so that a destructor freeing the buffer again is a refused double free
        b.lastOwner = b.owner;
        b.owner = -1;
        BufferDestructor d = b.destructor();
        if (d != null) {
            b.destructor(null);
            d.destroyed(b); // skb->destructor runs before the memory goes back (kfree_skb -> skb_release_head_state)
        }
        b.packetId = -1;
        return true;
    }

    @Override
    public int cores() {
        return cores.length;
    }

    /** Warnings by message, in the order they first came. */
    final Map<String, Long> warnings = new LinkedHashMap<>();

    @Override
    public void warn(String message) {
        warnings.merge(message, 1L, Long::sum);
    }

    // ---------------------------------------------------------------- simulated memory and the caches

    /** Data reservations start at 4 GB; buffer data areas are packed at 64-byte alignment from 64 GB; code from 16 TB. */
    private long nextMemory = 1L << 32, nextData = 1L << 36, nextCode = 1L << 44;
    private final Map<String, long[]> functions = new HashMap<>();

    private long dataAddress(int bytes) {
        long a = nextData;
        nextData += (Math.max(1, bytes) + 63) & ~63L;
        return a;
    }

    /** What a failed hot swap's staging must leave as it found: addresses handed out, pools and buffers created. */
    record Mark(long memory, long data, long code, int pools, int buffers) {
    }

    Mark mark() {
        return new Mark(nextMemory, nextData, nextCode, pools.size(), buffers.size());
    }

    /** Forgets what was created since {@code m}, so a swap that failed leaves the run as if it had not been tried. */
    void rewind(Mark m) {
        nextMemory = m.memory;
        nextData = m.data;
        nextCode = m.code;
        functions.values().removeIf(f -> f[0] >= m.code);
        while (pools.size() > m.pools) {
            BufferPool p = pools.remove(pools.size() - 1);
            poolSpecs.remove(p.name());
            try {
                p.close();
            } catch (RuntimeException e) {
                // a pool of the failed instance: nothing of the run depends on its teardown
            }
        }
        while (buffers.size() > m.buffers) {
            buffers.remove(buffers.size() - 1);
        }
    }

    private final Map<String, Object> shared = new HashMap<>();

    @Override
    public <T> T shared(String key, Class<T> type, java.util.function.Supplier<? extends T> create) {
        Object o = shared.get(key);
        if (o == null) {
            o = create.get();
            shared.put(key, o);
        }
        if (!type.isInstance(o)) {
            throw new IllegalArgumentException("shared object " + key + " is a " + o.getClass().getName() + ", not a "
                    + type.getName() + " (two pool kinds use one key for different things)");
        }
        return type.cast(o);
    }

    @Override
    public void place(Buffer buffer, long address) {
        ((PacketBuffer) buffer).place(address);
    }

    @Override
    public long memory(long bytes) {
        if (bytes < 1) {
            throw new IllegalArgumentException("memory: bytes=" + bytes + ", must be at least 1");
        }
        long a = nextMemory;
        nextMemory += (bytes + 4095) & ~4095L;
        return a;
    }

    @Override
    public long code(String function, int bytes) {
        if (bytes < 1) {
            throw new IllegalArgumentException("code " + function + ": bytes=" + bytes + ", must be at least 1");
        }
        long[] f = functions.get(function);
        if (f != null) {
            if (f[1] != bytes) {
                throw new IllegalArgumentException("code " + function + ": registered with " + f[1] + " bytes, now "
                        + bytes + "; one function has one size");
            }
            return f[0];
        }
        long a = nextCode;
        nextCode += (bytes + 15) & ~15L; // functions aligned to 16 bytes, as x86-64 kernels build them
        functions.put(function, new long[] {a, bytes});
        return a;
    }

    /** The run's caches, {@code null} when the profile describes none. */
    CacheModel caches() {
        return caches;
    }

    /**
     * Touches memory on a core, charging the stall to an element (-1: the running one); see {@link CacheModel#touch}.
     *
     * @return the lines that missed level 1
     */
    @Override
    public int touch(int core, int element, long address, int bytes, boolean code) {
        if (caches == null || core < 0 || core >= cores.length) {
            return 0;
        }
        long stall = caches.touch(core, address, bytes, code);
        int e = element >= 0 ? element : current;
        if (stall > 0 && e >= 0 && e < contexts.size()) {
            cores[core].charge(e, stall, 0);
        }
        return caches.lastMisses;
    }

    /** The end of a softirq on a core: every pool flushes what it deferred there ({@code BufferPool.flush}). */
    void softirqEnd(int core) {
        for (int i = 0, n = pools.size(); i < n; i++) {
            pools.get(i).flush(core);
        }
    }

    @Override
    public void charge(int core, int element, long cycles) {
        int e = element >= 0 ? element : current;
        if (e >= 0 && e < contexts.size() && core >= 0 && core < cores.length) {
            cores[core].charge(e, cycles, 0);
        }
    }

    @Override
    public double profileValue(String key, double fallback) {
        return profile.value(key, fallback);
    }

    String ownerName(int owner) {
        return owner >= 0 && owner < contexts.size() ? contexts.get(owner).name : "<none>";
    }

    /** @return {@code "name (type T, bundle B)"} of an element, for reports; {@code "<none>"} for no element */
    String describe(int element) {
        if (element < 0 || element >= contexts.size()) {
            return "<none>";
        }
        ElementContextImpl c = contexts.get(element);
        String bundle = registry.bundleOf(c.type);
        return c.name + " (type " + c.type + (bundle == null ? "" : ", bundle " + bundle) + ")";
    }

    // ---------------------------------------------------------------- packet accounting (hot path)

    int dropReason(String reason) {
        Integer id = reasonIds.get(reason);
        if (id != null) {
            return id;
        }
        int n = reasons.size();
        reasons.add(reason);
        reasonIds.put(reason, n);
        if (n >= dropCounts.length) {
            dropCounts = Arrays.copyOf(dropCounts, n * 2);
        }
        return n;
    }

    /** Counts a new buffer's packets: one per wire segment, with consecutive ids from {@code packetId}. */
    void generated(PacketBuffer b) {
        int n = b.segments();
        b.packetId = nextPacketId;
        nextPacketId += n;
        b.createdPicos = now;
        generated += n;
    }

    void delivered(int element, int core, Buffer b) {
        if (b.allocated()) { // a refused double free must not count the packet twice
            delivered += b.segments();
        }
        freeingElement = element;
        b.pool().free(core, b);
        freeingElement = -1;
    }

    void dropped(int element, int core, Buffer b, int reasonId) {
        if (b.allocated()) {
            dropCounts[reasonId] += b.segments();
        }
        freeingElement = element;
        b.pool().free(core, b);
        freeingElement = -1;
    }

    /** Counts a packet as dropped and clears its buffer for reuse without freeing it (a driver recycling an RX buffer). */
    void recycled(PacketBuffer b, int reasonId) {
        if (b.allocated && b.packetId >= 0) {
            dropCounts[reasonId] += b.segments();
        }
        int owner = b.owner;
        BufferDestructor d = b.destructor();
        b.reset();
        b.owner = owner;
        if (d != null) {
            d.destroyed(b);
        }
    }

    /**
     * {@code skb_gso_segment}: see {@link io.ringlab.sim.api.ElementContext#segment}. Allocation-free.
     *
     * @return the segments written, or 0 (nothing allocated)
     */
    /** A socket's page fragment (SKB_FRAG_PAGE_ORDER = get_order(32768), include/net/sock.h): see {@link #segment}. */
    static final int PAGE_FRAG_BYTES = 32768;

    int segment(int element, Buffer gso, BufferPool pool, Buffer[] dst) {
        int n = gso.segments();
        int core = currentCore >= 0 ? currentCore : 0;
        if (n < 1 || dst.length < n || gso.packetId() < 0 || pool.available() < n) {
            return 0;
        }
        int got = pool.allocBulk(core, element, dst, 0, n);
        if (got < n) { // a pool whose available() promised more than it gave: undo, as kmem_cache_alloc_bulk does
            pool.freeBulk(core, dst, 0, got);
            for (int k = 0; k < got; k++) {
                dst[k] = null;
            }
            return 0;
        }
        int headers = io.ringlab.sim.api.ElementContext.GSO_HEADER_BYTES;
        int payload = Math.max(0, gso.length() - headers);
        int gsoSize = (payload + n - 1) / n;
        long firstId = gso.packetId();
        long seq = gso.seq();
        int truesize = gso.truesize();
        long totalLength = gso.length();
        int given = 0;
        int left = payload;
        BufferDestructor d = gso.destructor();
        for (int k = 0; k < n; k++) {
            PacketBuffer seg = (PacketBuffer) dst[k];
            seg.copyMetadataFrom(gso);
            int p = k == n - 1 ? left : Math.min(gsoSize, left);
            int len = headers + p;
            seg.length(len);
            seg.segments(1);
            seg.packetId = firstId + k;
            seg.seq(seq);
            if (gso.fragments() > 0 && p > 0) {
                // skb_segment on a scatter-gather device: a segment references the page fragments its payload bytes lie
                // in; a socket fills 32 KB page fragments in stream order (SKB_FRAG_PAGE_ORDER, include/net/sock.h), so a
                // segment has one, or two where it crosses a 32 KB boundary of the stream
                seg.fragments((int) ((seq + p - 1) / PAGE_FRAG_BYTES - seq / PAGE_FRAG_BYTES + 1));
            } else {
                seg.fragments(0);
            }
            seq += p;
            left -= p;
            // tcp_gso_segment: each segment's share of the truesize, the last takes the rest (sum_truesize)
            int share = k == n - 1 ? truesize - given : (int) (truesize * (long) len / totalLength);
            seg.truesize(share);
            given += share;
            seg.destructor(d);
        }
        if (d != null) {
            d.segmented(gso, dst, n); // the protocol's gso_segment: tcp_gso_segment's sum_truesize
        }
        ((PacketBuffer) gso).packetId = -1;
        gso.truesize(0);
        gso.destructor(null);
        return n;
    }

    void account(int element, long cycles, int packets, CoreImpl core) {
        cpuCalls[element]++;
        cpuPackets[element] += packets;
        cpuCycles[element] += cycles;
        cpuPicos[element] += cycles * (1e12 / core.frequencyHz());
    }

    /** Records the innermost element a failing port call went into; outer calls leave the first record. */
    void faultAt(int element) {
        if (faultHint < 0) {
            faultHint = element;
        }
    }

    /**
     * Fails the run for a push past {@link #MAX_PUSH_DEPTH}: a cycle of pushes when {@code next} is on the path already,
     * else a chain too long.
     *
     * @return the exception to throw, which unwinds the pushes
     */
    RuntimeException pushTooDeep(Ports.Out next) {
        int first = -1;
        for (int i = 0; i < MAX_PUSH_DEPTH && first < 0; i++) {
            first = pushPath[i] == next ? i : -1;
        }
        String message;
        if (first >= 0) {
            StringBuilder cycle = new StringBuilder();
            for (int i = first; i < MAX_PUSH_DEPTH && (i == first || pushPath[i] != next); i++) {
                cycle.append(i == first ? "" : ", ").append(pushPath[i].describe());
            }
            message = "a cycle of pushes with no time in it: " + cycle + "; a packet went round it within one call until "
                    + String.format("%,d", MAX_PUSH_DEPTH) + " pushes were nested. Put an element that takes time in the cycle (a link, or a"
                    + " qdisc that a driver drains)";
        } else {
            String max = String.format("%,d", MAX_PUSH_DEPTH);
            message = max + " pushes nested within one call, from " + pushPath[0].describe() + " to "
                    + next.describe() + ": a chain of more than " + max + " elements that push on at once is"
                    + " beyond the engine's limit; shorten it, or split it with an element that takes time (a link)";
        }
        fail(next.ownerIndex, message);
        return new PushTooDeep(message);
    }

    /** Unwinds the pushes of a run that {@link #pushTooDeep} failed; carries no stack trace. */
    static final class PushTooDeep extends RuntimeException {
        PushTooDeep(String message) {
            super(message, null, false, false);
        }
    }

    void unconnected(int element, String port) {
        fail(element, "pushed into unconnected output port=" + port);
    }

    void fail(int element, String message) {
        if (failure == null) {
            element = element >= 0 ? element : current;
            failedElement = element;
            if (element >= 0) {
                ElementContextImpl c = contexts.get(element);
                String bundle = registry.bundleOf(c.type);
                failure = "element " + c.name + " (type " + c.type + (bundle == null ? "" : ", bundle " + bundle) + "): "
                        + message;
            } else {
                failure = message;
            }
        }
    }

    // ---------------------------------------------------------------- running

    /** Binds the series columns and starts the elements; called once, at virtual time 0. */
    @Override
    public long nowPicos() {
        return now;
    }

    @Override
    public long measureStartPicos() {
        return measureStart;
    }

    /**
     * Ends the warm-up: from now on the results count (element counters, rates and histograms, the CPU accounts, the
     * cores' busy time and cache counters); the series and the invariants go on covering the whole run.
     */
    @SuppressWarnings("unchecked")
    void startMeasuring() {
        measureStart = now;
        for (ElementContextImpl c : contexts) {
            c.metrics.startMeasuring();
        }
        baseCalls = cpuCalls.clone();
        basePackets = cpuPackets.clone();
        baseCycles = cpuCycles.clone();
        basePicos = cpuPicos.clone();
        for (BufferPool p : pools) {
            basePools.put(p, poolCounters(p.stats()));
        }
        baseBusy = new long[cores.length];
        baseCaches = new Map[cores.length];
        for (CoreImpl core : cores) {
            baseBusy[core.index()] = core.busyPicos();
            if (caches != null) {
                baseCaches[core.index()] = new TreeMap<>();
                caches.metrics(core.index(), baseCaches[core.index()]);
            }
        }
    }

    /** @return a pool's counters by metric name (what a warm-up leaves out): the common ones, then the kind's own */
    private static Map<String, Double> poolCounters(PoolStatsDTO s) {
        Map<String, Double> m = new TreeMap<>();
        m.put("allocs", (double) s.allocs);
        m.put("frees", (double) s.frees);
        m.put("allocFailures", (double) s.allocFailures);
        m.put("doubleFrees", (double) s.doubleFrees);
        for (int c = 0; c < s.cacheHits.length; c++) {
            m.put("cacheHitsCore" + c, (double) s.cacheHits[c]);
        }
        for (int c = 0; c < s.cacheMisses.length; c++) {
            m.put("cacheMissesCore" + c, (double) s.cacheMisses[c]);
        }
        s.counters.forEach((k, v) -> m.put(k, (double) v));
        return m;
    }

    private long base(long[] b, int i) {
        return i < b.length ? b[i] : 0;
    }

    /**
     * Binds the series columns and starts the elements; called once, at virtual time 0.
     *
     * @param warmupPicos the warm-up, 0 for none: the measured window starts there
     */
    void start(long durationPicos, long seriesIntervalPicos, long warmupPicos) {
        if (warmupPicos > 0) {
            new TimerImpl(this, t -> startMeasuring(), -1).at(warmupPicos);
        }
        start(durationPicos, seriesIntervalPicos);
    }

    void start(long durationPicos, long seriesIntervalPicos) {
        List<DoubleSupplier> columns = new ArrayList<>();
        bindSeries(seriesNames, columns);
        intervalMetrics = new MetricsImpl[contexts.size()];
        for (int i = 0; i < intervalMetrics.length; i++) {
            intervalMetrics[i] = contexts.get(i).metrics;
            intervalMetrics[i].allocatePoints(durationPicos);
        }
        seriesColumns = columns.toArray(new DoubleSupplier[0]);
        sampleInterval = seriesIntervalPicos;
        seriesRecorder = new SeriesRecorder(durationPicos, sampleInterval, seriesColumns.length + 1, seriesLimits, this::warn);
        sampler = new TimerImpl(this, t -> sample(), -1);
        sampler.at(0);
        advancing = true; // an element's start may loop too
        try {
            for (Element e : elements) {
                e.start();
            }
        } finally {
            advancing = false;
        }
    }

    /**
     * Names the sampled columns of the series and gives a reader of each: every element's series metrics, then its
     * histograms' per-interval percentiles, every pool's occupancy and live counters, each core's level-1 cache
     * counters when the profile has caches. The names exist once the pipeline is built (elements and pools created).
     */
    private void bindSeries(List<String> names, List<DoubleSupplier> columns) {
        for (ElementContextImpl c : contexts) {
            for (String m : c.metrics.series) {
                names.add(c.name + "." + m);
                columns.add(c.metrics.column(m));
            }
            for (Map.Entry<String, MetricsImpl.Hist> h : c.metrics.histograms.entrySet()) {
                for (int i = 0; i < MetricsImpl.INTERVAL_NAMES.length; i++) {
                    // the whole run's name: the series column holds its value over each interval (docs/engine.md)
                    names.add(c.name + "." + h.getKey() + MetricsImpl.INTERVAL_NAMES[i] + h.getValue().unit);
                    columns.add(c.metrics.intervalPercentile(h.getKey(), i));
                }
            }
        }
        // every pool's occupancy, and each core's level-1 misses when the profile has caches (live views of issue 4)
        for (BufferPool p : pools) {
            names.add("pool:" + p.name() + ".inUse");
            columns.add(p::inUse);
            names.add("pool:" + p.name() + ".available");
            columns.add(p::available);
            p.liveValues((name, value) -> {
                names.add("pool:" + p.name() + "." + name);
                columns.add(value);
            });
        }
        if (caches != null) {
            for (CoreImpl core : cores) {
                int c = core.index();
                names.add("cpu" + c + ".l1dMisses");
                columns.add(() -> caches.l1dMisses(c));
                names.add("cpu" + c + ".l1iMisses");
                columns.add(() -> caches.l1iMisses(c));
                names.add("cpu" + c + ".l1dHitPercent"); // over each sampling interval
                columns.add(() -> caches.l1dHitPercentWindow(c));
            }
        }
    }

    /**
     * @return the names a run of this built pipeline will have in its series: the sampled columns, then the series of
     *         points ({@code SeriesDTO.points}); in that order, without {@code timeSeconds}
     */
    List<String> seriesNames() {
        List<String> names = new ArrayList<>();
        bindSeries(names, new ArrayList<>());
        for (ElementContextImpl c : contexts) {
            for (MetricsImpl.Points p : c.metrics.points.values()) {
                names.add(c.name + "." + p.name);
            }
        }
        return names;
    }

    private void sample() {
        double[] row = seriesRecorder.next();
        if (row != null) {
            row[0] = now / 1e12;
            for (int i = 0; i < seriesColumns.length; i++) {
                row[i + 1] = seriesColumns[i].getAsDouble();
            }
            String stopped = seriesRecorder.commit();
            if (stopped != null) {
                warn(stopped);
                return;
            }
            for (MetricsImpl m : intervalMetrics) {
                m.endInterval();
            }
            sampler.after(sampleInterval);
        }
    }

    /**
     * Processes the events before {@code endPicos}, or {@code maxEvents} events, whichever comes first. A run of duration D
     * covers virtual time [0, D): an event at exactly D belongs to the next interval (a 10 s run of a 1 s ping sends 10).
     *
     * @return the number of events processed
     */
    long advance(long endPicos, long maxEvents) {
        long n = 0;
        EventQueue q = events;
        advancing = true;
        try {
            while (n < maxEvents && failure == null) {
                TimerImpl t = q.peek();
                if (t == null || t.when >= endPicos) {
                    break;
                }
                q.poll();
                now = t.when;
                current = t.owner;
                n++; // counted before it runs: a failing event is still an event
                // a swap or a fork controls the run: not an event of the simulation. Counted live (a fork's state hash
                // sees how many came before it) and opaquely (the watchdog reads it from its thread; no fence)
                EVENT_COUNT.setOpaque(this, eventCount + (t.owner != TimerImpl.CONTROL ? 1 : 0));
                t.callback.fire(now);
            }
        } finally {
            advancing = false;
        }
        return n;
    }

    /** @return the time of the next pending event, or Long.MAX_VALUE. */
    long nextEventTime() {
        TimerImpl t = events.peek();
        return t == null ? Long.MAX_VALUE : t.when;
    }

    /**
     * Stops every element at the end of the run, each on its own: one that throws does not keep the others from stopping.
     *
     * @return the first failure, naming the element, or null
     */
    String stopElements() {
        String first = null;
        for (int i = 0; i < elements.length; i++) {
            try {
                elements[i].stop();
            } catch (RuntimeException | LinkageError | AssertionError e) {
                if (first == null) {
                    first = "element " + contexts.get(i).name + " failed to stop: " + Faults.describe(e);
                }
            }
        }
        return first;
    }

    /** Closes every pool at the end of the run (teardown accounting); a pool that throws is skipped. */
    void closePools() {
        for (BufferPool p : pools) {
            try {
                p.close();
            } catch (RuntimeException e) {
                // the pool's statistics were taken already
            }
        }
    }

    /**
     * A hash of the run's state now (at a safe point): virtual time, events processed and pending (time, sequence,
     * owner), packet counts and drops by reason, every element's metrics and the buffers it holds (id, packet, length,
     * segments, owner), every pool's counters, every core's busy time and queues, the caches' counters. Two runs with equal
     * hashes are, for everything the results can see, in the same state: a forked A/B experiment's branches check it at
     * their fork. The elements' random streams are not read (that would draw from them); a stream that had diverged
     * would have left a trace in the rest.
     *
     * @return 16 hex digits
     */
    String stateHash() {
        StateHash h = new StateHash();
        h.add(now).add(eventCount).add(generated).add(delivered).add(nextPacketId);
        for (int i = 0; i < reasons.size(); i++) {
            h.add(reasons.get(i)).add(dropCounts[i]);
        }
        events.hash(h);
        for (CoreImpl core : cores) {
            core.hash(h);
            if (caches != null) {
                Map<String, Double> m = new TreeMap<>();
                caches.metrics(core.index(), m);
                m.forEach((k, v) -> h.add(k).add(v));
            }
        }
        for (ElementContextImpl c : contexts) {
            h.add(c.name).add(c.implementation);
            c.metrics.values.forEach((k, v) -> h.add(k).add(v.getAsDouble()));
            c.metrics.histograms.forEach((k, v) -> h.add(k).add(v.histogram.getTotalCount()).add(v.histogram.getMaxValue())
                    .add(v.histogram.getMean()));
            elements[c.index].forEachHeld(b -> h.add(b.id()).add(b.packetId()).add(b.length()).add(b.segments())
                    .add(b.owner()));
        }
        for (BufferPool p : pools) {
            PoolStatsDTO st = p.stats();
            h.add(p.name()).add(st.inUse).add(st.allocs).add(st.frees).add(st.allocFailures);
        }
        return h.hex();
    }

    // ---------------------------------------------------------------- reporting

    /**
     * @return every name that reports metrics (elements, {@code pool:NAME}, {@code cpuN}, {@code l3}) to the metrics it
     *         can report, also those that appear only once they have a value (a histogram's percentiles, an element's
     *         CPU account); for checking names before a run
     */
    Map<String, java.util.Set<String>> metricNames() {
        Map<String, java.util.Set<String>> out = new TreeMap<>();
        elementMetrics().forEach((owner, m) -> out.put(owner, new java.util.TreeSet<>(m.keySet())));
        elementSamples().forEach((owner, m) -> out.computeIfAbsent(owner, k -> new java.util.TreeSet<>()).addAll(m.keySet()));
        for (ElementContextImpl c : contexts) {
            CPU_METRICS.forEach(d -> out.computeIfAbsent(c.name, k -> new java.util.TreeSet<>()).add(d.name));
        }
        return out;
    }

    /** The CPU account {@link #elementMetrics} adds to an element that was charged work. */
    private static final String CPU_CYCLES = "cpuCycles", CPU_NANOS = "cpuNanos", CPU_CYCLES_PER_PACKET = "cpuCyclesPerPacket",
            CPU_NANOS_PER_PACKET = "cpuNanosPerPacket";
    /** The metrics {@link #elementMetrics()} adds for an element that charged a core, as every type lists them. */
    static final List<MetricDescriptorDTO> CPU_METRICS = List.of(
            new MetricDescriptorDTO(MetricDescriptorDTO.COUNTER, CPU_CYCLES,
                    "CPU cycles the element charged to its cores (reported when it runs on a core)"),
            new MetricDescriptorDTO(MetricDescriptorDTO.COUNTER, CPU_NANOS, "virtual time those cycles took"),
            new MetricDescriptorDTO(MetricDescriptorDTO.GAUGE, CPU_CYCLES_PER_PACKET, "cpuCycles per packet it handled"),
            new MetricDescriptorDTO(MetricDescriptorDTO.GAUGE, CPU_NANOS_PER_PACKET, "ns",
                    "cpuNanos per packet it handled"));

    /** @return element name to metric name to the samples the figure rests on ({@link SampleRule}). */
    Map<String, Map<String, SampleRule.Basis>> elementSamples() {
        Map<String, Map<String, SampleRule.Basis>> out = new TreeMap<>();
        for (ElementContextImpl c : contexts) {
            Map<String, SampleRule.Basis> m = new TreeMap<>();
            c.metrics.reportSamples(m);
            if (!m.isEmpty()) {
                out.put(c.name, m);
            }
        }
        return out;
    }

    /** @return element name to metric name to value. */
    Map<String, Map<String, Double>> elementMetrics() {
        Map<String, Map<String, Double>> out = new TreeMap<>();
        for (ElementContextImpl c : contexts) {
            Map<String, Double> m = new TreeMap<>();
            c.metrics.report(m);
            int i = c.index;
            long calls = cpuCalls[i] - base(baseCalls, i);
            long cycles = cpuCycles[i] - base(baseCycles, i);
            long packets = cpuPackets[i] - base(basePackets, i);
            double picos = cpuPicos[i] - (i < basePicos.length ? basePicos[i] : 0);
            if (calls > 0) {
                m.put(CPU_CYCLES, (double) cycles);
                m.put(CPU_NANOS, picos / 1000.0);
                if (packets > 0) {
                    m.put(CPU_CYCLES_PER_PACKET, (double) cycles / packets);
                    m.put(CPU_NANOS_PER_PACKET, picos / 1000.0 / packets);
                }
            }
            out.put(c.name, m);
        }
        for (BufferPool p : pools) {
            PoolStatsDTO s = p.stats();
            Map<String, Double> m = new TreeMap<>();
            m.put("capacity", (double) s.capacity);
            m.put("inUse", (double) s.inUse);
            m.put("highWaterMark", (double) s.highWaterMark);
            Map<String, Double> base = basePools.getOrDefault(p, Map.of());
            poolCounters(s).forEach((k, v) -> m.put(k, v - base.getOrDefault(k, 0.0)));
            s.gauges.forEach((k, v) -> m.put(k, (double) v));
            out.put("pool:" + p.name(), m);
        }
        for (CoreImpl core : cores) {
            Map<String, Double> m = new TreeMap<>();
            long busy = core.busyPicos() - base(baseBusy, core.index());
            long span = now - measureStart;
            m.put("busyNanos", busy / 1000.0);
            m.put("utilisationPercent", span <= 0 ? 0 : 100.0 * busy / span);
            if (caches != null) {
                caches.metrics(core.index(), m);
                Map<String, Double> b = baseCaches == null ? null : baseCaches[core.index()];
                if (b != null) {
                    b.forEach((k, v) -> m.computeIfPresent(k, (key, x) -> x - v)); // counters over the window
                    double hits = m.getOrDefault("l1dHits", 0.0), misses = m.getOrDefault("l1dMisses", 0.0);
                    m.put("l1dHitPercent", hits + misses == 0 ? 0 : 100.0 * hits / (hits + misses));
                }
            }
            out.put("cpu" + core.index(), m);
        }
        if (caches != null && !caches.sharedMetrics().isEmpty()) {
            out.put("l3", caches.sharedMetrics());
        }
        return out;
    }

    List<RuntimeRowDTO> runtime() {
        List<RuntimeRowDTO> rows = new ArrayList<>();
        for (ElementContextImpl c : contexts) {
            int i = c.index;
            long calls = cpuCalls[i] - base(baseCalls, i);
            if (calls == 0) {
                continue;
            }
            RuntimeRowDTO r = new RuntimeRowDTO();
            r.element = c.name;
            r.calls = calls;
            r.packets = cpuPackets[i] - base(basePackets, i);
            r.cycles = cpuCycles[i] - base(baseCycles, i);
            r.cpuNanos = (cpuPicos[i] - (i < basePicos.length ? basePicos[i] : 0)) / 1000.0;
            r.cyclesPerPacket = r.packets == 0 ? 0 : (double) r.cycles / r.packets;
            r.cpuNanosPerPacket = r.packets == 0 ? 0 : r.cpuNanos / r.packets;
            rows.add(r);
        }
        return rows;
    }

    /**
     * @return the rows sampled so far, a view of fixed size ({@link SeriesRecorder#rows}): the run never writes a row
     *         again once sampled
     */
    SeriesDTO series() {
        SeriesDTO s = new SeriesDTO();
        s.intervalSeconds = sampleInterval / 1e12;
        s.columns.add("timeSeconds");
        s.columns.addAll(seriesNames);
        if (seriesRecorder != null) {
            s.rows = seriesRecorder.rows();
        }
        for (ElementContextImpl c : contexts) {
            for (MetricsImpl.Points p : c.metrics.points.values()) {
                s.points.put(c.name + "." + p.name, p.dto());
            }
        }
        return s;
    }

    /** @return an element's name with its type and bundle, for an element of this run; the name itself otherwise */
    private String ownerDescription(String name) {
        for (ElementContextImpl c : contexts) {
            if (c.name.equals(name)) {
                return describe(c.index);
            }
        }
        return name;
    }

    long totalDropped() {
        long d = 0;
        for (int i = 0; i < reasons.size(); i++) {
            d += dropCounts[i];
        }
        return d;
    }

    /**
     * Checks packet and buffer conservation by walking every element's held buffers and every pool's in-use buffers.
     * Safe to call once the engine thread has stopped processing events.
     */
    InvariantReportDTO checkInvariants() {
        InvariantReportDTO r = new InvariantReportDTO();
        r.generated = generated;
        r.delivered = delivered;
        for (int i = 0; i < reasons.size(); i++) {
            if (dropCounts[i] > 0) {
                r.droppedByReason.put(reasons.get(i), dropCounts[i]);
            }
        }
        r.dropped = totalDropped();

        BitSet held = new BitSet(buffers.size());
        Map<Integer, String> holders = new HashMap<>();
        // a packet may sit in two buffers at once (a transmitted skb awaiting its TX clean and the frame on the wire;
        // a copybreak copy): packets in flight are the distinct packet ids held
        java.util.Set<Long> packets = new java.util.HashSet<>();
        for (ElementContextImpl c : contexts) {
            Element e = elements[c.index];
            e.forEachHeld(b -> {
                int id = b.id();
                if (held.get(id)) {
                    r.violations.add("buffer " + id + " is held by both " + holders.get(id) + " and " + c.name);
                    return;
                }
                held.set(id);
                holders.put(id, c.name);
                if (!b.allocated()) {
                    r.violations.add("element " + c.name + " holds buffer " + id + " of pool " + b.pool().name()
                            + ", which is free (used after free)");
                }
                long first = b.packetId();
                if (first >= 0) {
                    for (int k = b.segments() - 1; k >= 0; k--) { // a GSO buffer holds one packet per segment
                        packets.add(first + k);
                    }
                }
            });
        }
        r.inFlight = packets.size();
        r.buffersHeld = held.cardinality();

        boolean countersOk = true;
        for (BufferPool p : pools) {
            PoolStatsDTO s = p.stats();
            r.buffersAllocated += s.allocs;
            r.buffersFreed += s.frees;
            r.buffersInUse += s.inUse;
            if (s.allocs - s.frees != s.inUse) {
                countersOk = false;
                r.violations.add("pool " + p.name() + ": allocs - frees = " + (s.allocs - s.frees) + " but inUse = " + s.inUse);
            }
            Map<String, Long> leaks = new LinkedHashMap<>();
            p.forEachInUse(b -> {
                if (!held.get(b.id())) {
                    leaks.merge(ownerName(b.owner()), 1L, Long::sum);
                }
            });
            for (Map.Entry<String, Long> e : leaks.entrySet()) {
                r.leaksByOwner.merge(e.getKey(), e.getValue(), Long::sum);
                r.violations.add("leak: " + e.getValue() + " buffer(s) of pool " + p.name() + " in use but held by no element;"
                        + " last owner " + ownerDescription(e.getKey()));
            }
        }
        r.doubleFreesByOwner.putAll(doubleFrees);
        for (Map.Entry<String, Long> e : doubleFrees.entrySet()) {
            r.violations.add("double free: " + e.getValue() + " free(s) of a buffer that was not allocated, by " + e.getKey());
        }
        r.packetConservation = r.generated == r.delivered + r.dropped + r.inFlight;
        if (!r.packetConservation) {
            r.violations.add(0, "packets: generated " + r.generated + " != delivered " + r.delivered + " + dropped " + r.dropped
                    + " + in flight " + r.inFlight + " (difference " + (r.generated - r.delivered - r.dropped - r.inFlight) + ")");
        }
        r.bufferConservation = countersOk && r.leaksByOwner.isEmpty() && doubleFrees.isEmpty()
                && r.violations.stream().noneMatch(v -> v.startsWith("buffer ") || v.contains("used after free"));
        return r;
    }
}
