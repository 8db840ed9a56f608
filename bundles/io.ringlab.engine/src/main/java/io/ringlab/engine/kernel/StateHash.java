package io.ringlab.engine.kernel;

/**
 * A 64-bit hash of a run's state at a safe point, to show that two runs are in the same state (the two branches of a
 * forked A/B experiment at their fork). Each value is folded in with SplitMix64's finaliser, so the order matters and
 * a single differing bit changes the result. Not cryptographic.
 */
final class StateHash {
    private long h = 0x243F6A8885A308D3L;

    StateHash add(long v) {
        long z = h ^ v;
        z += 0x9E3779B97F4A7C15L;
        z = (z ^ (z >>> 30)) * 0xBF58476D1CE4E5B9L;
        z = (z ^ (z >>> 27)) * 0x94D049BB133111EBL;
        h = z ^ (z >>> 31);
        return this;
    }

    StateHash add(double v) {
        return add(Double.doubleToLongBits(v));
    }

    StateHash add(String s) {
        add(s.length());
        for (int i = 0; i < s.length(); i++) {
            add(s.charAt(i));
        }
        return this;
    }

    /** @return the hash as 16 hex digits */
    String hex() {
        return String.format("%016x", h);
    }
}
