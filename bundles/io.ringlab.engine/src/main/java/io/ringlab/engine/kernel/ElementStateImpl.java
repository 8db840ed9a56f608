package io.ringlab.engine.kernel;

import java.util.Arrays;
import java.util.Collections;
import java.util.HashMap;
import java.util.IdentityHashMap;
import java.util.LinkedHashMap;
import java.util.Map;
import java.util.Set;

import io.ringlab.buffer.api.Buffer;
import io.ringlab.buffer.api.BufferDestructor;
import io.ringlab.sim.api.CpuTask;
import io.ringlab.sim.api.ElementState;

/**
 * {@link ElementState}: an ordered map whose values are checked to outlive the exporting bundle, and the old instance's
 * named tasks and destructors, whose replacements go to the swap's {@link Swapper.Staging}.
 */
final class ElementStateImpl implements ElementState {
    private static final Set<Class<?>> PLAIN = Set.of(Boolean.class, Integer.class, Long.class, Double.class, String.class,
            boolean[].class, int[].class, long[].class, double[].class, Buffer[].class);

    private final String from;
    private final String fromType;
    private final ClassLoader exporter;
    private final Map<String, Object> values = new LinkedHashMap<>();
    private final Simulation sim;
    private final Swapper.Staging staging;
    private final Map<String, CpuTask> tasks = new HashMap<>();
    private final Map<String, BufferDestructor[]> destructors = new HashMap<>();

    /**
     * @param from {@code type@bundleVersion} of the exporting instance
     * @param fromType its type id
     * @param exporter the class loader of the exporting instance's class: values it defined are refused
     * @param sim the run
     * @param staging where the importer's requeues and destructor replacements go
     */
    ElementStateImpl(String from, String fromType, ClassLoader exporter, Simulation sim, Swapper.Staging staging) {
        this.from = from;
        this.fromType = fromType;
        this.exporter = exporter;
        this.sim = sim;
        this.staging = staging;
    }

    /** @return where the importer's requeues and destructor replacements go, applied when the swap commits */
    Swapper.Staging staging() {
        return staging;
    }

    @Override public String from() { return from; }
    @Override public String fromType() { return fromType; }
    @Override public boolean has(String key) { return values.containsKey(key); }
    @Override public Set<String> keys() { return Collections.unmodifiableSet(values.keySet()); }

    @Override
    public void put(String key, Object value) {
        if (key == null || value == null) {
            throw new IllegalArgumentException("ElementState.put: key=" + key + ", value=" + value + "; neither may be null");
        }
        Class<?> c = value.getClass();
        if (!PLAIN.contains(c) && !(value instanceof Buffer)) {
            // on a flat class path (unit tests) every class shares one loader: the check needs bundles to mean anything
            if (exporter != null && exporter != ElementStateImpl.class.getClassLoader() && c.getClassLoader() == exporter) {
                throw new IllegalArgumentException("ElementState.put: key=" + key + " holds a " + c.getName() + ", a class of"
                        + " the exporting bundle, which would not outlive its update; allowed: Boolean, Integer, Long, Double,"
                        + " String, arrays of boolean, int, long, double and Buffer, a Buffer, or an API object implemented"
                        + " outside the exporting bundle");
            }
            if (c.getInterfaces().length == 0 && !c.isArray()) {
                throw new IllegalArgumentException("ElementState.put: key=" + key + " holds a " + c.getName() + ", which"
                        + " implements no API interface");
            }
        }
        values.put(key, value);
    }

    @Override
    public <T> T get(String key, Class<T> type) {
        Object v = values.get(key);
        if (v == null) {
            return null;
        }
        if (!type.isInstance(v)) {
            throw new IllegalArgumentException("ElementState from " + from + ": key=" + key + " holds a " + v.getClass().getName()
                    + ", not a " + type.getName());
        }
        return type.cast(v);
    }

    @Override
    public long getLong(String key, long absent) {
        Object v = values.get(key);
        if (v == null) {
            return absent;
        }
        if (v instanceof Long l) {
            return l;
        }
        return get(key, Integer.class);
    }

    @Override
    public int getInt(String key, int absent) {
        Integer v = get(key, Integer.class);
        return v == null ? absent : v;
    }

    @Override
    public boolean getBoolean(String key, boolean absent) {
        Boolean v = get(key, Boolean.class);
        return v == null ? absent : v;
    }

    @Override
    public void putTask(String key, CpuTask task) {
        if (key == null || task == null) {
            throw new IllegalArgumentException("ElementState.putTask: key=" + key + ", task=" + task + "; neither may be null");
        }
        tasks.put(key, task);
    }

    @Override
    public int requeue(String key, CpuTask task) {
        if (task == null) {
            throw new IllegalArgumentException("ElementState.requeue: key=" + key + ", task=null");
        }
        CpuTask old = tasks.get(key);
        if (old == null) {
            return 0;
        }
        int cores = 0;
        for (CoreImpl c : sim.cores) {
            cores += c.queued(old) ? 1 : 0;
        }
        staging.requeue(old, task, null, 0);
        return cores;
    }

    @Override
    public void putDestructors(String key, BufferDestructor... list) {
        if (key == null || list == null || Arrays.asList(list).contains(null)) {
            throw new IllegalArgumentException("ElementState.putDestructors: key=" + key + "; neither the key nor a destructor"
                    + " may be null");
        }
        destructors.put(key, list.clone());
    }

    @Override
    public int replaceDestructors(String key, BufferDestructor... replacements) {
        BufferDestructor[] old = destructors.get(key);
        if (old == null) {
            return 0;
        }
        if (replacements == null || replacements.length != old.length || Arrays.asList(replacements).contains(null)) {
            throw new IllegalArgumentException("ElementState from " + from + ": key=" + key + " names " + old.length
                    + " destructor(s), replacements=" + (replacements == null ? "null" : replacements.length + " (none may be"
                    + " null)"));
        }
        Map<BufferDestructor, BufferDestructor> map = new IdentityHashMap<>();
        for (int i = 0; i < old.length; i++) {
            map.put(old[i], replacements[i]);
        }
        int carried = 0;
        for (PacketBuffer b : sim.buffers) {
            BufferDestructor d = b.destructor();
            if (d != null && b.allocated() && map.containsKey(d)) {
                carried++;
            }
        }
        staging.destructors.putAll(map);
        return carried;
    }
}
