package io.ringlab.experiment;

import java.math.BigDecimal;
import java.math.RoundingMode;
import java.util.ArrayList;
import java.util.List;
import java.util.Locale;
import java.util.regex.Matcher;
import java.util.regex.Pattern;

import io.ringlab.pipeline.format.Units;
import io.ringlab.sim.api.dto.PropertyDescriptorDTO;
import io.ringlab.sim.api.dto.PropertyDescriptorDTO.Kind;

/**
 * A sweep's range, {@code LOW..HIGH STEP}, expanded into its values in the property's grammar (docs/experiments.md,
 * "Sweeps"): {@code 64..1024 *2} gives 64, 128, 256, 512, 1024; {@code 100Mbit..1Gbit +100Mbit} gives 100Mbit,
 * 200Mbit, ..., 1Gbit. The values are computed exactly in the property's base unit (picoseconds, bits per second, bytes,
 * or the integer itself; a decimal exactly in decimal), the i-th additive value as {@code LOW + i * STEP} so that no
 * rounding accumulates, and end at the last one not above {@code HIGH}. Both ends are checked against the property's
 * range as a {@code set} value is. An integer range without a step counts by 1.
 * <p>
 * Stateless and thread-safe.
 */
final class SweepRange {

    /** {@code LOW..HIGH}, then optionally {@code *FACTOR} or {@code +STEP}, blanks allowed around the step's sign. */
    private static final Pattern RANGE = Pattern.compile("\\s*(\\S+?)\\.\\.([^\\s*+]+)\\s*(?:([*+])\\s*(\\S+))?\\s*",
            Pattern.DOTALL);
    static final String FORMS = "write LOW..HIGH followed by *FACTOR (a geometric series, as in 64..1024 *2) or +STEP"
            + " (as in 100Mbit..1Gbit +100Mbit)";

    private SweepRange() {
    }

    /**
     * @param d the property the range sweeps; its kind must be a number (integer, duration, rate, size, decimal)
     * @param text the range as written, its tokens joined by a blank
     * @param most the most values to give
     * @return the values, at least one, each in the property's grammar ({@code Units}' format for its kind)
     * @throws IllegalArgumentException naming what is wrong: no range, a kind without ranges, an end out of the
     *         property's range, a step that does not advance, more than {@code most} values
     */
    static List<String> expand(PropertyDescriptorDTO d, String text, int most) {
        Matcher m = RANGE.matcher(text);
        if (!m.matches()) {
            throw new IllegalArgumentException("'" + text.strip() + "' is neither a list nor a range: " + FORMS
                    + ", or give the values as a list, as in [64, 128, 256]");
        }
        if (d.kind == Kind.BOOLEAN || d.kind == Kind.CHOICE || d.kind == Kind.STRING) {
            throw new IllegalArgumentException("property '" + d.name + "' is a " + d.kind.name().toLowerCase(Locale.ROOT)
                    + ", which has no range: give its values as a list"
                    + (d.options != null && !d.options.isEmpty() ? ", as in " + d.options : ""));
        }
        BigDecimal low = base(d, m.group(1));
        BigDecimal high = base(d, m.group(2));
        if (low.compareTo(high) > 0) {
            throw new IllegalArgumentException("the range " + m.group(1) + ".." + m.group(2) + " runs downwards: write the"
                    + " lower value first");
        }
        String op = m.group(3);
        if (op == null && d.kind != Kind.INTEGER) {
            throw new IllegalArgumentException("the range " + m.group(1) + ".." + m.group(2) + " has no step: " + FORMS);
        }
        List<String> values = new ArrayList<>();
        if (op == null || op.equals("+")) {
            BigDecimal step = op == null ? BigDecimal.ONE : step(d, m.group(4));
            if (step.signum() <= 0) {
                throw new IllegalArgumentException("the step +" + m.group(4) + " does not advance: give a step more than 0");
            }
            for (long i = 0;; i++) {
                BigDecimal v = low.add(step.multiply(BigDecimal.valueOf(i)));
                if (v.compareTo(high) > 0) {
                    break;
                }
                add(values, d, v, most, text);
            }
        } else {
            BigDecimal factor;
            try {
                Units.parseDecimal(m.group(4));
                factor = new BigDecimal(m.group(4));
            } catch (IllegalArgumentException ex) {
                throw new IllegalArgumentException("the factor *" + m.group(4) + " is not a number: " + ex.getMessage());
            }
            if (factor.compareTo(BigDecimal.ONE) <= 0) {
                throw new IllegalArgumentException("the factor *" + m.group(4) + " does not advance: give a factor more"
                        + " than 1, as in *2");
            }
            if (low.signum() <= 0) {
                throw new IllegalArgumentException("a geometric range starts above 0, not at " + m.group(1));
            }
            BigDecimal v = low;
            while (v.compareTo(high) <= 0) {
                add(values, d, v, most, text);
                BigDecimal next = rounded(d, v.multiply(factor));
                if (next.compareTo(v) <= 0) {
                    next = v.add(BigDecimal.ONE); // a factor close to 1 on a small integer: never stand still
                }
                v = next;
            }
        }
        return values;
    }

    private static void add(List<String> values, PropertyDescriptorDTO d, BigDecimal v, int most, String text) {
        if (values.size() == most) {
            throw new IllegalArgumentException("the range " + text.strip() + " has more than "
                    + String.format(Locale.ROOT, "%,d", most) + " values: take a larger step");
        }
        String s = format(d, rounded(d, v));
        Units.convert(d, s); // within the property's range: the ends were checked, and values lie between them
        values.add(s);
    }

    /** @return a value in the property's base unit, checked against its range as a {@code set} value is */
    private static BigDecimal base(PropertyDescriptorDTO d, String text) {
        Object v = Units.convert(d, text); // names the property and its range when out of it
        return v instanceof Long l ? BigDecimal.valueOf(l) : new BigDecimal(text.replace("_", ""));
    }

    /** @return a step in the property's base unit, in its grammar but without its range */
    private static BigDecimal step(PropertyDescriptorDTO d, String text) {
        try {
            return switch (d.kind) {
                case INTEGER -> BigDecimal.valueOf(Units.parseInteger(text));
                case DURATION -> BigDecimal.valueOf(Units.parsePicos(text));
                case RATE -> BigDecimal.valueOf(Units.parseBitsPerSecond(text));
                case SIZE -> BigDecimal.valueOf(Units.parseBytes(text));
                case DECIMAL -> {
                    Units.parseDecimal(text);
                    yield new BigDecimal(text);
                }
                default -> throw new IllegalStateException(d.kind.toString());
            };
        } catch (IllegalArgumentException ex) {
            throw new IllegalArgumentException("the step +" + text + ": " + ex.getMessage());
        }
    }

    /** @return the value rounded half-up to a whole base unit, except for a decimal */
    private static BigDecimal rounded(PropertyDescriptorDTO d, BigDecimal v) {
        return d.kind == Kind.DECIMAL ? v : v.setScale(0, RoundingMode.HALF_UP);
    }

    /** @return the value in the property's grammar, as {@code Units} formats its kind */
    private static String format(PropertyDescriptorDTO d, BigDecimal v) {
        return switch (d.kind) {
            case INTEGER -> v.toBigIntegerExact().toString();
            case DURATION -> Units.formatPicos(v.longValueExact());
            case RATE -> Units.formatBitsPerSecond(v.longValueExact());
            case SIZE -> Units.formatBytes(v.longValueExact());
            case DECIMAL -> v.stripTrailingZeros().toPlainString();
            default -> throw new IllegalStateException(d.kind.toString());
        };
    }
}
