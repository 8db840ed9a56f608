package io.ringlab.engine.kernel;

import java.util.List;
import java.util.Set;

import io.ringlab.pipeline.format.Syntax;
import io.ringlab.pipeline.format.Units;

/**
 * A swap asked for with {@code --swap AT:ELEMENT[=TYPE[@VERSION]]} ({@code RunOptionsDTO.swaps}): at virtual time AT,
 * before any event of that instant, the implementation behind ELEMENT becomes TYPE (default: its own) from the bundle of
 * VERSION (default: the newest installed).
 *
 * @param atPicos when, more than 0 and less than the run's duration
 * @param element the element's name
 * @param type the new type, or null for the element's own
 * @param version the bundle version, or null for the newest
 * @param text the request as given
 */
record SwapRequest(long atPicos, String element, String type, String version, String text) {

    /**
     * @param text {@code AT:ELEMENT[=TYPE[@VERSION]]}
     * @param durationPicos the run's duration
     * @param elements the pipeline's element names
     * @param registry the installed types
     * @return the request
     * @throws IllegalArgumentException saying what is wrong and what is allowed
     */
    static SwapRequest parse(String text, long durationPicos, Set<String> elements, Registry registry) {
        int colon = text.indexOf(':');
        if (colon <= 0 || colon == text.length() - 1) {
            throw new IllegalArgumentException("expected AT:ELEMENT[=TYPE[@VERSION]], for example 10s:eth0 or 10s:eth0=stmmac@0.1.0");
        }
        long at;
        try {
            at = Units.parsePicos(text.substring(0, colon).trim());
        } catch (IllegalArgumentException e) {
            throw new IllegalArgumentException("AT: " + e.getMessage());
        }
        if (at <= 0 || at >= durationPicos) {
            throw new IllegalArgumentException("AT=" + Units.formatPicos(at) + " must be more than 0s and less than the run's"
                    + " duration, " + Units.formatPicos(durationPicos));
        }
        String rest = text.substring(colon + 1).trim();
        String element = rest, type = null, version = null;
        int eq = rest.indexOf('=');
        if (eq >= 0) {
            element = rest.substring(0, eq).trim();
            String impl = rest.substring(eq + 1).trim();
            int atSign = impl.indexOf('@');
            type = atSign < 0 ? impl : impl.substring(0, atSign).trim();
            version = atSign < 0 ? null : impl.substring(atSign + 1).trim();
            if (type.isEmpty() || (version != null && version.isEmpty())) {
                throw new IllegalArgumentException("expected TYPE or TYPE@VERSION after '='");
            }
        }
        if (!elements.contains(element)) {
            throw new IllegalArgumentException("no element " + element + Syntax.didYouMean(element, elements) + "; elements: "
                    + String.join(", ", elements));
        }
        if (type != null) {
            if (registry.factory(type) == null) {
                List<String> types = registry.types().stream().map(d -> d.type).toList();
                throw new IllegalArgumentException("unknown element type '" + type + "'" + Syntax.didYouMean(type, types)
                        + "; installed types: "
                        + String.join(", ", types));
            }
            if (version != null && registry.factory(type, version) == null) {
                throw new IllegalArgumentException("type " + type + " has no bundle of version " + version + "; installed: "
                        + String.join(", ", registry.versions(type)));
            }
        }
        return new SwapRequest(at, element, type, version, text);
    }
}
