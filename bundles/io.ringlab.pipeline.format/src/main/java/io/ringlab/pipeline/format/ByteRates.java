package io.ringlab.pipeline.format;

import java.util.ArrayList;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.Objects;
import java.util.function.Function;
import java.util.regex.Matcher;
import java.util.regex.Pattern;

import io.ringlab.sim.api.dto.ElementDescriptorDTO;
import io.ringlab.sim.api.dto.ElementSpecDTO;
import io.ringlab.sim.api.dto.PipelineDTO;
import io.ringlab.sim.api.dto.ProblemDTO;
import io.ringlab.sim.api.dto.PropertyDescriptorDTO;
import io.ringlab.sim.api.dto.PropertyDescriptorDTO.Kind;
import io.ringlab.sim.api.dto.ValueDTO;

/**
 * Warnings for rates written in tc(8)'s <em>bytes</em> per second ({@code bps kbps Mbps Gbps}): valid, and read as tc
 * reads them, but {@code rate = 100Mbps} is 800 Mbit/s, which a reader used to network speeds rarely means. The
 * warning names the value in bit/s and the spelling in bits: {@code 100Mbps is 800 Mbit/s (tc's bytes per second);
 * write 100Mbit for megabits}. A warning never makes a file or a run invalid.
 * <p>
 * Stateless and thread-safe.
 *
 * @since 1.3
 */
public final class ByteRates {
    private static final Pattern BYTE_RATE = Pattern.compile("([0-9]+(?:\\.[0-9]+)?)([kmg]?)bps",
            Pattern.CASE_INSENSITIVE);
    private static final Map<String, String[]> PREFIXES = Map.of(
            "", new String[] {"", "bits"}, "k", new String[] {"k", "kilobits"}, "m", new String[] {"M", "megabits"},
            "g", new String[] {"G", "gigabits"});

    private ByteRates() {
    }

    /**
     * @param text a rate's text, for example {@code 100Mbps}; must not be {@code null}
     * @return the warning for a rate in bytes per second, for example {@code 100Mbps is 800 Mbit/s (tc's bytes per
     *         second); write 100Mbit for megabits}; {@code null} for any other text (a rate in bits, or no rate)
     */
    public static String note(String text) {
        Objects.requireNonNull(text, "text");
        Matcher m = BYTE_RATE.matcher(text);
        if (!m.matches()) {
            return null;
        }
        long bits;
        try {
            bits = Units.parseBitsPerSecond(text);
        } catch (UnitException e) {
            return null; // too large: the engine's own error says so
        }
        String[] prefix = PREFIXES.get(m.group(2).toLowerCase(Locale.ROOT));
        return text + " is " + perSecond(bits) + " (tc's bytes per second); write " + m.group(1) + prefix[0]
                + "bit for " + prefix[1];
    }

    /**
     * @param bitsPerSecond a rate
     * @return it for people, in the largest of bit, kbit, Mbit, Gbit, Tbit that writes it exactly: {@code 800 Mbit/s}
     */
    public static String perSecond(long bitsPerSecond) {
        String t = Units.formatBitsPerSecond(bitsPerSecond);
        int unit = t.indexOf('b') - (Character.isLetter(t.charAt(t.indexOf('b') - 1)) ? 1 : 0);
        return t.substring(0, unit) + " " + t.substring(unit) + "/s";
    }

    /**
     * The warnings for a pipeline file's rates: every property of kind {@link Kind#RATE} whose value is in bytes per
     * second.
     *
     * @param p the pipeline as read; must not be {@code null}
     * @param types an element type's descriptor by its name, or {@code null} for a type not installed
     * @return one problem per such value, with the file, line and column of the value; empty if none
     */
    public static List<ProblemDTO> in(PipelineDTO p, Function<String, ElementDescriptorDTO> types) {
        List<ProblemDTO> notes = new ArrayList<>();
        for (ElementSpecDTO e : p.elements) {
            for (Map.Entry<String, ValueDTO> v : e.properties.entrySet()) {
                String note = isRate(types.apply(e.type), v.getKey()) ? note(v.getValue().text) : null;
                if (note != null) {
                    notes.add(new ProblemDTO(p.file, v.getValue().line, v.getValue().column, "element " + e.name + ": "
                            + v.getKey() + " = " + note));
                }
            }
        }
        return notes;
    }

    /**
     * The warning for one {@code --set ELEMENT.PROPERTY=VALUE} (or an experiment variant's {@code set}) of a pipeline.
     *
     * @param p the pipeline it applies to; must not be {@code null}
     * @param arg the override as given
     * @param types as for {@link #in(PipelineDTO, Function)}
     * @return the warning without the override's text, or {@code null} when the override sets no rate in bytes per
     *         second (or does not parse: the engine says why)
     */
    public static String inOverride(PipelineDTO p, String arg, Function<String, ElementDescriptorDTO> types) {
        PropertyOverride o;
        try {
            o = Overrides.parse(arg);
        } catch (OverrideException e) {
            return null;
        }
        for (ElementSpecDTO e : p.elements) {
            if (e.name.equals(o.element())) {
                return isRate(types.apply(e.type), o.property()) ? note(o.value().text) : null;
            }
        }
        return null;
    }

    private static boolean isRate(ElementDescriptorDTO d, String property) {
        if (d == null) {
            return false;
        }
        for (PropertyDescriptorDTO pd : d.properties) {
            if (pd.name.equals(property)) {
                return pd.kind == Kind.RATE;
            }
        }
        return false;
    }
}
