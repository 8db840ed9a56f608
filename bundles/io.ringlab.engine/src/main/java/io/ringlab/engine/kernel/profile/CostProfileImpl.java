package io.ringlab.engine.kernel.profile;

import java.io.BufferedReader;
import java.io.IOException;
import java.io.Reader;
import java.io.StringReader;
import java.util.Collections;
import java.util.LinkedHashMap;
import java.util.Map;
import java.util.Set;

import io.ringlab.pipeline.format.PipelineReader;
import io.ringlab.sim.api.CostProfile;
import io.ringlab.sim.api.PipelineException;

/**
 * A cost profile read from a data file. Format, one constant per line:
 * <pre>
 * # comment
 * name = generic-x86-4ghz | source: what this profile stands for
 * frequencyHz = 4000000000 | source: datasheet or paper that gives it
 * netdev.txCycles = 0 | fitted: what it was fitted to
 * </pre>
 * Every constant must carry {@code | source: ...} or {@code | fitted: ...}; the loader rejects a line without one, naming
 * the file and line. {@code frequencyHz} and {@code cores} are required. Immutable.
 */
public final class CostProfileImpl implements CostProfile {
    private final String name;
    private final Map<String, Double> values;
    private final Map<String, String> sources;

    private CostProfileImpl(String name, Map<String, Double> values, Map<String, String> sources) {
        this.name = name;
        this.values = values;
        this.sources = sources;
    }

    /** An entry a profile is read from: its label in messages and where it is. */
    public record Entry(String label, java.net.URL url) {
    }

    /**
     * Finds a profile as both registries do, once per name: a file for a name that {@link #isFile} calls one, else the
     * entry {@code profiles/NAME.profile} that {@code entries} finds.
     *
     * @param name the name a pipeline gives
     * @param cache the profiles read so far, by name; the profile found goes in
     * @param entries gives the entry of a path ({@code profiles/NAME.profile}), or {@code null} when there is none
     * @param unknown the message when there is none, listing what there is
     * @return the profile
     * @throws IllegalArgumentException when there is none, or it cannot be read, or it is malformed
     */
    public static CostProfile find(String name, Map<String, CostProfile> cache,
            java.util.function.Function<String, Entry> entries, java.util.function.Supplier<String> unknown) {
        CostProfile cached = cache.get(name);
        if (cached != null) {
            return cached;
        }
        CostProfile p;
        try {
            if (isFile(name)) {
                p = readFile(name);
            } else {
                Entry e = entries.apply("profiles/" + name + ".profile");
                if (e == null) {
                    throw new IllegalArgumentException(unknown.get());
                }
                try (Reader r = new java.io.InputStreamReader(e.url().openStream(), java.nio.charset.StandardCharsets.UTF_8)) {
                    p = read(e.label(), r);
                }
            }
        } catch (IOException e) {
            throw new IllegalArgumentException("cost profile " + name + " could not be read: " + e.getMessage());
        }
        cache.put(name, p);
        return p;
    }

    /**
     * @param name a profile name as a pipeline gives it
     * @return whether it names a file: it ends in {@code .profile} or holds a {@code /}
     */
    public static boolean isFile(String name) {
        return name.endsWith(".profile") || name.contains("/");
    }

    /**
     * Reads a profile file, through the text family's one file reader ({@link PipelineReader#text}: a regular UTF-8
     * file of at most {@link PipelineReader#MAX_FILE_BYTES}).
     *
     * @param path the file's path
     * @return the profile
     * @throws IOException if reading fails
     * @throws IllegalArgumentException if the file does not exist or cannot be read (naming it and why), or for a
     *         malformed or unsourced constant
     */
    public static CostProfileImpl readFile(String path) throws IOException {
        String text;
        try {
            text = PipelineReader.text(java.nio.file.Path.of(path), "cost profile");
        } catch (PipelineException e) {
            throw new IllegalArgumentException(e.getMessage());
        } catch (java.nio.file.InvalidPathException e) {
            throw new IllegalArgumentException("cost profile " + path + " is not a file path: " + e.getReason());
        }
        return read(path, new StringReader(text));
    }

    /**
     * Reads a profile.
     *
     * @param file the file name for messages
     * @param in the text
     * @return the profile
     * @throws IOException if reading fails
     * @throws IllegalArgumentException naming file and line for a malformed or unsourced constant
     */
    public static CostProfileImpl read(String file, Reader in) throws IOException {
        Map<String, Double> values = new LinkedHashMap<>();
        Map<String, String> sources = new LinkedHashMap<>();
        String name = null;
        BufferedReader r = new BufferedReader(in);
        String line;
        int n = 0;
        while ((line = r.readLine()) != null) {
            n++;
            String t = line.strip();
            if (t.isEmpty() || t.startsWith("#")) {
                continue;
            }
            int bar = t.indexOf('|');
            int eq = t.indexOf('=');
            if (eq < 0 || (bar >= 0 && bar < eq)) {
                throw new IllegalArgumentException(file + ":" + n + ": expected KEY = VALUE | source: TEXT");
            }
            String key = t.substring(0, eq).strip();
            String value = (bar < 0 ? t.substring(eq + 1) : t.substring(eq + 1, bar)).strip();
            String source = bar < 0 ? "" : t.substring(bar + 1).strip();
            if (!(source.startsWith("source:") || source.startsWith("fitted:")) || source.indexOf(':') == source.length() - 1) {
                throw new IllegalArgumentException(file + ":" + n + ": constant " + key
                        + " has no source; write '| source: <kernel file, datasheet or paper>' or '| fitted: <what it was fitted to>'");
            }
            if (sources.containsKey(key)) {
                throw new IllegalArgumentException(file + ":" + n + ": constant " + key + " defined twice");
            }
            sources.put(key, source);
            if (key.equals("name")) {
                name = value;
                continue;
            }
            try {
                values.put(key, Double.parseDouble(value.replace("_", "")));
            } catch (NumberFormatException e) {
                throw new IllegalArgumentException(file + ":" + n + ": constant " + key + "=" + value + " is not a number");
            }
        }
        if (name == null) {
            throw new IllegalArgumentException(file + ": profile has no 'name'");
        }
        for (String required : new String[] {"frequencyHz", "cores"}) {
            if (!values.containsKey(required)) {
                throw new IllegalArgumentException(file + ": profile " + name + " has no '" + required + "'");
            }
        }
        double f = values.get("frequencyHz");
        double c = values.get("cores");
        if (!(f >= 1e6 && f <= 1e11) || f != Math.rint(f)) {
            throw new IllegalArgumentException(file + ": profile " + name + ": frequencyHz=" + f
                    + ", allowed a whole number from 1000000 (1 MHz) to 100000000000 (100 GHz)");
        }
        if (!(c >= 1 && c <= 1024) || c != Math.rint(c)) {
            throw new IllegalArgumentException(file + ": profile " + name + ": cores=" + c + ", allowed a whole number from 1 to 1024");
        }
        return new CostProfileImpl(name, Collections.unmodifiableMap(values), Collections.unmodifiableMap(sources));
    }

    @Override public String name() { return name; }
    @Override public long frequencyHz() { return (long) value("frequencyHz"); }
    @Override public int cores() { return (int) value("cores"); }
    @Override public boolean has(String key) { return values.containsKey(key); }
    @Override public Set<String> keys() { return values.keySet(); }

    @Override
    public double value(String key) {
        Double v = values.get(key);
        if (v == null) {
            throw new IllegalArgumentException("profile " + name + " has no constant " + key + "; it has " + values.keySet());
        }
        return v;
    }

    @Override
    public double value(String key, double fallback) {
        Double v = values.get(key);
        return v == null ? fallback : v;
    }

    @Override
    public String source(String key) {
        return sources.get(key);
    }
}
