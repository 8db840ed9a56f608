package io.ringlab.engine.kernel;

/**
 * Attributes an exception thrown during a run to the element whose code threw it, by matching the stack trace against the
 * elements' classes, so that the failure report names the element, its type and its bundle. Costs nothing until
 * something throws.
 */
final class Faults {
    private Faults() {
    }

    /**
     * @return the index of the element whose code is innermost on the stack (its class, a lambda in it, or a class nested
     *         in it; helpers it calls are skipped until the element's own frame), or -1
     */
    static int culprit(Simulation sim, Throwable t) {
        if (sim.faultHint >= 0) {
            return sim.faultHint; // recorded by the port call that went into the failing element
        }
        // the owner of the event that failed, if its class is on the stack (two elements may share a class)
        int current = sim.current;
        if (current >= 0 && current < sim.elements.length && sim.elements[current] != null) {
            String e = sim.elements[current].getClass().getName();
            for (StackTraceElement f : t.getStackTrace()) {
                String c = f.getClassName();
                if (c.equals(e) || c.startsWith(e + "$")) {
                    return current;
                }
            }
        }
        for (StackTraceElement f : t.getStackTrace()) {
            String c = f.getClassName();
            for (int i = 0; i < sim.elements.length; i++) {
                if (sim.elements[i] == null) {
                    continue;
                }
                String e = sim.elements[i].getClass().getName();
                if (c.equals(e) || c.startsWith(e + "$")) {
                    return i;
                }
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
