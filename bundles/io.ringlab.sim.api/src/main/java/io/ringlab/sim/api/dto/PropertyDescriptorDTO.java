package io.ringlab.sim.api.dto;

import java.util.List;

/**
 * One configurable property of an element type: its kind (which fixes the unit grammar), default, range and meaning. The
 * engine validates pipeline values against it; the console generates forms from it; the engine also publishes it as an
 * OSGi Metatype object class definition (PID {@code ringlab.element.<type>}).
 */
public class PropertyDescriptorDTO {
    /** The value grammar of a property. */
    public enum Kind {
        /** {@code true} or {@code false}. */
        BOOLEAN,
        /** A whole number, optionally with a {@code k}, {@code M} or {@code G} multiplier. */
        INTEGER,
        /** A decimal number. */
        DECIMAL,
        /** Free text. */
        STRING,
        /** One of {@link PropertyDescriptorDTO#options}. */
        CHOICE,
        /** A time: {@code ps ns us ms s}; stored in picoseconds. */
        DURATION,
        /** A bit rate: {@code bit kbit Mbit Gbit} (per second) or {@code bps}; stored in bits per second. */
        RATE,
        /** A size: {@code B KB MB GB} (powers of 1000) or {@code KiB MiB GiB}; stored in bytes. */
        SIZE
    }

    /** Property name, unique within the type, matching {@code [a-z][A-Za-z0-9]*}. */
    public String name;
    /** The grammar and unit family. */
    public Kind kind;
    /** Default value as pipeline text (for example {@code "1000"}, {@code "100Mbit"}); never {@code null}. */
    public String defaultValue;
    /** Smallest allowed value as pipeline text; {@code null} for no bound. */
    public String min;
    /** Largest allowed value as pipeline text; {@code null} for no bound. */
    public String max;
    /** Allowed values of a {@link Kind#CHOICE}; {@code null} otherwise. */
    public List<String> options;
    /** What the property means, with its unit and what 0 means, as ns-3 attribute help does. */
    public String description;

    /**
     * @param name name
     * @param kind kind
     * @param defaultValue default as text
     * @param min minimum as text, or null
     * @param max maximum as text, or null
     * @param description description
     * @return a new descriptor
     */
    public static PropertyDescriptorDTO of(String name, Kind kind, String defaultValue, String min, String max,
            String description) {
        PropertyDescriptorDTO p = new PropertyDescriptorDTO();
        p.name = name;
        p.kind = kind;
        p.defaultValue = defaultValue;
        p.min = min;
        p.max = max;
        p.description = description;
        return p;
    }

    /**
     * @param name name
     * @param defaultValue default, one of the options
     * @param options the allowed values
     * @param description description
     * @return a new CHOICE descriptor
     */
    public static PropertyDescriptorDTO choice(String name, String defaultValue, List<String> options, String description) {
        PropertyDescriptorDTO p = of(name, Kind.CHOICE, defaultValue, null, null, description);
        p.options = List.copyOf(options);
        return p;
    }
}
