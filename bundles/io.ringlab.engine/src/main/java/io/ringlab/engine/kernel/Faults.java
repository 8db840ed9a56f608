package io.ringlab.engine.kernel;

import java.util.HashMap;
import java.util.Map;

/**
 * Attributes an exception thrown during a run to the element whose code threw it, by matching the stack trace against the
 * elements' classes, so that the failure report names the element, its type and its bundle. Costs nothing until
 * something throws.
 */
final class Faults {
    private Faults() {
    }

    /** @return the index of the innermost element class on the stack, or -1. */
    static int culprit(Simulation sim, Throwable t) {
        Map<String, Integer> classes = new HashMap<>();
        for (int i = 0; i < sim.elements.length; i++) {
            if (sim.elements[i] != null) {
                classes.putIfAbsent(sim.elements[i].getClass().getName(), i);
            }
        }
        for (StackTraceElement f : t.getStackTrace()) {
            String c = f.getClassName();
            int dollar = c.indexOf('$');
            Integer i = classes.get(dollar < 0 ? c : c.substring(0, dollar));
            if (i != null) {
                return i;
            }
        }
        return -1;
    }

    /** @return the exception and its innermost frame, in one line. */
    static String describe(Throwable t) {
        StackTraceElement[] st = t.getStackTrace();
        String at = st.length == 0 ? "" : " at " + st[0];
        return "threw " + t + at;
    }
}
