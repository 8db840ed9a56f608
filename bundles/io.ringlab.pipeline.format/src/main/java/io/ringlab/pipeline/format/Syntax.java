package io.ringlab.pipeline.format;

import java.util.List;
import java.util.regex.Pattern;

/**
 * The lexical rules shared by the reader, the writer, the {@code --set} grammar and the readers of other files of the
 * same text family (experiment files): name patterns, header keys, which values may be written bare, and quoting. The
 * public members are the rules other readers share; the pipeline's own header keys stay package-private.
 * <p>
 * Stateless and thread-safe.
 *
 * @since 1.2
 */
public final class Syntax {

    /** Element names, also port names (and experiment variant names). */
    public static final Pattern ELEMENT_NAME = Pattern.compile("[A-Za-z][A-Za-z0-9_-]*");
    /** Element type ids. */
    public static final Pattern TYPE_ID = Pattern.compile("[a-z][a-z0-9_.-]*");
    /** Property names. */
    public static final Pattern PROPERTY_NAME = Pattern.compile("[a-z][A-Za-z0-9]*");
    /** Layout coordinates: plain decimal numbers, optionally negative. */
    static final Pattern COORDINATE = Pattern.compile("-?[0-9]+(\\.[0-9]+)?");

    static final String NAME = "name";
    static final String DESCRIPTION = "description";
    static final String DURATION = "duration";
    static final String SEED = "seed";
    static final String PROFILE = "profile";
    static final String HEADLINE = "headline";
    static final String PLOT = "plot";
    /** The header keys in canonical order. */
    static final List<String> HEADER_KEYS = List.of(NAME, DESCRIPTION, DURATION, SEED, PROFILE, HEADLINE, PLOT);

    /** {@link #ELEMENT_NAME} in words, for messages. */
    public static final String ELEMENT_NAME_RULE = "names start with a letter and contain only letters, digits, '_' and '-'";
    /** {@link #TYPE_ID} in words, for messages. */
    public static final String TYPE_ID_RULE = "type ids start with a lower-case letter and contain only lower-case letters, digits, "
            + "'_', '.' and '-'";
    /** {@link #PROPERTY_NAME} in words, for messages. */
    public static final String PROPERTY_NAME_RULE = "property names start with a lower-case letter and contain only letters and digits";

    /** The forms of a metric name, for messages. */
    public static final String METRIC_FORMS = "ELEMENT.METRIC (for example sink.rxMpps), pool:ELEMENT.POOL.METRIC, "
            + "cpuN.METRIC or l3.METRIC";
    private static final Pattern MACHINE = Pattern.compile("cpu[0-9]+|l3");

    /** The accepted escapes, for messages. */
    static final String ESCAPES = "\\\", \\\\, \\n, \\r and \\t";

    private Syntax() {
    }

    /** @return whether {@code c} ends a bare value (besides the end of the text). */
    static boolean endsBareValue(char c) {
        return isBlank(c) || isLineBreak(c) || c == ',' || c == ';' || c == '}' || c == '#';
    }

    /** @return whether {@code c} is blank space inside a line. */
    static boolean isBlank(char c) {
        return c == ' ' || c == '\t' || c == '\f' || c == '\u000B';
    }

    /** @return whether {@code c} starts a line break ({@code \n}, {@code \r\n} or {@code \r}). */
    static boolean isLineBreak(char c) {
        return c == '\n' || c == '\r';
    }

    /**
     * @param text a value's text; must not be {@code null}
     * @return whether the text reads back unchanged when written without quotes
     */
    static boolean canBeBare(String text) {
        if (text.isEmpty() || text.charAt(0) == '"') {
            return false;
        }
        for (int i = 0; i < text.length(); i++) {
            char c = text.charAt(i);
            if (endsBareValue(c) || Character.isISOControl(c)) {
                return false;
            }
        }
        return true;
    }

    /**
     * @param text any text; must not be {@code null}
     * @return the text in double quotes, with {@code "} and {@code \} escaped and line breaks and tabs written as
     *         {@code \n}, {@code \r} and {@code \t}
     */
    public static String quote(String text) {
        StringBuilder sb = new StringBuilder(text.length() + 2).append('"');
        for (int i = 0; i < text.length(); i++) {
            char c = text.charAt(i);
            switch (c) {
                case '"' -> sb.append("\\\"");
                case '\\' -> sb.append("\\\\");
                case '\n' -> sb.append("\\n");
                case '\r' -> sb.append("\\r");
                case '\t' -> sb.append("\\t");
                default -> sb.append(c);
            }
        }
        return sb.append('"').toString();
    }

    /**
     * @param c the character after a backslash in a quoted string
     * @return the character it stands for, or {@code -1} if {@code \c} is no escape
     */
    static int unescape(char c) {
        return switch (c) {
            case '"' -> '"';
            case '\\' -> '\\';
            case 'n' -> '\n';
            case 'r' -> '\r';
            case 't' -> '\t';
            default -> -1;
        };
    }

    /**
     * Finds the element a metric name belongs to: {@code ELEMENT.METRIC}, {@code pool:ELEMENT.POOL.METRIC} (one of an
     * element's pools), or a core's or the shared cache's {@code cpuN.METRIC} and {@code l3.METRIC}, which belong to no
     * element. The metric itself is not checked (the engine knows which exist).
     *
     * @param text the name as written, for example {@code sink.rxMpps}; must not be {@code null}
     * @return the element's name; {@code ""} for a core's or the cache's metric; {@code null} if the text has none of
     *         the forms ({@link #METRIC_FORMS})
     */
    public static String metricElement(String text) {
        int dot = text.lastIndexOf('.');
        if (dot <= 0 || dot == text.length() - 1 || text.substring(dot + 1).contains(":")) {
            return null;
        }
        String owner = text.substring(0, dot);
        if (MACHINE.matcher(owner).matches()) {
            return "";
        }
        boolean pool = owner.startsWith("pool:") && owner.indexOf('.') > 5;
        String element = pool ? owner.substring(5, owner.indexOf('.')) : owner;
        return ELEMENT_NAME.matcher(element).matches() ? element : null;
    }

    /**
     * @param text a file name as the user wrote it; must not be {@code null}
     * @return the name without folders and without its last extension ({@code "pipelines/a.b.ring"} gives {@code "a.b"})
     */
    public static String baseName(String text) {
        int slash = Math.max(text.lastIndexOf('/'), text.lastIndexOf('\\'));
        String base = text.substring(slash + 1);
        int dot = base.lastIndexOf('.');
        return dot > 0 ? base.substring(0, dot) : base;
    }

    /**
     * @param names names; must not be {@code null}
     * @return the names separated by {@code ", "}, or {@code "none"}
     */
    public static String list(Iterable<String> names) {
        String s = String.join(", ", names);
        return s.isEmpty() ? "none" : s;
    }

    /**
     * The names closest to a misspelt one, for a "did you mean" in a message: those at the smallest edit distance
     * (insertions, deletions, substitutions and swaps of neighbours, ignoring case) when it is at most a third of the
     * name's length (at least 1, at most 3) and less than the whole name; a name that starts with or contains the given one also counts when nothing
     * is that close.
     *
     * @param given the name as written; must not be {@code null}
     * @param known the names that exist; must not be {@code null}
     * @return {@code " (did you mean 'pfifo'?)"} (or {@code 'a' or 'b'}), to follow the name in a message, or {@code ""}
     *         when none is close
     * @since 1.3
     */
    public static String didYouMean(String given, Iterable<String> known) {
        String g = given.toLowerCase(java.util.Locale.ROOT);
        // at most a third of the name's length (1 to 3), and never the whole name: 'c' is not a misspelt 'a'
        int limit = Math.min(g.length() - 1, Math.max(1, Math.min(3, g.length() / 3)));
        int best = Integer.MAX_VALUE;
        java.util.List<String> closest = new java.util.ArrayList<>();
        java.util.List<String> containing = new java.util.ArrayList<>();
        for (String k : known) {
            String n = k.toLowerCase(java.util.Locale.ROOT);
            if (n.equals(g)) {
                return ""; // the name exists (perhaps in another case): not misspelt
            }
            int d = distance(g, n);
            if (d <= limit && d < best) {
                best = d;
                closest.clear();
            }
            if (d <= limit && d == best) {
                closest.add(k);
            }
            if (g.length() >= 3 && n.contains(g)) {
                containing.add(k);
            }
        }
        java.util.List<String> pick = closest.isEmpty() ? containing : closest;
        if (pick.isEmpty() || pick.size() > 3) {
            return "";
        }
        return " (did you mean '" + String.join("' or '", pick) + "'?)";
    }

    /** @return the optimal-string-alignment distance of {@code a} and {@code b} (Damerau-Levenshtein without re-edits) */
    static int distance(String a, String b) {
        int[][] d = new int[a.length() + 1][b.length() + 1];
        for (int i = 0; i <= a.length(); i++) {
            d[i][0] = i;
        }
        for (int j = 0; j <= b.length(); j++) {
            d[0][j] = j;
        }
        for (int i = 1; i <= a.length(); i++) {
            for (int j = 1; j <= b.length(); j++) {
                int cost = a.charAt(i - 1) == b.charAt(j - 1) ? 0 : 1;
                d[i][j] = Math.min(Math.min(d[i - 1][j] + 1, d[i][j - 1] + 1), d[i - 1][j - 1] + cost);
                if (i > 1 && j > 1 && a.charAt(i - 1) == b.charAt(j - 2) && a.charAt(i - 2) == b.charAt(j - 1)) {
                    d[i][j] = Math.min(d[i][j], d[i - 2][j - 2] + 1);
                }
            }
        }
        return d[a.length()][b.length()];
    }
}
