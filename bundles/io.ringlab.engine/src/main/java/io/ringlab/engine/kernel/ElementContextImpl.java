package io.ringlab.engine.kernel;

import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.SplittableRandom;
import java.util.random.RandomGenerator;

import io.ringlab.buffer.api.Buffer;
import io.ringlab.buffer.api.BufferPool;
import io.ringlab.sim.api.Configuration;
import io.ringlab.sim.api.CostProfile;
import io.ringlab.sim.api.Core;
import io.ringlab.sim.api.ElementContext;
import io.ringlab.sim.api.InputPort;
import io.ringlab.sim.api.Metrics;
import io.ringlab.sim.api.OutputPort;
import io.ringlab.sim.api.Timer;
import io.ringlab.sim.api.TimerCallback;
import io.ringlab.sim.api.dto.ElementDescriptorDTO;
import io.ringlab.sim.api.dto.PortDescriptorDTO;

/** An element's context in one run. Not thread-safe. */
final class ElementContextImpl implements ElementContext {
    final Simulation sim;
    final int index;
    final String name;
    // what a hot swap replaces: the type, its descriptor and configuration, the ports of the new type
    String type;
    /** {@code type@bundleVersion} of the instance now behind the element. */
    String implementation;
    ElementDescriptorDTO descriptor;
    ConfigurationImpl config;
    final MetricsImpl metrics;
    Map<String, Ports.Out> outputs = new LinkedHashMap<>();
    Map<String, Ports.In> inputs = new LinkedHashMap<>();
    /** The token of the instance now behind the element: its CPU tasks carry it (see {@link CoreImpl#view}). */
    int token;
    /** The timers the instance now behind the element created. */
    List<TimerImpl> timers = new ArrayList<>();
    /** While a hot swap creates the new instance: the pools it may take over (same name, kind and sizes); else null. */
    Map<String, Simulation.PoolSpec> swapPools;
    /** The drop reasons the element registered (ids in the order of registration): its series' drop columns. */
    final List<Integer> dropReasons = new ArrayList<>();
    private final RandomGenerator random;

    ElementContextImpl(Simulation sim, int index, String name, String type, ElementDescriptorDTO descriptor,
            ConfigurationImpl config, long seed) {
        this.sim = sim;
        this.index = index;
        this.name = name;
        this.type = type;
        this.descriptor = descriptor;
        this.config = config;
        this.metrics = new MetricsImpl(name, sim);
        this.random = new SplittableRandom(streamSeed(seed, name));
        this.token = sim.newToken();
        this.implementation = type;
        for (PortDescriptorDTO p : descriptor.ports) {
            if (p.direction == PortDescriptorDTO.Direction.OUT) {
                outputs.put(p.name, new Ports.Out(sim, index, p.name));
            } else {
                inputs.put(p.name, new Ports.In(sim, index, p.name));
            }
        }
    }

    @Override public String name() { return name; }
    @Override public int index() { return index; }
    @Override public Configuration config() { return config; }
    @Override public long nowPicos() { return sim.now; }
    @Override public RandomGenerator random() { return random; }
    @Override public int cores() { return sim.cores.length; }
    @Override public CostProfile costProfile() { return sim.profile; }
    @Override public Metrics metrics() { return metrics; }

    @Override
    public OutputPort output(String port) {
        Ports.Out o = outputs.get(port);
        if (o == null) {
            throw new IllegalArgumentException("type " + type + " has no output " + port
                    + "; outputs: " + outputs.keySet());
        }
        return o;
    }

    @Override
    public InputPort input(String port) {
        Ports.In i = inputs.get(port);
        if (i == null) {
            throw new IllegalArgumentException("type " + type + " has no input " + port
                    + "; inputs: " + inputs.keySet());
        }
        return i;
    }

    @Override
    public Timer timer(TimerCallback callback) {
        TimerImpl t = new TimerImpl(sim, callback, index);
        timers.add(t);
        return t;
    }

    @Override
    public Core core(int i) {
        if (i < 0 || i >= sim.cores.length) {
            throw new IllegalArgumentException("core=" + i + ", allowed 0 to " + (sim.cores.length - 1)
                    + " (profile " + sim.profile.name() + ")");
        }
        return sim.cores[i].view(token);
    }

    @Override
    public BufferPool pool(String kind, String suffix, int capacity, int bufferBytes, Map<String, Object> settings) {
        String poolName = name + "." + suffix;
        if (swapPools != null) { // a hot swap: the same pool again is the old instance's, with its occupancy
            Simulation.PoolSpec spec = new Simulation.PoolSpec(kind, capacity, bufferBytes, Map.copyOf(settings));
            Simulation.PoolSpec old = swapPools.get(poolName);
            if (old != null && old.equals(spec)) {
                return sim.pool(poolName);
            }
            for (int k = 2; sim.pool(poolName) != null; k++) { // another kind or size: a new pool beside the old one
                poolName = name + "." + suffix + "#" + k;
            }
        }
        return sim.createPool(kind, poolName, capacity, bufferBytes, settings);
    }

    @Override
    public <S> S provider(Class<S> serviceType, String kindProperty, String kind) {
        S s = sim.registry.provider(serviceType, kindProperty, kind);
        if (s == null) {
            throw new IllegalArgumentException("no " + serviceType.getSimpleName() + " of kind " + kind + " is installed; kinds: "
                    + sim.registry.providerKinds(serviceType, kindProperty));
        }
        sim.noteProvider(s);
        return s;
    }

    @Override public int dropReason(String reason) {
        int id = sim.dropReason(reason);
        if (!dropReasons.contains(id)) {
            dropReasons.add(id);
        }
        return id;
    }
    @Override public void generated(Buffer buffer) { sim.generated((PacketBuffer) buffer); }
    @Override public void deliver(int core, Buffer buffer) { sim.delivered(index, core, buffer); }
    @Override public void drop(int core, Buffer buffer, int reasonId) { sim.dropped(index, core, buffer, reasonId); }
    @Override
    public void transferPacket(Buffer from, Buffer to) {
        to.copyMetadataFrom(from);
        ((PacketBuffer) from).packetId = -1;
    }

    @Override
    public int segment(Buffer gso, BufferPool pool, Buffer[] dst) {
        return sim.segment(index, gso, pool, dst);
    }

    @Override public long memory(long bytes) { return sim.memory(bytes); }
    @Override public long code(String function, int bytes) { return sim.code(function, bytes); }

    @Override
    public void dmaWrite(long address, int bytes) {
        if (sim.caches() != null) {
            sim.caches().dmaWrite(address, bytes);
        }
    }

    @Override public void recycle(Buffer buffer, int reasonId) { sim.recycled(index, (PacketBuffer) buffer, reasonId); }
    @Override public void fail(String message) { sim.fail(index, message); }

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
}
