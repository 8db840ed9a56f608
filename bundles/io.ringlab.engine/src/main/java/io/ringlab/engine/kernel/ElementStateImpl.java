package io.ringlab.engine.kernel;

import java.util.Collections;
import java.util.LinkedHashMap;
import java.util.Map;
import java.util.Set;

import io.ringlab.buffer.api.Buffer;
import io.ringlab.sim.api.ElementState;

/** {@link ElementState}: an ordered map whose values are checked to outlive the exporting bundle. */
final class ElementStateImpl implements ElementState {
    private static final Set<Class<?>> PLAIN = Set.of(Boolean.class, Integer.class, Long.class, Double.class, String.class,
            boolean[].class, int[].class, long[].class, double[].class, Buffer[].class);

    private final String from;
    private final String fromType;
    private final ClassLoader exporter;
    private final Map<String, Object> values = new LinkedHashMap<>();

    /**
     * @param from {@code type@bundleVersion} of the exporting instance
     * @param fromType its type id
     * @param exporter the class loader of the exporting instance's class: values it defined are refused
     */
    ElementStateImpl(String from, String fromType, ClassLoader exporter) {
        this.from = from;
        this.fromType = fromType;
        this.exporter = exporter;
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
}
