package io.ringlab.console;

import java.io.IOException;
import java.io.Reader;
import java.io.Writer;
import java.nio.charset.StandardCharsets;
import java.nio.file.AtomicMoveNotSupportedException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.StandardCopyOption;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Properties;

/**
 * The console window's size, position and pane layout, remembered between sessions in a properties file: {@code bounds}
 * ({@code x,y,width,height}), {@code maximized} ({@code true}/{@code false}) and one {@code sashes.NAME} per split pane
 * (its weights, {@code 24,48,28}). Reading never fails the console: a missing file is the defaults, a value that does
 * not parse is left out with a warning naming the file, the key and what is allowed. Writing goes to a temporary file
 * moved over the old one, so a crash never leaves half a file. No SWT.
 *
 * @param bounds {x, y, width, height}, or {@code null} for the default
 * @param maximized whether the window was maximized
 * @param sashes each split pane's weights, by name
 */
record WindowState(int[] bounds, boolean maximized, Map<String, int[]> sashes) {

    /** The framework property naming the file; without it, {@link #defaultFile}. */
    static final String FILE_PROPERTY = "ringlab.console.state";

    /** Nothing remembered. */
    static final WindowState NONE = new WindowState(null, false, Map.of());

    /**
     * @param env the environment ({@code XDG_CONFIG_HOME})
     * @param userHome the user's home folder
     * @return {@code $XDG_CONFIG_HOME/ringlab/console.properties}, else {@code ~/.config/ringlab/console.properties}
     */
    static Path defaultFile(Map<String, String> env, Path userHome) {
        String xdg = env.get("XDG_CONFIG_HOME");
        Path config = xdg != null && !xdg.isBlank() ? Path.of(xdg) : userHome.resolve(".config");
        return config.resolve("ringlab").resolve("console.properties");
    }

    /** What a read gives: the state and the warnings about what it left out. */
    record Read(WindowState state, List<String> warnings) {
    }

    /**
     * @param file the file; it may not exist
     * @return the state it holds (the defaults for what it lacks) and a warning per value left out
     */
    static Read read(Path file) {
        List<String> warnings = new ArrayList<>();
        if (!Files.isRegularFile(file)) {
            return new Read(NONE, warnings);
        }
        Properties p = new Properties();
        try (Reader r = Files.newBufferedReader(file, StandardCharsets.UTF_8)) {
            p.load(r);
        } catch (IOException | IllegalArgumentException e) {
            warnings.add(file + ": cannot be read (" + e.getMessage() + "); the window opens with its default layout");
            return new Read(NONE, warnings);
        }
        int[] bounds = null;
        String b = p.getProperty("bounds");
        if (b != null) {
            bounds = ints(b, 4);
            if (bounds == null || bounds[2] < 200 || bounds[3] < 150) {
                warnings.add(file + ": bounds=" + b + " left out; allowed: x,y,width,height as whole numbers, width at least"
                        + " 200 and height at least 150");
                bounds = null;
            }
        }
        String m = p.getProperty("maximized", "false").strip();
        if (!m.equals("true") && !m.equals("false")) {
            warnings.add(file + ": maximized=" + m + " left out; allowed: true, false");
            m = "false";
        }
        Map<String, int[]> sashes = new LinkedHashMap<>();
        for (String key : new java.util.TreeSet<>(p.stringPropertyNames())) {
            if (key.startsWith("sashes.")) {
                int[] w = ints(p.getProperty(key), -1);
                if (w == null || w.length < 2 || Arrays.stream(w).anyMatch(x -> x < 0) || Arrays.stream(w).sum() <= 0) {
                    warnings.add(file + ": " + key + "=" + p.getProperty(key) + " left out; allowed: two or more weights,"
                            + " whole numbers of at least 0, not all 0");
                } else {
                    sashes.put(key.substring("sashes.".length()), w);
                }
            }
        }
        return new Read(new WindowState(bounds, m.equals("true"), Map.copyOf(sashes)), warnings);
    }

    /**
     * Writes the state: to a temporary file in the same folder (created), then moved over {@code file}.
     *
     * @throws IOException naming nothing itself: the caller says which file
     */
    void write(Path file) throws IOException {
        Path dir = file.toAbsolutePath().getParent();
        Files.createDirectories(dir);
        Properties p = new Properties() {
            @Override
            public synchronized java.util.Set<Map.Entry<Object, Object>> entrySet() { // sorted keys: a stable file
                java.util.TreeMap<Object, Object> sorted = new java.util.TreeMap<>(super.entrySet().stream()
                        .collect(java.util.stream.Collectors.toMap(Map.Entry::getKey, Map.Entry::getValue)));
                return sorted.entrySet();
            }
        };
        if (bounds != null) {
            p.setProperty("bounds", join(bounds));
        }
        p.setProperty("maximized", Boolean.toString(maximized));
        sashes.forEach((name, w) -> p.setProperty("sashes." + name, join(w)));
        Path tmp = Files.createTempFile(dir, "console", ".properties.tmp");
        try {
            try (Writer w = Files.newBufferedWriter(tmp, StandardCharsets.UTF_8)) {
                p.store(w, "The Ringlab console's window, written when it closes");
            }
            try {
                Files.move(tmp, file, StandardCopyOption.REPLACE_EXISTING, StandardCopyOption.ATOMIC_MOVE);
            } catch (AtomicMoveNotSupportedException e) {
                Files.move(tmp, file, StandardCopyOption.REPLACE_EXISTING);
            }
        } finally {
            Files.deleteIfExists(tmp);
        }
    }

    /** @return {@code n} (or any number, for -1) comma-separated whole numbers, or {@code null} if they are not */
    private static int[] ints(String text, int n) {
        String[] parts = text.split(",", -1);
        if (n >= 0 && parts.length != n) {
            return null;
        }
        int[] out = new int[parts.length];
        try {
            for (int i = 0; i < parts.length; i++) {
                out[i] = Integer.parseInt(parts[i].strip());
            }
        } catch (NumberFormatException e) {
            return null;
        }
        return out;
    }

    private static String join(int[] v) {
        StringBuilder b = new StringBuilder();
        for (int x : v) {
            b.append(b.length() == 0 ? "" : ",").append(x);
        }
        return b.toString();
    }
}
