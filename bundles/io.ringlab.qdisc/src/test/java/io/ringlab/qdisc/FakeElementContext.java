package io.ringlab.qdisc;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertNull;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.SplittableRandom;
import java.util.TreeSet;
import java.util.function.DoubleSupplier;
import java.util.random.RandomGenerator;
import org.junit.jupiter.api.Test;
import io.ringlab.buffer.api.Buffer;
import io.ringlab.buffer.api.BufferPool;
import io.ringlab.queue.api.Qdisc;
import io.ringlab.queue.api.QdiscProvider;
import io.ringlab.sim.api.Configuration;
import io.ringlab.sim.api.Core;
import io.ringlab.sim.api.CostProfile;
import io.ringlab.sim.api.ElementContext;
import io.ringlab.sim.api.InputPort;
import io.ringlab.sim.api.Metrics;
import io.ringlab.sim.api.OutputPort;
import io.ringlab.sim.api.Timer;
import io.ringlab.sim.api.TimerCallback;
import io.ringlab.sim.api.dto.ElementDescriptorDTO;
import io.ringlab.sim.api.dto.PropertyDescriptorDTO;

/**
 * A hand-written ElementContext for the qdisc element tests: properties from a map, a seeded random stream, metrics and
 * drops recorded for assertions. Shared by QdiscElementTest and QdiscKindElementTest.
 */
final class FakeElementContext implements ElementContext {
    final Map<String, Long> values = new HashMap<>();
    final SplittableRandom random;
    long nowPicos;
    int readies;
    final List<String> reasons = new ArrayList<>();
    final List<String> drops = new ArrayList<>();
    final List<String> failures = new ArrayList<>();
    final Map<String, Metrics.Counter> counters = new LinkedHashMap<>();
    final Map<String, DoubleSupplier> gauges = new LinkedHashMap<>();
    final List<String> series = new ArrayList<>();

    FakeElementContext(long seed, Map<String, Long> config) {
        this.random = new SplittableRandom(seed);
        values.putAll(config);
    }

    double metric(String name) {
        Metrics.Counter c = counters.get(name);
        return c != null ? c.get() : gauges.get(name).getAsDouble();
    }

    private long value(String name) {
        Long v = values.get(name);
        if (v == null) {
            throw new IllegalArgumentException("property=" + name);
        }
        return v;
    }

    @Override
    public String name() {
        return "q0";
    }

    @Override
    public int index() {
        return 2;
    }

    @Override
    public Configuration config() {
        return new Configuration() {
            @Override
            public long getLong(String name) {
                return value(name);
            }

            @Override
            public long getPicos(String name) {
                return value(name);
            }

            @Override
            public long getBytes(String name) {
                return value(name);
            }

            @Override
            public boolean getBoolean(String name) {
                throw new IllegalArgumentException("property=" + name);
            }

            @Override
            public double getDouble(String name) {
                throw new IllegalArgumentException("property=" + name);
            }

            @Override
            public String getString(String name) {
                throw new IllegalArgumentException("property=" + name);
            }

            @Override
            public long getBitsPerSecond(String name) {
                throw new IllegalArgumentException("property=" + name);
            }

            @Override
            public boolean isSet(String name) {
                return false;
            }
        };
    }

    @Override
    public OutputPort output(String name) {
        assertEquals("out", name, "the only output");
        return new OutputPort() {
            @Override
            public String name() {
                return name;
            }

            @Override
            public boolean connected() {
                return true;
            }

            @Override
            public void push(Buffer buffer) {
                throw new UnsupportedOperationException("out is a pull output");
            }

            @Override
            public void pushBatch(Buffer[] buffers, int offset, int count) {
                throw new UnsupportedOperationException("out is a pull output");
            }

            @Override
            public void ready() {
                readies++;
            }
        };
    }

    @Override
    public InputPort input(String name) {
        throw new UnsupportedOperationException("input " + name);
    }

    @Override
    public long nowPicos() {
        return nowPicos;
    }

    @Override
    public Timer timer(TimerCallback callback) {
        throw new UnsupportedOperationException("timer");
    }

    @Override
    public RandomGenerator random() {
        return random;
    }

    @Override
    public int cores() {
        return 1;
    }

    @Override
    public Core core(int index) {
        throw new UnsupportedOperationException("core");
    }

    @Override
    public CostProfile costProfile() {
        throw new UnsupportedOperationException("costProfile");
    }

    @Override
    public Metrics metrics() {
        return new Metrics() {
            @Override
            public Counter counter(String name) {
                long[] value = {0};
                Counter c = new Counter() {
                    @Override
                    public void increment() {
                        value[0]++;
                    }

                    @Override
                    public void add(long delta) {
                        value[0] += delta;
                    }

                    @Override
                    public long get() {
                        return value[0];
                    }
                };
                assertNull(counters.put(name, c), "metric registered twice: " + name);
                return c;
            }

            @Override
            public void rate(String name, Counter counter, double scale) {
                gauge(name, () -> counter.get() * scale); // no clock here: the count, scaled
            }

            @Override
            public void gauge(String name, DoubleSupplier value) {
                assertNull(gauges.put(name, value), "metric registered twice: " + name);
            }

            @Override
            public void gauge(String name, DoubleSupplier value, java.util.function.LongSupplier samples, long sincePicos) {
                gauge(name, value);
            }

            @Override
            public LatencyHistogram histogram(String name, String unit) {
                throw new UnsupportedOperationException("histogram");
            }

            @Override
            public void points(String histogram, long intervalPicos) {
                throw new UnsupportedOperationException("points");
            }

            @Override
            public void series(String name) {
                series.add(name);
            }
        };
    }

    @Override
    public BufferPool pool(String kind, String suffix, int capacity, int bufferBytes, Map<String, Object> settings) {
        throw new UnsupportedOperationException("pool");
    }

    @Override
    public <S> S provider(Class<S> type, String kindProperty, String kind) {
        assertEquals(QdiscProvider.class, type, "service type");
        assertEquals(QdiscProvider.KIND, kindProperty, "kind property");
        return type.cast(switch (kind) {
            case "pfifo" -> new PfifoProvider();
            case "pfifo_fast" -> new PfifoFastProvider();
            case "fq_codel" -> new FqCodelProvider();
            default -> throw new IllegalArgumentException("kind=" + kind);
        });
    }

    @Override
    public int dropReason(String reason) {
        reasons.add(reason);
        return 100 + reasons.size() - 1;
    }

    @Override
    public void generated(Buffer buffer) {
        throw new UnsupportedOperationException("generated");
    }

    @Override
    public void deliver(int core, Buffer buffer) {
        throw new UnsupportedOperationException("deliver");
    }

    @Override
    public void drop(int core, Buffer buffer, int reasonId) {
        drops.add("core=" + core + " id=" + buffer.id() + " reason=" + reasonId);
    }

    @Override
    public void transferPacket(Buffer from, Buffer to) {
        throw new UnsupportedOperationException("transferPacket");
    }

    @Override
    public long memory(long bytes) {
        throw new UnsupportedOperationException("qdiscs reserve no memory");
    }

    @Override
    public long code(String function, int bytes) {
        throw new UnsupportedOperationException("qdiscs touch no code");
    }

    @Override
    public void dmaWrite(long address, int bytes) {
        throw new UnsupportedOperationException("qdiscs do no DMA");
    }

    @Override
    public int segment(Buffer gso, io.ringlab.buffer.api.BufferPool pool, Buffer[] dst) {
        return 0; // these qdisc tests never segment
    }

    @Override
    public void recycle(Buffer buffer, int reasonId) {
        throw new UnsupportedOperationException("recycle");
    }

    @Override
    public void fail(String message) {
        failures.add(message);
    }
}
