package io.ringlab.pool.slab;

import java.lang.reflect.Proxy;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.List;
import java.util.Map;

import io.ringlab.buffer.api.Buffer;
import io.ringlab.buffer.api.BufferPool;
import io.ringlab.buffer.api.PoolContext;

/**
 * A pool context without an engine: buffers are proxies that know their id, pool and allocated state; charges, touches,
 * warnings and shared objects are recorded. Shared with the other pool bundles' tests through this module's test jar.
 */
public final class FakeContext implements PoolContext {
    public final int cores;
    public final long[] cycles;
    public final Map<String, Double> profile = new HashMap<>();
    public final List<Buffer> buffers = new ArrayList<>();
    private final List<Boolean> allocated = new ArrayList<>();
    private final List<Integer> owners = new ArrayList<>();
    public int refusedFrees;

    /** @param cores the run's cores */
    public FakeContext(int cores) {
        this.cores = cores;
        this.cycles = new long[cores];
    }

    @Override
    public Buffer newBuffer(BufferPool pool, int capacityBytes) {
        int id = buffers.size();
        allocated.add(false);
        owners.add(-1);
        Buffer b = (Buffer) Proxy.newProxyInstance(Buffer.class.getClassLoader(), new Class<?>[] {Buffer.class},
                (proxy, m, args) -> switch (m.getName()) {
                    case "id" -> id;
                    case "pool" -> pool;
                    case "allocated" -> allocated.get(id);
                    case "owner" -> owners.get(id);
                    case "capacityBytes" -> capacityBytes;
                    case "address" -> placed.getOrDefault(id, (long) id << 12);
                    case "hashCode" -> id;
                    case "equals" -> proxy == args[0];
                    case "toString" -> "buffer " + id;
                    default -> throw new UnsupportedOperationException(m.getName());
                });
        buffers.add(b);
        return b;
    }

    @Override
    public void onAlloc(Buffer buffer, int owner) {
        allocated.set(buffer.id(), true);
        owners.set(buffer.id(), owner);
    }

    @Override
    public boolean onFree(Buffer buffer) {
        if (!allocated.get(buffer.id())) {
            refusedFrees++;
            return false;
        }
        allocated.set(buffer.id(), false);
        return true;
    }

    @Override public int cores() { return cores; }
    /** Warnings by message. */
    public final Map<String, Long> warnings = new java.util.LinkedHashMap<>();

    @Override public void warn(String message) { warnings.merge(message, 1L, Long::sum); }
    @Override public void charge(int core, int element, long c) { cycles[core] += c; }
    @Override public double profileValue(String key, double fallback) { return profile.getOrDefault(key, fallback); }
    /** Touches made, as "code|data address bytes". */
    public final List<String> touches = new ArrayList<>();
    public final Map<String, Long> functions = new HashMap<>();

    public final Map<Integer, Long> placed = new HashMap<>();
    public final Map<String, Object> shared = new HashMap<>();

    @Override
    public <T> T shared(String key, Class<T> type, java.util.function.Supplier<? extends T> create) {
        return type.cast(shared.computeIfAbsent(key, k -> create.get()));
    }

    private long nextMemory = 1L << 32;

    @Override
    public long memory(long bytes) {
        long a = nextMemory;
        nextMemory += (bytes + 4095) & ~4095L;
        return a;
    }
    @Override public void place(Buffer buffer, long address) { placed.put(buffer.id(), address); }

    @Override
    public long code(String function, int bytes) {
        return functions.computeIfAbsent(function, f -> (1L << 44) + 4096L * functions.size());
    }

    @Override
    public int touch(int core, int element, long address, int bytes, boolean code) {
        touches.add((code ? "code " : "data ") + address + " " + bytes);
        return 0;
    }

    @Override
    public void prefetch(int core, int element, long address, int bytes) {
        touches.add("prefetch " + address + " " + bytes);
    }

    @Override
    public void fence(int core, int element) {
        touches.add("fence");
    }
}
