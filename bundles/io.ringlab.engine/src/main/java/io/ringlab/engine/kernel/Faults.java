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
     *         in it; helpers it calls are skipped until the element's own frame; of elements sharing a class, the owner of
     *         the event), or -1
     */
    static int culprit(Simulation sim, Throwable t) {
        if (sim.faultHint >= 0) {
            return sim.faultHint; // recorded by the port call that went into the failing element
        }
        return culprit(sim, t.getStackTrace(), sim.current);
    }

    /**
     * @param frames a stack, innermost first (a throwable's, or a stuck thread's)
     * @param current the owner of the event being processed, or -1
     * @return the index of the element whose code is innermost on the stack, or -1
     */
    static int culprit(Simulation sim, StackTraceElement[] frames, int current) {
        for (StackTraceElement f : frames) { // innermost first
            String c = f.getClassName();
            int found = -1;
            for (int i = 0; i < sim.elements.length; i++) {
                if (sim.elements[i] == null) {
                    continue;
                }
                String e = sim.elements[i].getClass().getName();
                if (c.equals(e) || c.startsWith(e + "$")) {
                    if (i == current) {
                        return i; // two elements may share a class: the event's owner among them
                    }
                    if (found < 0) {
                        found = i;
                    }
                }
            }
            if (found >= 0) {
                return found;
            }
        }
        return -1;
    }

    /** @return the exception and its innermost frame, in one line. */
    static String describe(Throwable t) {
        StackTraceElement[] st = t.getStackTrace();
        String at = st.length == 0 ? "" : " at " + st[0];
        if (t instanceof OutOfMemoryError) {
            return "ran out of memory (" + t + at + "): the run needs more than the JVM's heap of "
                    + Runtime.getRuntime().maxMemory() / (1 << 20) + " MiB; make the pipeline smaller (fewer elements,"
                    + " smaller pools, a longer --series-interval) or give the JVM more (JAVA_TOOL_OPTIONS=-Xmx16g)";
        }
        if (t instanceof StackOverflowError) {
            return "overflowed the engine thread's stack (" + t + at + "): calls nested too deep within one event";
        }
        return "threw " + t + at;
    }
}
