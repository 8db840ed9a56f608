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
}
