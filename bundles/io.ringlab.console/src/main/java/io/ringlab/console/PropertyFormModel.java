package io.ringlab.console;

import java.util.ArrayList;
import java.util.HashMap;
import java.util.LinkedHashMap;
import java.util.LinkedHashSet;
import java.util.List;
import java.util.Map;
import java.util.Set;

import io.ringlab.pipeline.format.ByteRates;
import io.ringlab.pipeline.format.Units;
import io.ringlab.sim.api.dto.ElementDescriptorDTO;
import io.ringlab.sim.api.dto.ElementSpecDTO;
import io.ringlab.sim.api.dto.PipelineDTO;
import io.ringlab.sim.api.dto.PropertyDescriptorDTO;
import io.ringlab.sim.api.dto.PropertyDescriptorDTO.Kind;
import io.ringlab.sim.api.dto.ValueDTO;

/**
 * The property forms of one pipeline being edited: which fields an element's form has (from its type's
 * {@link ElementDescriptorDTO}), what each field shows, and what an edit does. A valid value is written into the
 * pipeline's {@link ElementSpecDTO#properties} at once, so the next run uses it; an invalid one is kept as pending text
 * with its message (the element's and property's name, and what is allowed) and the pipeline keeps its last valid value.
 * A run must be refused while {@link #errors()} is not empty.
 * <p>
 * Values use the pipeline files' grammar ({@link Units#convert}), so a form accepts exactly what a file or {@code --set}
 * accepts. An empty text field means "the default": the property is removed from the element, as are values reset with
 * {@link #reset}. A value the user types that equals the default is kept as written: the default a run uses can come
 * from an installation-wide ConfigAdmin configuration (PID {@code ringlab.element.<type>}) rather than the descriptor, so
 * dropping it would change what the file means.
 * <p>
 * Not thread-safe: the UI thread owns it. Imports no SWT.
 */
final class PropertyFormModel {
    /** The control a field is shown with. */
    enum Control {
        /** BOOLEAN: a check box. */
        CHECKBOX,
        /** CHOICE: a read-only combo of the options. */
        CHOICE,
        /** Everything else: a text field in the pipeline files' grammar. */
        TEXT
    }

    /**
     * One field of a form, fixed by the property's descriptor.
     *
     * @param name the property's name
     * @param kind its kind
     * @param control the control to show it with
     * @param defaultText the default as pipeline text; never {@code null}
     * @param options the allowed values of a CHOICE, empty otherwise
     * @param unitHint the units the field accepts ({@code "ps ns us ms s"}), empty for a check box or combo
     * @param allowed the allowed range or values ({@code "1 to 65536"}), empty if anything of the kind goes
     * @param description what the property means; never {@code null}
     */
    record Field(String name, Kind kind, Control control, String defaultText, List<String> options, String unitHint,
            String allowed, String description) {

        /** @return the one-line help shown beside the field: unit, default and range. */
        String hint() {
            StringBuilder sb = new StringBuilder();
            if (!unitHint.isEmpty()) {
                sb.append(unitHint).append("; ");
            }
            sb.append("default ").append(defaultText);
            if (!allowed.isEmpty() && control != Control.CHOICE) {
                sb.append("; ").append(allowed);
            }
            return sb.toString();
        }
    }

    /** Writes a property's new value into the pipeline ({@code null}: remove it, so the default applies). */
    @FunctionalInterface
    interface Writer {
        void put(String element, String property, ValueDTO value);
    }

    private final PipelineDTO pipeline;
    private final Writer writer;
    private Map<String, ElementDescriptorDTO> types = Map.of();
    /** Pending invalid text by {@code element.property}, in the order the user made the mistakes. */
    private final Map<String, String> pendingText = new LinkedHashMap<>();
    private final Map<String, String> pendingError = new HashMap<>();
    /** Properties the user has changed since the pipeline was read, as {@code element.property}. */
    private final Set<String> changed = new LinkedHashSet<>();

    /**
     * @param pipeline the pipeline being edited; edits are written into it; must not be {@code null}
     * @param types the installed element types
     */
    PropertyFormModel(PipelineDTO pipeline, List<ElementDescriptorDTO> types) {
        this(pipeline, types, null);
    }

    /**
     * @param pipeline the pipeline being edited, read live; must not be {@code null}
     * @param types the installed element types
     * @param writer where edits go (the editor's undoable command); {@code null} writes them into {@code pipeline}
     */
    PropertyFormModel(PipelineDTO pipeline, List<ElementDescriptorDTO> types, Writer writer) {
        this.pipeline = pipeline;
        this.writer = writer != null ? writer : (element, property, value) -> {
            ElementSpecDTO e = element(element);
            if (value == null) {
                e.properties.remove(property);
            } else {
                e.properties.put(property, value);
            }
        };
        types(types);
    }

    /** Replaces the installed element types (a bundle came or went). */
    void types(List<ElementDescriptorDTO> installed) {
        Map<String, ElementDescriptorDTO> m = new HashMap<>();
        for (ElementDescriptorDTO d : installed) {
            m.put(d.type, d);
        }
        types = m;
    }

    /** @return the pipeline being edited; never {@code null}. */
    PipelineDTO pipeline() {
        return pipeline;
    }

    /** @return the element of that name, or {@code null} if the pipeline has none. */
    ElementSpecDTO element(String name) {
        for (ElementSpecDTO e : pipeline.elements) {
            if (e.name.equals(name)) {
                return e;
            }
        }
        return null;
    }

    /** @return the descriptor of the element's type, or {@code null} if the element or its type is unknown. */
    ElementDescriptorDTO descriptor(String element) {
        ElementSpecDTO e = element(element);
        return e == null ? null : types.get(e.type);
    }

    /** @return the element's form fields, in the descriptor's order; empty if the element or its type is unknown. */
    List<Field> fields(String element) {
        ElementDescriptorDTO d = descriptor(element);
        if (d == null) {
            return List.of();
        }
        List<Field> l = new ArrayList<>();
        for (PropertyDescriptorDTO p : d.properties) {
            l.add(field(p));
        }
        return l;
    }

    static Field field(PropertyDescriptorDTO p) {
        Control c = switch (p.kind) {
            case BOOLEAN -> Control.CHECKBOX;
            case CHOICE -> Control.CHOICE;
            default -> Control.TEXT;
        };
        String unit = switch (p.kind) {
            case INTEGER -> "integer (k, M, G; 0x hex)";
            case DECIMAL -> "decimal";
            case STRING -> "text";
            case DURATION -> "ps ns us ms s";
            case RATE -> "bit kbit Mbit Gbit Tbit, or bps kbps Mbps Gbps";
            case SIZE -> "B KB MB GB, or KiB MiB GiB";
            case BOOLEAN, CHOICE -> "";
        };
        String allowed;
        if (p.kind == Kind.CHOICE) {
            allowed = p.options == null ? "" : String.join(", ", p.options);
        } else if (p.min != null && p.max != null) {
            allowed = p.min + " to " + p.max;
        } else if (p.min != null) {
            allowed = p.min + " or more";
        } else if (p.max != null) {
            allowed = "at most " + p.max;
        } else {
            allowed = "";
        }
        return new Field(p.name, p.kind, c, p.defaultValue == null ? "" : p.defaultValue,
                p.options == null ? List.of() : List.copyOf(p.options), unit, allowed,
                p.description == null ? "" : p.description);
    }

    /**
     * @return what the field shows: the pending invalid text if there is one, else the value written in the pipeline, else
     *         {@code ""} (the default applies)
     */
    String text(String element, String property) {
        String key = element + "." + property;
        String pending = pendingText.get(key);
        if (pending != null) {
            return pending;
        }
        ElementSpecDTO e = element(element);
        ValueDTO v = e == null ? null : e.properties.get(property);
        return v == null ? "" : v.text;
    }

    /** @return the value that applies: the written one, or the default if none is written. */
    String effective(String element, String property) {
        ElementSpecDTO e = element(element);
        ValueDTO v = e == null ? null : e.properties.get(property);
        if (v != null) {
            return v.text;
        }
        ElementDescriptorDTO d = descriptor(element);
        if (d != null) {
            for (PropertyDescriptorDTO p : d.properties) {
                if (p.name.equals(property)) {
                    return p.defaultValue;
                }
            }
        }
        return "";
    }

    /**
     * @return for a rate, its value as parsed, in bit/s ({@code "= 800 Mbit/s"} for {@code 100Mbps}, tc's bytes per
     *         second), so that a value in tc's byte units cannot be misread; {@code ""} for other kinds, a pending invalid
     *         text or a value that does not parse
     */
    String parsed(String element, String property) {
        PropertyDescriptorDTO p = property(element, property);
        if (p.kind != Kind.RATE || pendingText.containsKey(element + "." + property)) {
            return "";
        }
        try {
            return "= " + ByteRates.perSecond((Long) Units.convert(p, effective(element, property)));
        } catch (IllegalArgumentException e) {
            return ""; // an invalid default: the run's check names it
        }
    }

    /** @return the message of the field's pending invalid text, or {@code null} if the field is valid. */
    String error(String element, String property) {
        return pendingError.get(element + "." + property);
    }

    /**
     * Applies what the user typed or chose.
     *
     * @param element the element's name
     * @param property the property's name
     * @param text the field's text; surrounding blanks are ignored; empty means the default (the property is removed)
     * @return {@code null} if the value was valid and is now in the pipeline; otherwise the message, which names the
     *         element and property and says what is allowed (for example {@code q.limit=0 is out of range: allowed 1
     *         to 1000000})
     * @throws IllegalArgumentException if the pipeline has no such element, or its type no such property
     */
    String edit(String element, String property, String text) {
        ElementSpecDTO e = element(element);
        PropertyDescriptorDTO p = property(element, property);
        String key = element + "." + property;
        String t = text.strip();
        if (t.isEmpty()) {
            reset(element, property);
            return null;
        }
        try {
            Units.convert(p, t);
        } catch (IllegalArgumentException bad) { // UnitException: the message starts with the property's name
            String message = element + "." + bad.getMessage();
            pendingText.put(key, text);
            pendingError.put(key, message);
            return message;
        }
        pendingText.remove(key);
        pendingError.remove(key);
        ValueDTO old = e.properties.get(property);
        if (old != null && old.text.equals(t)) {
            return null;
        }
        ValueDTO v = new ValueDTO(t, old != null ? old.line : e.line, old != null ? old.column : e.column);
        v.quoted = p.kind == Kind.STRING;
        writer.put(element, property, v);
        changed.add(key);
        return null;
    }

    /** Removes the property from the element, so the default applies, and forgets any pending invalid text. */
    void reset(String element, String property) {
        ElementSpecDTO e = element(element);
        property(element, property);
        String key = element + "." + property;
        pendingText.remove(key);
        pendingError.remove(key);
        if (e.properties.containsKey(property)) {
            writer.put(element, property, null);
            changed.add(key);
        }
    }

    private PropertyDescriptorDTO property(String element, String property) {
        ElementSpecDTO e = element(element);
        if (e == null) {
            throw new IllegalArgumentException("no element " + element + " in pipeline " + pipeline.name);
        }
        ElementDescriptorDTO d = types.get(e.type);
        if (d == null) {
            throw new IllegalArgumentException("element type " + e.type + " of " + element + " is not installed");
        }
        for (PropertyDescriptorDTO p : d.properties) {
            if (p.name.equals(property)) {
                return p;
            }
        }
        throw new IllegalArgumentException("element type " + e.type + " has no property " + property);
    }

    /** @return the messages of every field with invalid text, in the order they were made; empty if all are valid. */
    List<String> errors() {
        List<String> l = new ArrayList<>();
        for (String key : pendingText.keySet()) {
            l.add(pendingError.get(key));
        }
        return l;
    }

    /** @return {@code true} if the user changed any property since the pipeline was read. */
    boolean edited() {
        return !changed.isEmpty();
    }

    /**
     * @return the changed properties with the value that now applies, as {@code element.property=value} ({@code
     *         element.property=default} for a removed one), in the order they were first changed
     */
    List<String> changes() {
        List<String> l = new ArrayList<>();
        for (String key : changed) {
            int dot = key.indexOf('.');
            ElementSpecDTO e = element(key.substring(0, dot));
            ValueDTO v = e == null ? null : e.properties.get(key.substring(dot + 1));
            l.add(key + "=" + (v == null ? "default" : v.text));
        }
        return l;
    }
}
