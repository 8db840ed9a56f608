package io.ringlab.pipeline.format;

import java.math.BigDecimal;
import java.math.BigInteger;
import java.math.RoundingMode;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.Objects;
import java.util.function.ToLongFunction;
import java.util.regex.Matcher;
import java.util.regex.Pattern;

import io.ringlab.sim.api.dto.PropertyDescriptorDTO;

/**
 * The value grammar of pipeline files and {@code --set}, shared by the reader, the engine and the console: durations,
 * rates, sizes, integers, decimals and booleans, their conversion to base units, and the reverse.
 * <p>
 * Base units: picoseconds for a duration, bits per second for a rate, bytes for a size. Durations, rates and sizes are
 * never negative and always need a unit; the number may have a fraction, which is computed exactly and rounded half-up
 * to a whole base unit ({@code 6.72ns} is exactly 6720 ps, {@code 0.0005ns} rounds to 1 ps).
 * <table>
 * <caption>Units</caption>
 * <tr><th>Kind</th><th>Units</th></tr>
 * <tr><td>duration</td><td>{@code ps ns us ms s}; {@code µs} (or Greek {@code μs}) for {@code us}</td></tr>
 * <tr><td>rate</td><td>{@code bit kbit Mbit Gbit Tbit} bits per second, also written {@code bit/s kbit/s ...};
 * {@code bps kbps Mbps Gbps} <em>bytes</em> per second as in tc(8); prefixes are powers of 1000 and, as in tc, units are
 * case-insensitive ({@code mbit} = {@code Mbit})</td></tr>
 * <tr><td>size</td><td>{@code B}, {@code KB} (or {@code kB}), {@code MB}, {@code GB} powers of 1000; {@code KiB MiB GiB}
 * powers of 1024; case-sensitive</td></tr>
 * </table>
 * <p>
 * Every {@code parse} method throws {@link UnitException} with a message that quotes the text, says what it is not and
 * lists what is accepted. Every {@code format} method gives text that its {@code parse} method reads back to the same
 * number.
 * <p>
 * Stateless and thread-safe.
 */
public final class Units {

    private static final String DURATION_HELP = "write a number followed by ps, ns, us (or µs), ms or s";
    private static final String RATE_HELP = "write a number followed by bit, kbit, Mbit, Gbit or Tbit (per second), "
            + "or bps, kbps, Mbps, Gbps (bytes per second)";
    private static final String SIZE_HELP = "write a number followed by B, KB, MB or GB (powers of 1000), "
            + "or KiB, MiB or GiB (powers of 1024)";
    private static final String INTEGER_HELP = "write decimal digits, optionally followed by k, M or G (times 1000, "
            + "1000000 or 1000000000), or 0x and hex digits; '_' may separate digits";
    private static final String DECIMAL_HELP = "write digits with an optional fraction and exponent, for example "
            + "0.25, -3 or 1e-6";
    private static final String BOOLEAN_HELP = "write true or false";

    /** Duration units to picoseconds; exact spelling. */
    private static final Map<String, BigDecimal> DURATION_UNITS = units(
            "ps", 1L, "ns", 1_000L, "us", 1_000_000L, "\u00B5s", 1_000_000L, "\u03BCs", 1_000_000L,
            "ms", 1_000_000_000L, "s", 1_000_000_000_000L);
    /** Rate units, lower case, to bits per second. */
    private static final Map<String, BigDecimal> RATE_UNITS = units(
            "bit", 1L, "kbit", 1_000L, "mbit", 1_000_000L, "gbit", 1_000_000_000L, "tbit", 1_000_000_000_000L,
            "bit/s", 1L, "kbit/s", 1_000L, "mbit/s", 1_000_000L, "gbit/s", 1_000_000_000L,
            "tbit/s", 1_000_000_000_000L,
            "bps", 8L, "kbps", 8_000L, "mbps", 8_000_000L, "gbps", 8_000_000_000L);
    /** Size units to bytes; exact spelling. */
    private static final Map<String, BigDecimal> SIZE_UNITS = units(
            "B", 1L, "KB", 1_000L, "kB", 1_000L, "MB", 1_000_000L, "GB", 1_000_000_000L,
            "KiB", 1L << 10, "MiB", 1L << 20, "GiB", 1L << 30);

    /** The units {@link #formatPicos(long)} chooses from, largest first. */
    private static final Map<String, BigDecimal> DURATION_FORMAT = units(
            "s", 1_000_000_000_000L, "ms", 1_000_000_000L, "us", 1_000_000L, "ns", 1_000L, "ps", 1L);
    /** The units {@link #formatBitsPerSecond(long)} chooses from, largest first. */
    private static final Map<String, BigDecimal> RATE_FORMAT = units(
            "Tbit", 1_000_000_000_000L, "Gbit", 1_000_000_000L, "Mbit", 1_000_000L, "kbit", 1_000L, "bit", 1L);
    /** The units {@link #formatBytes(long)} chooses from, largest first. */
    private static final Map<String, BigDecimal> SIZE_FORMAT = units(
            "GiB", 1L << 30, "GB", 1_000_000_000L, "MiB", 1L << 20, "MB", 1_000_000L, "KiB", 1L << 10, "KB", 1_000L,
            "B", 1L);
    /** Sizes below this are always formatted in bytes, as the kernel writes MTUs and buffer sizes. */
    private static final long BYTES_ONLY_BELOW = 10_000;

    private static final Pattern QUANTITY = Pattern.compile("(-?)([0-9]+(?:\\.[0-9]+)?)(.*)", Pattern.DOTALL);
    private static final Pattern DECIMAL_INTEGER = Pattern.compile("(-?)([0-9](?:_*[0-9])*)([kMG]?)");
    private static final Pattern HEX_INTEGER = Pattern.compile("(-?)0[xX]([0-9a-fA-F](?:_*[0-9a-fA-F])*)");
    private static final Pattern DECIMAL = Pattern.compile("-?[0-9]+(\\.[0-9]+)?([eE][-+]?[0-9]+)?");

    private Units() {
    }

    /**
     * Parses a duration, for example {@code 0.1ms}, {@code 20s} or {@code 6.72ns}.
     *
     * @param text the text; must not be {@code null}
     * @return the duration in picoseconds, rounded half-up; never negative
     * @throws UnitException if the text is no duration, is negative or exceeds {@link Long#MAX_VALUE} picoseconds
     */
    public static long parsePicos(String text) {
        return quantity(text, "a duration", DURATION_HELP, DURATION_UNITS, false);
    }

    /**
     * Parses a rate in tc(8)'s grammar, for example {@code 100Mbit} (10<sup>8</sup> bit/s) or {@code 1Mbps}
     * (10<sup>6</sup> <em>bytes</em> per second, 8&middot;10<sup>6</sup> bit/s).
     *
     * @param text the text; must not be {@code null}
     * @return the rate in bits per second, rounded half-up; never negative
     * @throws UnitException if the text is no rate, is negative or exceeds {@link Long#MAX_VALUE} bit/s
     */
    public static long parseBitsPerSecond(String text) {
        return quantity(text, "a rate", RATE_HELP, RATE_UNITS, true);
    }

    /**
     * Parses a size, for example {@code 1500B}, {@code 64KiB} or {@code 1.5MB}.
     *
     * @param text the text; must not be {@code null}
     * @return the size in bytes, rounded half-up; never negative
     * @throws UnitException if the text is no size, is negative or exceeds {@link Long#MAX_VALUE} bytes
     */
    public static long parseBytes(String text) {
        return quantity(text, "a size", SIZE_HELP, SIZE_UNITS, false);
    }

    /**
     * Parses a whole number: decimal ({@code 1000}, {@code -3}, {@code 1_000_000}), decimal with a multiplier of 1000
     * ({@code 10k}, {@code 2M}, {@code 1G}), or hexadecimal ({@code 0x10}, {@code 0xFFFF_FFFF}). Underscores may stand
     * between digits only.
     *
     * @param text the text; must not be {@code null}
     * @return the number
     * @throws UnitException if the text is no integer or is outside the range of {@code long}
     */
    public static long parseInteger(String text) {
        Objects.requireNonNull(text, "text");
        BigInteger value;
        Matcher hex = HEX_INTEGER.matcher(text);
        Matcher dec = DECIMAL_INTEGER.matcher(text);
        if (hex.matches()) {
            value = new BigInteger(hex.group(2).replace("_", ""), 16);
            if (!hex.group(1).isEmpty()) {
                value = value.negate();
            }
        } else if (dec.matches()) {
            value = new BigInteger(dec.group(1) + dec.group(2).replace("_", ""));
            value = value.multiply(BigInteger.valueOf(switch (dec.group(3)) {
                case "k" -> 1_000L;
                case "M" -> 1_000_000L;
                case "G" -> 1_000_000_000L;
                default -> 1L;
            }));
        } else {
            throw new UnitException("'" + text + "' is not an integer: " + INTEGER_HELP);
        }
        try {
            return value.longValueExact();
        } catch (ArithmeticException e) {
            throw new UnitException("'" + text + "' is out of range for an integer: allowed " + Long.MIN_VALUE + " to "
                    + Long.MAX_VALUE);
        }
    }

    /**
     * Parses a decimal number, for example {@code 0.25}, {@code -3} or {@code 1e-6}.
     *
     * @param text the text; must not be {@code null}
     * @return the nearest {@code double}; always finite
     * @throws UnitException if the text is no decimal number or is too large for a {@code double}
     */
    public static double parseDecimal(String text) {
        Objects.requireNonNull(text, "text");
        if (!DECIMAL.matcher(text).matches()) {
            throw new UnitException("'" + text + "' is not a decimal number: " + DECIMAL_HELP);
        }
        double d = Double.parseDouble(text);
        if (!Double.isFinite(d)) {
            throw new UnitException("'" + text + "' is too large for a decimal number: at most " + Double.MAX_VALUE);
        }
        return d;
    }

    /**
     * Parses a boolean: exactly {@code true} or {@code false} (lower case).
     *
     * @param text the text; must not be {@code null}
     * @return the boolean
     * @throws UnitException for any other text
     */
    public static boolean parseBoolean(String text) {
        Objects.requireNonNull(text, "text");
        return switch (text) {
            case "true" -> true;
            case "false" -> false;
            default -> throw new UnitException("'" + text + "' is not a boolean: " + BOOLEAN_HELP);
        };
    }

    /**
     * Converts a property's text by the descriptor's {@link PropertyDescriptorDTO#kind kind} and checks it against the
     * descriptor's {@link PropertyDescriptorDTO#min min}, {@link PropertyDescriptorDTO#max max} and
     * {@link PropertyDescriptorDTO#options options}.
     *
     * @param d the property's descriptor; must not be {@code null}, nor its kind; a CHOICE must have options
     * @param text the value's text, without quotes; must not be {@code null}
     * @return a {@link Long} for INTEGER, DURATION (picoseconds), RATE (bits per second) and SIZE (bytes); a
     *         {@link Double} for DECIMAL; a {@link Boolean} for BOOLEAN; the text itself for STRING and CHOICE; never
     *         {@code null}
     * @throws UnitException if the text does not follow the kind's grammar, is not one of the options, or is out of
     *         range; the message starts with the property's name, for example
     *         {@code rate=500Gbit is out of range: allowed 1bit to 400Gbit}
     * @throws IllegalArgumentException if the descriptor itself is broken (no kind, a CHOICE without options, a bound
     *         that does not parse)
     */
    public static Object convert(PropertyDescriptorDTO d, String text) {
        Objects.requireNonNull(d, "d");
        Objects.requireNonNull(text, "text");
        if (d.kind == null) {
            throw new IllegalArgumentException("descriptor of property '" + d.name + "' has no kind");
        }
        return switch (d.kind) {
            case BOOLEAN -> named(d, () -> parseBoolean(text));
            case STRING -> text;
            case CHOICE -> choice(d, text);
            case INTEGER -> inRange(d, text, Units::parseInteger);
            case DURATION -> inRange(d, text, Units::parsePicos);
            case RATE -> inRange(d, text, Units::parseBitsPerSecond);
            case SIZE -> inRange(d, text, Units::parseBytes);
            case DECIMAL -> decimalInRange(d, text);
        };
    }

    /**
     * Formats a duration as the shortest text among the units in which it is at least 1, the larger unit on a tie:
     * 100_000_000 gives {@code "100us"}, 1_500_000_000 gives {@code "1.5ms"}, 6720 gives {@code "6.72ns"}, 0 gives
     * {@code "0ps"}. {@link #parsePicos(String)} reads it back exactly.
     *
     * @param picos a duration in picoseconds; must not be negative
     * @return the text; never {@code null}
     * @throws IllegalArgumentException if {@code picos} is negative
     */
    public static String formatPicos(long picos) {
        return format(picos, "picos", DURATION_FORMAT, Integer.MAX_VALUE);
    }

    /**
     * Formats a rate in {@code bit kbit Mbit Gbit Tbit} (never in tc's byte units), as the shortest text among the units
     * in which it is at least 1, the larger unit on a tie: 100_000_000_000 gives {@code "100Gbit"}, 1_500_000 gives
     * {@code "1.5Mbit"}, 0 gives {@code "0bit"}. {@link #parseBitsPerSecond(String)} reads it back exactly.
     *
     * @param bitsPerSecond a rate in bits per second; must not be negative
     * @return the text; never {@code null}
     * @throws IllegalArgumentException if {@code bitsPerSecond} is negative
     */
    public static String formatBitsPerSecond(long bitsPerSecond) {
        return format(bitsPerSecond, "bitsPerSecond", RATE_FORMAT, Integer.MAX_VALUE);
    }

    /**
     * Formats a size in whole numbers only. Sizes below 10000 bytes are written in bytes, as MTUs and buffer sizes are
     * ({@code 1500B}, {@code 2048B}, {@code 9000B}); larger ones as the shortest whole number among {@code B KB MB GB
     * KiB MiB GiB}, the larger unit on a tie ({@code 64KiB}, {@code 30KB}, {@code 4MiB}, {@code 1GB},
     * {@code 1234567B}). {@link #parseBytes(String)} reads it back exactly.
     *
     * @param bytes a size in bytes; must not be negative
     * @return the text; never {@code null}
     * @throws IllegalArgumentException if {@code bytes} is negative
     */
    public static String formatBytes(long bytes) {
        if (bytes < BYTES_ONLY_BELOW) {
            return format(bytes, "bytes", Map.of("B", BigDecimal.ONE), 0);
        }
        return format(bytes, "bytes", SIZE_FORMAT, 0);
    }

    /**
     * @param units candidate units, largest first
     * @param maxFractionDigits how many digits after the point a candidate may have; 0 for whole numbers only
     */
    private static String format(long value, String name, Map<String, BigDecimal> units, int maxFractionDigits) {
        if (value < 0) {
            throw new IllegalArgumentException(name + "=" + value + " is negative");
        }
        String smallest = null;
        String best = null;
        BigDecimal v = BigDecimal.valueOf(value);
        for (Map.Entry<String, BigDecimal> u : units.entrySet()) {
            smallest = u.getKey();
            BigDecimal n = v.divide(u.getValue()).stripTrailingZeros(); // exact: each factor is 2^a * 5^b
            if (n.compareTo(BigDecimal.ONE) < 0 || n.scale() > maxFractionDigits) {
                continue;
            }
            String text = n.toPlainString() + u.getKey();
            if (best == null || text.length() < best.length()) {
                best = text; // strictly shorter only: on a tie the larger unit, seen first, stays
            }
        }
        return best != null ? best : value + smallest;
    }

    private static long quantity(String text, String what, String help, Map<String, BigDecimal> units,
            boolean caseInsensitive) {
        Objects.requireNonNull(text, "text");
        Matcher m = QUANTITY.matcher(text);
        if (!m.matches()) {
            throw new UnitException("'" + text + "' is not " + what + ": " + help);
        }
        String unit = m.group(3);
        if (unit.isEmpty()) {
            throw new UnitException("'" + text + "' is not " + what + ": the unit is missing; " + help);
        }
        BigDecimal factor = units.get(caseInsensitive ? unit.toLowerCase(Locale.ROOT) : unit);
        if (factor == null) {
            throw new UnitException("'" + text + "' is not " + what + ": " + help);
        }
        if (!m.group(1).isEmpty()) {
            throw new UnitException("'" + text + "' is not " + what + ": it must not be negative");
        }
        BigDecimal base = new BigDecimal(m.group(2)).multiply(factor).setScale(0, RoundingMode.HALF_UP);
        try {
            return base.longValueExact();
        } catch (ArithmeticException e) {
            throw new UnitException("'" + text + "' is too large for " + what + ": " + help + ", at most "
                    + Long.MAX_VALUE + " in base units");
        }
    }

    private interface Parse<T> {
        T get();
    }

    /** Runs a parse and puts the property's name before the message of a failure. */
    private static <T> T named(PropertyDescriptorDTO d, Parse<T> parse) {
        try {
            return parse.get();
        } catch (UnitException e) {
            throw new UnitException(d.name + ": " + e.getMessage());
        }
    }

    private static String choice(PropertyDescriptorDTO d, String text) {
        List<String> options = d.options;
        if (options == null || options.isEmpty()) {
            throw new IllegalArgumentException("descriptor of CHOICE property '" + d.name + "' has no options");
        }
        if (!options.contains(text)) {
            throw new UnitException(d.name + ": '" + text + "' is not one of the allowed values: "
                    + String.join(", ", options));
        }
        return text;
    }

    private static Long inRange(PropertyDescriptorDTO d, String text, ToLongFunction<String> parse) {
        long v = named(d, () -> parse.applyAsLong(text));
        Long min = d.min == null ? null : bound(d, d.min, "min", () -> parse.applyAsLong(d.min));
        Long max = d.max == null ? null : bound(d, d.max, "max", () -> parse.applyAsLong(d.max));
        if (min != null && v < min || max != null && v > max) {
            throw outOfRange(d, text);
        }
        return v;
    }

    private static Double decimalInRange(PropertyDescriptorDTO d, String text) {
        double v = named(d, () -> parseDecimal(text));
        Double min = d.min == null ? null : bound(d, d.min, "min", () -> parseDecimal(d.min));
        Double max = d.max == null ? null : bound(d, d.max, "max", () -> parseDecimal(d.max));
        if (min != null && v < min || max != null && v > max) {
            throw outOfRange(d, text);
        }
        return v;
    }

    private static <T> T bound(PropertyDescriptorDTO d, String text, String which, Parse<T> parse) {
        try {
            return parse.get();
        } catch (UnitException e) {
            throw new IllegalArgumentException("descriptor of property '" + d.name + "' has an invalid " + which
                    + " '" + text + "': " + e.getMessage(), e);
        }
    }

    private static UnitException outOfRange(PropertyDescriptorDTO d, String text) {
        String allowed;
        if (d.min != null && d.max != null) {
            allowed = d.min + " to " + d.max;
        } else if (d.min != null) {
            allowed = d.min + " or more";
        } else {
            allowed = "at most " + d.max;
        }
        return new UnitException(d.name + "=" + text + " is out of range: allowed " + allowed);
    }

    private static Map<String, BigDecimal> units(Object... nameFactorPairs) {
        Map<String, BigDecimal> m = new LinkedHashMap<>();
        for (int i = 0; i < nameFactorPairs.length; i += 2) {
            m.put((String) nameFactorPairs[i], BigDecimal.valueOf((Long) nameFactorPairs[i + 1]));
        }
        return m;
    }
}
