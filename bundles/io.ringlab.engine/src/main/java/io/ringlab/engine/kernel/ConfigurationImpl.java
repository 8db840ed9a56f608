package io.ringlab.engine.kernel;

import java.util.Map;
import java.util.Set;

import io.ringlab.sim.api.Configuration;
import io.ringlab.sim.api.dto.PropertyDescriptorDTO;
import io.ringlab.sim.api.dto.PropertyDescriptorDTO.Kind;

/** Validated, converted properties of one element. Immutable. */
final class ConfigurationImpl implements Configuration {
    private final String element;
    private final Map<String, Object> values;
    private final Map<String, PropertyDescriptorDTO> descriptors;
    private final Set<String> set;
    /** Each value as text in the pipeline grammar, in the descriptor's order: what the result records. */
    private final Map<String, String> texts;

    /**
     * @param texts each property's value as the file (after overrides), the installation or the type's default wrote it
     */
    ConfigurationImpl(String element, Map<String, Object> values, Map<String, PropertyDescriptorDTO> descriptors,
            Set<String> set, Map<String, String> texts) {
        this.element = element;
        this.values = Map.copyOf(values);
        this.descriptors = descriptors;
        this.set = Set.copyOf(set);
        this.texts = java.util.Collections.unmodifiableMap(new java.util.LinkedHashMap<>(texts));
    }

    /** @return every property's value as text, in the type's declaration order ({@code RunResultDTO.properties}) */
    Map<String, String> texts() {
        return texts;
    }

    private Object get(String name, Kind... kinds) {
        PropertyDescriptorDTO d = descriptors.get(name);
        if (d == null) {
            throw new IllegalArgumentException("element " + element + " has no property " + name + "; it has "
                    + descriptors.keySet());
        }
        for (Kind k : kinds) {
            if (d.kind == k) {
                return values.get(name);
            }
        }
        throw new IllegalArgumentException("element " + element + ": property " + name + " is " + d.kind + ", not "
                + java.util.Arrays.toString(kinds));
    }

    @Override public boolean getBoolean(String name) { return (Boolean) get(name, Kind.BOOLEAN); }
    @Override public long getLong(String name) { return (Long) get(name, Kind.INTEGER); }
    @Override public double getDouble(String name) { return ((Number) get(name, Kind.DECIMAL, Kind.INTEGER)).doubleValue(); }
    @Override public String getString(String name) { return (String) get(name, Kind.STRING, Kind.CHOICE); }
    @Override public long getPicos(String name) { return (Long) get(name, Kind.DURATION); }
    @Override public long getBitsPerSecond(String name) { return (Long) get(name, Kind.RATE); }
    @Override public long getBytes(String name) { return (Long) get(name, Kind.SIZE); }
    @Override public boolean isSet(String name) { return set.contains(name); }

    /** @return the converted values, for the result's record of the configuration. */
    Map<String, Object> values() {
        return values;
    }
}
