package io.ringlab.engine.kernel;

import java.util.ArrayList;
import java.util.HashMap;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.TreeMap;

import io.ringlab.buffer.api.Buffer;
import io.ringlab.buffer.api.BufferDestructor;
import io.ringlab.buffer.api.BufferPool;
import io.ringlab.buffer.api.BufferPoolProvider;
import io.ringlab.buffer.api.PoolContext;
import io.ringlab.sim.api.CostProfile;
import io.ringlab.sim.api.Element;
import io.ringlab.sim.api.dto.InvariantReportDTO;
import io.ringlab.sim.api.dto.MetricDescriptorDTO;
import io.ringlab.sim.api.dto.RuntimeRowDTO;
import io.ringlab.sim.api.dto.SeriesDTO;
import io.ringlab.engine.kernel.cache.CacheModel;
import io.ringlab.engine.kernel.series.SampleRule;
import io.ringlab.engine.kernel.series.SeriesRecorder;

/**
 * The state of one run: virtual clock, pending events, elements, cores, pools, packet and buffer accounting, and the event
 * loop. Single-threaded and deterministic: the same pipeline and seed give the same sequence of events.
 * <p>
 * Not thread-safe: every method is called on the run's engine thread (or before it starts), except where noted.
 */
public final class Simulation implements PoolContext, MetricsImpl.Window {
    /** Virtual time in picoseconds; inside a CPU task, the task's clock. */
    long now;
    /** The run's packet captures ({@code --pcap}), or null: watched ports write through it, generated packets name flows. */
    Captures captures;
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

    /** Packets generated, delivered and dropped by reason, and the double frees: where drops are counted. */
    final PacketLedger ledger = new PacketLedger();
    /** The element whose deliver or drop is freeing a buffer now, or -1. */
    private int freeingElement = -1;

    /** Start of the measured window: the end of the warm-up, or 0. */
    private long measureStart;
    /** What the warm-up counted of the pools' counters and the cores' busy time and caches. */
    private final WindowBaselines baselines = new WindowBaselines();
    /** Each element's calls, packets, cycles and virtual time on the cores, and what the warm-up counted of them. */
    private final CpuAccounts cpu = new CpuAccounts();

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
    /** Where the series' rows may go; the defaults unless a test sets others before {@link #start}. */
    SeriesRecorder.Limits seriesLimits = SeriesRecorder.Limits.defaults();
    /** The series: its columns, the sampler timer and the rows. */
    private final SeriesSampler sampler = new SeriesSampler(this);

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
        cyclesPerPico = profile.frequencyHz() / 1e12;
    }

    /** Converts the clock to the cache model's cycles, without a division on the touch path. */
    private final double cyclesPerPico;

    /** The running task's clock in cycles, for the cache model's fills in flight (0 when it models none). */
    private long cacheClock() {
        return caches.fillBuffers() > 0 ? (long) (now * cyclesPerPico) : 0;
    }


    // ---------------------------------------------------------------- building

    ElementContextImpl addContext(ElementContextImpl ctx) {
        contexts.add(ctx);
        cpu.elements(contexts.size());
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
        reserveHeap("pool " + name, capacity * HeapBudget.BUFFER_BYTES); // before the provider creates its records
        BufferPool pool = provider.create(this, name, capacity, bufferBytes, settings);
        noteProvider(provider);
        pools.add(pool);
        poolSpecs.put(name, new PoolSpec(kind, capacity, bufferBytes, Map.copyOf(settings)));
        return pool;
    }

    /** The heap the run's buffer records and histograms will hold, counted before they are made. */
    private final HeapBudget heap = new HeapBudget();

    /** Counts heap the run will hold, refusing what would not fit: {@link HeapBudget#reserve}. */
    @Override
    public void reserveHeap(String what, long bytes) {
        heap.reserve(what, bytes);
    }

    void noteProvider(Object service) {
        String b = registry.bundleOfService(service);
        if (b != null) {
            providerBundles.add(b);
        }
    }

    @Override
    public Buffer newBuffer(BufferPool pool, int capacityBytes) {
        PacketBuffer b = new PacketBuffer(buffers.size(), pool, capacityBytes, memoryMap.data(capacityBytes));
        buffers.add(b);
        return b;
    }

    @Override
    public void onAlloc(Buffer buffer, int owner) {
        PacketBuffer b = (PacketBuffer) buffer;
        b.reset();
        b.allocated = true;
        b.owner = owner;
        b.origin = owner;
    }

    @Override
    public boolean onFree(Buffer buffer) {
        PacketBuffer b = (PacketBuffer) buffer;
        if (!b.allocated) {
            int culprit = freeingElement >= 0 ? freeingElement : current >= 0 ? current : b.lastOwner;
            ledger.doubleFree(ownerName(culprit) + " (pool " + b.pool().name() + ")");
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

    /** The simulated address space the cache model sees. */
    private final MemoryMap memoryMap = new MemoryMap();

    /** What a failed hot swap's staging must leave as it found: addresses handed out, pools and buffers created. */
    record Mark(MemoryMap.Mark memory, int pools, int buffers) {
    }

    Mark mark() {
        return new Mark(memoryMap.mark(), pools.size(), buffers.size());
    }

    /** Forgets what was created since {@code m}, so a swap that failed leaves the run as if it had not been tried. */
    void rewind(Mark m) {
        memoryMap.rewind(m.memory);
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
        return memoryMap.memory(bytes);
    }

    @Override
    public long code(String function, int bytes) {
        return memoryMap.code(function, bytes);
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
        long stall = caches.touch(core, address, bytes, code, cacheClock());
        chargeStall(core, element, stall);
        return caches.lastMisses;
    }

    private void chargeStall(int core, int element, long stall) {
        int e = element >= 0 ? element : current;
        if (stall > 0 && e >= 0 && e < contexts.size()) {
            cores[core].charge(e, stall, 0);
        }
    }

    @Override
    public void prefetch(int core, int element, long address, int bytes) {
        if (caches == null || core < 0 || core >= cores.length) {
            return;
        }
        chargeStall(core, element, caches.prefetch(core, address, bytes, cacheClock()));
    }

    @Override
    public void fence(int core, int element) {
        if (caches == null || core < 0 || core >= cores.length) {
            return;
        }
        chargeStall(core, element, caches.fence(core, cacheClock()));
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
        return ledger.dropReason(reason);
    }

    /** Counts a new buffer's packets: one per wire segment, with consecutive ids from {@code packetId}. */
    void generated(PacketBuffer b) {
        b.packetId = ledger.generated(b.segments());
        b.createdPicos = now;
        if (captures != null) {
            captures.generated(b);
        }
    }

    void delivered(int element, int core, Buffer b) {
        if (b.allocated()) { // a refused double free must not count the packet twice
            ledger.delivered(b.segments());
        }
        freeingElement = element;
        b.pool().free(core, b);
        freeingElement = -1;
    }

    void dropped(int element, int core, Buffer b, int reasonId) {
        if (b.allocated()) {
            ledger.dropped(element, reasonId, b.segments());
        }
        freeingElement = element;
        b.pool().free(core, b);
        freeingElement = -1;
    }

    /** Counts a packet as dropped and clears its buffer for reuse without freeing it (a driver recycling an RX buffer). */
    void recycled(int element, PacketBuffer b, int reasonId) {
        if (b.allocated && b.packetId >= 0) {
            ledger.dropped(element, reasonId, b.segments());
        }
        int owner = b.owner;
        BufferDestructor d = b.destructor();
        b.reset();
        b.owner = owner;
        if (d != null) {
            d.destroyed(b);
        }
    }

    /** {@code skb_gso_segment} on the core running now: {@link GsoSegmentation#segment}. */
    int segment(int element, Buffer gso, BufferPool pool, Buffer[] dst) {
        return GsoSegmentation.segment(currentCore >= 0 ? currentCore : 0, element, gso, pool, dst);
    }

    void account(int element, long cycles, int packets, CoreImpl core) {
        cpu.account(element, cycles, packets, core.picosPerCycle);
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
        String message = Ports.tooDeep(pushPath, next);
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
    void startMeasuring() {
        measureStart = now;
        for (ElementContextImpl c : contexts) {
            c.metrics.startMeasuring();
        }
        cpu.startMeasuring();
        baselines.take(pools, cores, caches);
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
        sampler.start(durationPicos, seriesIntervalPicos, seriesLimits);
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
                now = t.when;
                current = t.owner;
                n++; // counted before it runs: a failing event is still an event
                // a swap or a fork controls the run: not an event of the simulation. Counted live (a fork's state hash
                // sees how many came before it) and opaquely (the watchdog reads it from its thread; no fence)
                EVENT_COUNT.setOpaque(this, eventCount + (t.owner != TimerImpl.CONTROL ? 1 : 0));
                // the timer fires where it is, at the head: a callback that arms it again (most do: a source's next
                // packet, a link's next frame) moves it down in one sift; otherwise it leaves the heap afterwards. The
                // order of events is their (time, sequence) order either way
                t.firing = true;
                try {
                    t.callback.fire(now);
                } finally {
                    if (t.firing) { // neither armed again nor cancelled by its callback
                        q.remove(t);
                    }
                }
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

    /** @return a hash of the run's state now, at a safe point: {@link StateHash#of} */
    String stateHash() {
        return StateHash.of(this);
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

    /** The metrics {@link #elementMetrics()} adds for an element that charged a core, as every type lists them. */
    static final List<MetricDescriptorDTO> CPU_METRICS = CpuAccounts.METRICS;

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

    /** @return the elements' names by index */
    List<String> elementNames() {
        List<String> names = new ArrayList<>(contexts.size());
        for (ElementContextImpl c : contexts) {
            names.add(c.name);
        }
        return names;
    }

    /** @return every latency histogram's distribution so far ({@code RunResultDTO.distributions}) */
    Map<String, List<double[]>> distributions() {
        Map<String, List<double[]>> out = new TreeMap<>();
        for (ElementContextImpl c : contexts) {
            c.metrics.distributions(out);
        }
        return out;
    }

    /** @return the drops so far by element and reason ({@code InvariantReportDTO.droppedByElement}) */
    Map<String, Map<String, Long>> droppedByElement() {
        return ledger.droppedByElement(elementNames());
    }

    /** @return element name to metric name to value. */
    Map<String, Map<String, Double>> elementMetrics() {
        Map<String, Map<String, Double>> out = new TreeMap<>();
        for (ElementContextImpl c : contexts) {
            Map<String, Double> m = new TreeMap<>();
            c.metrics.report(m);
            cpu.report(c.index, m);
            out.put(c.name, m);
        }
        for (BufferPool p : pools) {
            out.put("pool:" + p.name(), baselines.poolMetrics(p));
        }
        for (CoreImpl core : cores) {
            out.put("cpu" + core.index(), baselines.coreMetrics(core, caches, now - measureStart));
        }
        if (caches != null && !caches.sharedMetrics().isEmpty()) {
            out.put("l3", caches.sharedMetrics());
        }
        return out;
    }

    /** @return a row of the runtime table for each element that was charged work, in pipeline order */
    List<RuntimeRowDTO> runtime() {
        List<RuntimeRowDTO> rows = new ArrayList<>();
        for (ElementContextImpl c : contexts) {
            RuntimeRowDTO r = cpu.row(c.index, c.name);
            if (r != null) {
                rows.add(r);
            }
        }
        return rows;
    }

    /**
     * @return the rows sampled so far, a view of fixed size ({@link SeriesRecorder#rows}): the run never writes a row
     *         again once sampled
     */
    SeriesDTO series() {
        return sampler.series();
    }

    /**
     * @return the names a run of this built pipeline will have in its series: the sampled columns, then the series of
     *         points ({@code SeriesDTO.points}); in that order, without {@code timeSeconds}
     */
    List<String> seriesNames() {
        return sampler.names();
    }

    /** @return an element's name with its type and bundle, for an element of this run; the name itself otherwise */
    String ownerDescription(String name) {
        for (ElementContextImpl c : contexts) {
            if (c.name.equals(name)) {
                return describe(c.index);
            }
        }
        return name;
    }

    long totalDropped() {
        return ledger.totalDropped();
    }

    /**
     * Checks packet and buffer conservation by walking every element's held buffers and every pool's in-use buffers
     * ({@link PacketLedger#check}). Safe to call once the engine thread has stopped processing events.
     */
    InvariantReportDTO checkInvariants() {
        return ledger.check(this);
    }
}
