package io.ringlab.engine.kernel;

import java.util.HashMap;
import java.util.Map;

/**
 * The run's simulated address space, which the cache model sees: data reservations ({@code PoolContext.memory}: rings,
 * slabs, per-CPU caches) from 4 GB in whole 4 KiB pages, buffer data areas packed at 64-byte alignment from 64 GB, and
 * the code of named functions ({@code ElementContext.code}) from 16 TB, 16-byte aligned as x86-64 kernels build them,
 * one address per function whoever asks. Addresses are handed out in the order asked, so the same pipeline and seed
 * give the same map. Engine thread only.
 */
final class MemoryMap {
    private long nextMemory = 1L << 32, nextData = 1L << 36, nextCode = 1L << 44;
    /** A function's address and size, by name. */
    private final Map<String, long[]> functions = new HashMap<>();

    /** What {@link #rewind} goes back to: the next address of each region. */
    record Mark(long memory, long data, long code) {
    }

    Mark mark() {
        return new Mark(nextMemory, nextData, nextCode);
    }

    /** Forgets the addresses handed out since {@code m} (a hot swap whose staging failed). */
    void rewind(Mark m) {
        nextMemory = m.memory;
        nextData = m.data;
        nextCode = m.code;
        functions.values().removeIf(f -> f[0] >= m.code);
    }

    /** @return the address of a new buffer's data area of {@code bytes} */
    long data(int bytes) {
        long a = nextData;
        nextData += (Math.max(1, bytes) + 63) & ~63L;
        return a;
    }

    /** @return the address of a reservation of {@code bytes}, a whole number of 4 KiB pages */
    long memory(long bytes) {
        if (bytes < 1) {
            throw new IllegalArgumentException("memory: bytes=" + bytes + ", must be at least 1");
        }
        long a = nextMemory;
        nextMemory += (bytes + 4095) & ~4095L;
        return a;
    }

    /** @return the address of {@code function}'s code, the same for every caller; its size must not change */
    long code(String function, int bytes) {
        if (bytes < 1) {
            throw new IllegalArgumentException("code " + function + ": bytes=" + bytes + ", must be at least 1");
        }
        long[] f = functions.get(function);
        if (f != null) {
            if (f[1] != bytes) {
                throw new IllegalArgumentException("code " + function + ": registered with " + f[1] + " bytes, now "
                        + bytes + "; one function has one size");
            }
            return f[0];
        }
        long a = nextCode;
        nextCode += (bytes + 15) & ~15L; // functions aligned to 16 bytes, as x86-64 kernels build them
        functions.put(function, new long[] {a, bytes});
        return a;
    }
}
