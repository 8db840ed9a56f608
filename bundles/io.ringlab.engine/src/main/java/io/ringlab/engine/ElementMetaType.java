package io.ringlab.engine;

import java.util.List;

import org.osgi.service.metatype.AttributeDefinition;
import org.osgi.service.metatype.MetaTypeProvider;
import org.osgi.service.metatype.ObjectClassDefinition;

import io.ringlab.pipeline.format.Units;
import io.ringlab.sim.api.dto.ElementDescriptorDTO;
import io.ringlab.sim.api.dto.PropertyDescriptorDTO;

/**
 * Publishes an element type's properties as an OSGi Metatype object class definition (PID {@code ringlab.element.<type>}),
 * built from the factory's descriptor so that there is one source of truth. Values are pipeline text (units written
 * out), so durations, rates and sizes are STRING attributes whose {@link AttributeDefinition#validate} applies the
 * pipeline grammar and range. A configuration under that PID sets installation-wide defaults for the type.
 * <p>
 * Immutable and thread-safe.
 */
final class ElementMetaType implements MetaTypeProvider {
    /** The PID prefix of element types. */
    static final String PID_PREFIX = "ringlab.element.";

    private final ElementDescriptorDTO descriptor;

    ElementMetaType(ElementDescriptorDTO descriptor) {
        this.descriptor = descriptor;
    }

    @Override
    public String[] getLocales() {
        return null;
    }

    @Override
    public ObjectClassDefinition getObjectClassDefinition(String id, String locale) {
        if (!(PID_PREFIX + descriptor.type).equals(id)) {
            return null;
        }
        return new ObjectClassDefinition() {
            @Override public String getName() { return descriptor.type; }
            @Override public String getID() { return PID_PREFIX + descriptor.type; }
            @Override public String getDescription() { return descriptor.summary; }
            @Override public java.io.InputStream getIcon(int size) { return null; }

            @Override
            public AttributeDefinition[] getAttributeDefinitions(int filter) {
                if (filter == ObjectClassDefinition.REQUIRED) {
                    return new AttributeDefinition[0]; // every property has a default
                }
                List<PropertyDescriptorDTO> props = descriptor.properties;
                AttributeDefinition[] out = new AttributeDefinition[props.size()];
                for (int i = 0; i < out.length; i++) {
                    out[i] = attribute(props.get(i));
                }
                return out;
            }
        };
    }

    static AttributeDefinition attribute(PropertyDescriptorDTO p) {
        return new AttributeDefinition() {
            @Override public String getName() { return p.name; }
            @Override public String getID() { return p.name; }

            @Override
            public String getDescription() {
                String range = p.min == null && p.max == null ? "" : " Range: " + (p.min == null ? "" : p.min) + " to "
                        + (p.max == null ? "" : p.max) + ".";
                return p.description + " (" + p.kind.name().toLowerCase() + ")." + range;
            }

            @Override public int getCardinality() { return 0; }

            @Override
            public int getType() {
                return switch (p.kind) {
                    case BOOLEAN -> AttributeDefinition.BOOLEAN;
                    case INTEGER -> AttributeDefinition.LONG;
                    case DECIMAL -> AttributeDefinition.DOUBLE;
                    default -> AttributeDefinition.STRING;
                };
            }

            @Override
            public String[] getOptionValues() {
                return p.options == null ? null : p.options.toArray(String[]::new);
            }

            @Override
            public String[] getOptionLabels() {
                return getOptionValues();
            }

            @Override
            public String validate(String value) {
                try {
                    Units.convert(p, value);
                    return "";
                } catch (IllegalArgumentException e) {
                    return e.getMessage();
                }
            }

            @Override
            public String[] getDefaultValue() {
                return new String[] {p.defaultValue};
            }
        };
    }
}
