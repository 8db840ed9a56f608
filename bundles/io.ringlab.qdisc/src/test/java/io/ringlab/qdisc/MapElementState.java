package io.ringlab.qdisc;

import java.util.LinkedHashMap;
import java.util.Map;
import java.util.Set;

import io.ringlab.buffer.api.BufferDestructor;
import io.ringlab.sim.api.CpuTask;
import io.ringlab.sim.api.ElementState;

/** The engine's ElementState as a plain map, keys in the order written, for a swap between two elements of this bundle. */
final class MapElementState implements ElementState {
    final Map<String, Object> values = new LinkedHashMap<>();
    private final String fromType;

    MapElementState(String fromType) {
        this.fromType = fromType;
    }

    @Override public String from() { return fromType + "@test"; }
    @Override public String fromType() { return fromType; }
    @Override public void put(String key, Object value) { values.put(key, value); }
    @Override public boolean has(String key) { return values.containsKey(key); }
    @Override public <T> T get(String key, Class<T> type) { return type.cast(values.get(key)); }
    @Override public long getLong(String key, long absent) { return values.containsKey(key) ? (Long) values.get(key) : absent; }
    @Override public int getInt(String key, int absent) { return values.containsKey(key) ? (Integer) values.get(key) : absent; }
    @Override
    public boolean getBoolean(String key, boolean absent) {
        return values.containsKey(key) ? (Boolean) values.get(key) : absent;
    }
    @Override public Set<String> keys() { return values.keySet(); }
    @Override public void putTask(String key, CpuTask task) { }
    @Override public int requeue(String key, CpuTask task) { return 0; }
    @Override public void putDestructors(String key, BufferDestructor... destructors) { }
    @Override public int replaceDestructors(String key, BufferDestructor... replacements) { return 0; }
}
