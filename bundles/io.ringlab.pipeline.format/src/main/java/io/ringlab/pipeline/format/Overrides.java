package io.ringlab.pipeline.format;

import java.util.ArrayList;
import java.util.List;
import java.util.Objects;

import io.ringlab.sim.api.PipelineException;
import io.ringlab.sim.api.dto.ElementSpecDTO;
import io.ringlab.sim.api.dto.PipelineDTO;
import io.ringlab.sim.api.dto.ProblemDTO;
import io.ringlab.sim.api.dto.ValueDTO;

/**
 * The {@code --set} grammar: {@code ELEMENT.PROPERTY=VALUE}, which sets one property of one element of a pipeline
 * for one run, for example {@code --set eth0.bql=false} or {@code --set 'src.name="eth0 rx"'}.
 * <ul>
 * <li>ELEMENT matches {@code [A-Za-z][A-Za-z0-9_-]*} and ends at the <em>first</em> {@code .};</li>
 * <li>PROPERTY matches {@code [a-z][A-Za-z0-9]*} and ends at the first {@code =};</li>
 * <li>VALUE is everything after that {@code =}, in the pipeline file's value grammar: a quoted string ({@code "..."}
 * with the escapes {@code \" \\ \n \r \t}) or a non-empty bare token without blank space, <code>, ; } #</code>.</li>
 * </ul>
 * Nothing is trimmed: {@code q.limit = 10} is an error. The value's unit grammar is not checked here; the engine checks
 * it against the element type's {@link io.ringlab.sim.api.dto.PropertyDescriptorDTO}, as it checks the property's name.
 * <p>
 * Stateless and thread-safe; {@link #apply(PipelineDTO, List)} mutates the pipeline it is given.
 */
public final class Overrides {

    private static final String EXPECTED = "expected ELEMENT.PROPERTY=VALUE";

    private Overrides() {
    }

    /**
     * Parses one {@code --set} argument.
     *
     * @param arg the argument, for example {@code eth0.bql=false}; must not be {@code null}
     * @return the override; never {@code null}
     * @throws OverrideException if the argument does not follow the grammar; the message shows the argument, for example
     *         {@code --set 'eth0bql=true': expected ELEMENT.PROPERTY=VALUE}
     */
    public static PropertyOverride parse(String arg) {
        Objects.requireNonNull(arg, "arg");
        int dot = arg.indexOf('.');
        int eq = arg.indexOf('=');
        if (dot < 0 || eq < 0 || eq < dot) {
            throw fail(arg, EXPECTED);
        }
        String element = arg.substring(0, dot);
        String property = arg.substring(dot + 1, eq);
        if (!Syntax.ELEMENT_NAME.matcher(element).matches()) {
            throw fail(arg, element.isEmpty() ? EXPECTED + " (the element name is missing)"
                    : "'" + element + "' is not an element name: " + Syntax.ELEMENT_NAME_RULE + "; " + EXPECTED);
        }
        if (!Syntax.PROPERTY_NAME.matcher(property).matches()) {
            throw fail(arg, property.isEmpty() ? EXPECTED + " (the property name is missing)"
                    : "'" + property + "' is not a property name: " + Syntax.PROPERTY_NAME_RULE + "; " + EXPECTED);
        }
        String raw = arg.substring(eq + 1);
        if (raw.isEmpty()) {
            throw fail(arg, "expected a value after '='; " + EXPECTED);
        }
        ValueDTO value = new ValueDTO(raw.charAt(0) == '"' ? unquote(arg, raw) : bare(arg, raw, element, property), 0,
                eq + 2);
        value.quoted = raw.charAt(0) == '"';
        return new PropertyOverride(element, property, value);
    }

    /**
     * Applies {@code --set} arguments to a pipeline, in order (a later argument for the same property wins). Each value
     * replaces the property's value, or is added after the element's other properties. Either every argument is applied
     * or, if any is wrong, none is.
     *
     * @param p the pipeline; its elements' property maps are changed in place; must not be {@code null}
     * @param args the arguments, each {@code ELEMENT.PROPERTY=VALUE}; must not be {@code null}, may be empty
     * @throws PipelineException listing every argument that does not parse or names an element the pipeline does not
     *         have (with the pipeline's element names); the problems carry {@link PipelineDTO#file} and no position
     */
    public static void apply(PipelineDTO p, List<String> args) throws PipelineException {
        Objects.requireNonNull(p, "p");
        Objects.requireNonNull(args, "args");
        String file = p.file != null ? p.file : "<input>";
        List<ProblemDTO> problems = new ArrayList<>();
        List<ElementSpecDTO> targets = new ArrayList<>();
        List<PropertyOverride> overrides = new ArrayList<>();
        for (String arg : args) {
            PropertyOverride o;
            try {
                o = parse(arg);
            } catch (OverrideException e) {
                problems.add(new ProblemDTO(file, 0, 0, e.getMessage()));
                continue;
            }
            ElementSpecDTO target = find(p, o.element());
            if (target == null) {
                List<String> names = new ArrayList<>();
                for (ElementSpecDTO e : p.elements) {
                    names.add(e.name);
                }
                problems.add(new ProblemDTO(file, 0, 0, "--set '" + arg + "': no element '" + o.element()
                        + "' in the pipeline" + Syntax.didYouMean(o.element(), names) + "; elements: " + Syntax.list(names)));
                continue;
            }
            targets.add(target);
            overrides.add(o);
        }
        if (!problems.isEmpty()) {
            throw new PipelineException(problems);
        }
        for (int i = 0; i < overrides.size(); i++) {
            PropertyOverride o = overrides.get(i);
            targets.get(i).properties.put(o.property(), o.value());
        }
    }

    private static ElementSpecDTO find(PipelineDTO p, String name) {
        for (ElementSpecDTO e : p.elements) {
            if (name.equals(e.name)) {
                return e;
            }
        }
        return null;
    }

    private static String bare(String arg, String raw, String element, String property) {
        for (int i = 0; i < raw.length(); i++) {
            char c = raw.charAt(i);
            if (Syntax.endsBareValue(c)) {
                String what = Syntax.isBlank(c) || Syntax.isLineBreak(c) ? "blank space" : "'" + c + "'";
                throw fail(arg, "the value '" + raw + "' contains " + what + ", which ends a bare value: quote it, as in "
                        + element + "." + property + "=" + Syntax.quote(raw));
            }
        }
        return raw;
    }

    private static String unquote(String arg, String raw) {
        StringBuilder sb = new StringBuilder();
        int i = 1;
        while (true) {
            if (i >= raw.length()) {
                throw fail(arg, "unterminated string: expected '\"' at the end");
            }
            char c = raw.charAt(i);
            if (c == '"') {
                break;
            }
            if (c == '\\' && i + 1 < raw.length()) {
                char e = raw.charAt(i + 1);
                int u = Syntax.unescape(e);
                if (u < 0) {
                    throw fail(arg, "unknown escape '\\" + e + "' in a string: use " + Syntax.ESCAPES);
                }
                sb.append((char) u);
                i += 2;
                continue;
            }
            sb.append(c);
            i++;
        }
        if (i != raw.length() - 1) {
            throw fail(arg, "unexpected '" + raw.substring(i + 1) + "' after the closing '\"'");
        }
        return sb.toString();
    }

    private static OverrideException fail(String arg, String message) {
        return new OverrideException("--set '" + arg + "': " + message);
    }
}
