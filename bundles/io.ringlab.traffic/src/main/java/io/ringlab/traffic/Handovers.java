package io.ringlab.traffic;

import java.lang.reflect.Array;

import io.ringlab.sim.api.ElementState;

/**
 * Helpers for the traffic elements' hot swap ({@link io.ringlab.sim.api.Handover}): a model's own arrays go over by copy
 * (the exporter writes clones, the importer copies them into its own), so that an old instance that goes on (a swap that
 * failed) and its successor never share one.
 * <p>
 * Stateless.
 */
final class Handovers {
    private Handovers() {
    }

    /**
     * Copies the array written under {@code key} into {@code into}, whose length it must have.
     *
     * @param in the predecessor's state
     * @param key the array's name
     * @param into this instance's array of the same type and length
     * @throws IllegalArgumentException if the predecessor wrote no such array, or one of another type or length
     */
    static void read(ElementState in, String key, Object into) {
        Object from = in.get(key, into.getClass());
        if (from == null || Array.getLength(from) != Array.getLength(into)) {
            throw new IllegalArgumentException("ElementState from " + in.from() + ": key=" + key + " holds "
                    + (from == null ? "nothing" : Array.getLength(from) + " values") + ", expected " + Array.getLength(into));
        }
        System.arraycopy(from, 0, into, 0, Array.getLength(into));
    }

    /**
     * Like {@link #read}, for state a version may not have handed over (a key added later): absent, {@code into} keeps
     * its zeros, and the counters it holds count from the swap.
     */
    static void readIfPresent(ElementState in, String key, Object into) {
        if (in.get(key, into.getClass()) != null) {
            read(in, key, into);
        }
    }
}
