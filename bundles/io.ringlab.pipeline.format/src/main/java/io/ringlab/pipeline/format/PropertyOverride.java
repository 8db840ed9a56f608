package io.ringlab.pipeline.format;

import java.util.Objects;

import io.ringlab.sim.api.dto.ValueDTO;

/**
 * One parsed {@code --set ELEMENT.PROPERTY=VALUE} argument.
 * <p>
 * Named {@code PropertyOverride} rather than {@code Override} so that it never hides {@link java.lang.Override}: a type
 * called {@code Override} in this package would break every {@code @Override} in a file that imports
 * {@code io.ringlab.pipeline.format.*}.
 * <p>
 * The record is immutable, but its {@link ValueDTO} is a public-field DTO: treat it as read-only, and copy it before
 * changing it.
 *
 * @param element the element's name, matching {@code [A-Za-z][A-Za-z0-9_-]*}; never {@code null}
 * @param property the property's name, matching {@code [a-z][A-Za-z0-9]*}; not checked against the element's type (the
 *        engine does that); never {@code null}
 * @param value the value as written, without quotes, with {@link ValueDTO#quoted} set for a quoted value,
 *        {@link ValueDTO#line} 0 and {@link ValueDTO#column} the 1-based offset of the value (of its opening quote, if
 *        quoted) in the argument; never {@code null}
 */
public record PropertyOverride(String element, String property, ValueDTO value) {

    /** Checks that no component is {@code null}. */
    public PropertyOverride {
        Objects.requireNonNull(element, "element");
        Objects.requireNonNull(property, "property");
        Objects.requireNonNull(value, "value");
    }
}
