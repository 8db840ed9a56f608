package io.ringlab.pool.hwbm;

import io.ringlab.buffer.api.Buffer;
import io.ringlab.buffer.api.LiveValues;
import io.ringlab.buffer.api.BufferVisitor;
import io.ringlab.buffer.api.HardwareBufferPool;
import io.ringlab.buffer.api.PoolContext;
import io.ringlab.buffer.api.dto.PoolStatsDTO;

/**
 * Pool kind {@code "hwbm"}: one pool of a hardware buffer manager, with the kernel's hwbm semantics
 * ({@code net/core/hwbm.c}, 2016) and the device side of Marvell's BM ({@code mvneta_bm.c}).
 * <p>
 * <b>Memory.</b> {@code size + spare} buffer records of {@code bufferBytes} data; a record not given to the device nor
 * held is free (LIFO). {@code frag_size} = {@code SKB_DATA_ALIGN(bufferBytes + headroom) + SKB_DATA_ALIGN(shinfo)}; at
 * most a page it is a page fragment ({@code netdev_alloc_frag}: {@link PageFragCache}, which places the buffer in a
 * shared 32 KB page and reuses a page whose fragments have all come back), else a {@code kmalloc} block of its own
 * ({@code hwbm.kmallocCycles}, {@code hwbm.kfreeCycles}).
 * <p>
 * <b>The hwbm API.</b> {@link #refill} = {@code hwbm_pool_refill}: one buffer from memory, then the pool's construct step ({@code mvneta_bm_construct}: write the cookie into the buffer's first bytes, DMA map
 * {@code dma.mapCycles}, hand it to the device with one MMIO write {@code hwbm.putBpCycles}); {@code buf_num}
 * unchanged. {@link #add} = {@code hwbm_pool_add} with its three refusals (each a counter and a run warning, never a
 * silent zero). {@link #close} = {@code mvneta_bm_bufs_free}: the buffers still in the device are read back, unmapped and
 * freed, and {@code buf_num} falls by their number.
 * <p>
 * <b>The device.</b> Its buffer pointers form a ring (the BPPE; FIFO: buffers come back in the order they were put).
 * {@link #alloc} is the device taking the oldest for a received frame; with none it cannot receive the frame
 * ({@code null}, counted in {@code deviceEmpty}; the driver drops and counts the frame). {@link #free} of a buffer the device
 * handed out returns it ({@code put_bp}); of a detached one, frees its memory ({@code skb_free_frag} or {@code kfree}).
 * <p>
 * Costs come from the run's profile ({@code hwbm.*}, 0 when absent: a driver's profile sets them with their sources).
 * Allocation-free after construction. Not thread-safe.
 */
final class HwbmPool implements HardwareBufferPool {
    static final String KIND = "hwbm";
    /** {@code PAGE_SIZE}: the limit between page fragments and kmalloc in {@code hwbm_pool_refill}. */
    static final int PAGE_SIZE = 4096;

    private static final byte MEMORY = 0, DEVICE = 1, HANDED_OUT = 2, DETACHED = 3;

    private final String name;
    private final PoolContext context;
    private final int size;
    private final int fragSize;
    private final Buffer[] records;
    private final int firstId;
    private final byte[] state;
    // the device's ring of buffer pointers
    private final int[] ring;
    private int ringHead, ringCount;
    // free memory, LIFO
    private final int[] memory;
    private int memoryCount;
    private int bufNum;
    private int inUse;
    private final long[] touches, misses;
    private final PageFragCache frags;
    private final long putBpCycles, dmaMapCycles, kmallocCycles, kfreeCycles;
    private long allocs, frees, deviceEmpty, doubleFrees, highWater;
    private long refills, refillFailures, putBps, dmaMaps, fragAllocs, fragFrees, detaches, returns;
    private long addCalls, addedBuffers, refusedFull, refusedTooMany, refusedOverflow, teardownFreed;

    HwbmPool(PoolContext context, String name, int size, int spare, int bufferBytes, int fragSize, int fragPages,
            int fragPageBytes) {
        this.name = name;
        this.context = context;
        this.size = size;
        this.fragSize = fragSize;
        int n = size + spare;
        this.records = Pools.records(context, this, name, n, bufferBytes);
        this.firstId = records[0].id();
        this.frags = fragSize <= PAGE_SIZE ? PageFragCache.of(context, fragPageBytes, fragPages) : null;
        this.state = new byte[n];
        this.touches = new long[context.cores()];
        this.misses = new long[context.cores()];
        this.ring = new int[size];
        this.memory = new int[n];
        for (int i = n - 1; i >= 0; i--) {
            memory[memoryCount++] = i; // record 0 on top
        }
        this.putBpCycles = Pools.cycles(context, "hwbm.putBpCycles");
        this.dmaMapCycles = Pools.cycles(context, "dma.mapCycles");
        this.kmallocCycles = Pools.cycles(context, "hwbm.kmallocCycles");
        this.kfreeCycles = Pools.cycles(context, "hwbm.kfreeCycles");
    }

    @Override public String name() { return name; }
    @Override public String kind() { return KIND; }
    /** @return the buffer records: {@code size} plus {@code spare} for buffers the stack holds */
    @Override public int capacity() { return records.length; }
    @Override public int available() { return ringCount; }
    @Override public int inUse() { return inUse; }
    @Override public int size() { return size; }
    @Override public int bufNum() { return bufNum; }
    @Override public int fragSize() { return fragSize; }

    @Override
    public int add(int core, int count) {
        addCalls++;
        if (bufNum == size) {
            refusedFull++;
            context.warn("hwbm pool " + name + ": hwbm_pool_add: pool already filled (" + size + " buffers)");
            return bufNum;
        }
        // hwbm_pool_add takes an unsigned count and compares unsigned sums, as here
        long sum = (Integer.toUnsignedLong(count) + bufNum) & 0xFFFF_FFFFL;
        if (sum > size) {
            refusedTooMany++;
            context.warn("hwbm pool " + name + ": hwbm_pool_add: cannot allocate " + Integer.toUnsignedString(count)
                    + " buffers, " + bufNum
                    + " of " + size + " in the pool");
            return 0;
        }
        if (sum < bufNum) { // the wrap guard: only a count that wraps the 32-bit sum gets past the test above
            refusedOverflow++;
            context.warn("hwbm pool " + name + ": hwbm_pool_add: adding " + Integer.toUnsignedString(count)
                    + " buffers to the " + bufNum
                    + " current buffers will overflow");
            return 0;
        }
        int i = 0;
        while (Integer.compareUnsigned(i, count) < 0 && refill(core)) {
            i++;
        }
        bufNum += i;
        addedBuffers += i;
        return i;
    }

    @Override
    public boolean refill(int core) {
        refills++;
        if (memoryCount == 0 || ringCount == size) {
            refillFailures++; // -ENOMEM: no memory for a buffer (or, in the model, no free slot in the device's ring)
            return false;
        }
        int i = memory[memoryCount - 1];
        if (frags != null) { // netdev_alloc_frag
            long a = frags.alloc(core, -1, fragSize);
            if (a < 0) {
                refillFailures++;
                return false;
            }
            context.place(records[i], a);
        } else { // kmalloc
            context.charge(core, -1, kmallocCycles);
        }
        memoryCount--;
        fragAllocs++;
        // mvneta_bm_construct: the cookie into the buffer's first bytes, dma_map_single, then put_bp
        touches[core]++;
        misses[core] += context.touch(core, -1, records[i].address(), 4, false);
        dmaMaps++;
        context.charge(core, -1, dmaMapCycles);
        put(core, i);
        return true;
    }

    /** {@code mvneta_bm_pool_put_bp}: one MMIO write hands buffer {@code i} to the device. */
    private void put(int core, int i) {
        if (ringCount == size) { // a driver that refills for a buffer must keep it (mvneta_rx_hwbm), never put_bp it back
            throw new IllegalStateException("hwbm pool " + name + ": put_bp into a full ring of " + size
                    + " buffers: a buffer was returned after a refill had replaced it");
        }
        putBps++;
        context.charge(core, -1, putBpCycles);
        state[i] = DEVICE;
        int slot = ringHead + ringCount;
        ring[slot >= size ? slot - size : slot] = i;
        ringCount++;
    }

    /** The device takes the oldest buffer of its ring for a received frame. */
    @Override
    public Buffer alloc(int core, int owner) {
        if (ringCount == 0) {
            deviceEmpty++;
            return null;
        }
        int i = ring[ringHead];
        if (++ringHead == size) {
            ringHead = 0;
        }
        ringCount--;
        state[i] = HANDED_OUT;
        Buffer b = records[i];
        context.onAlloc(b, owner);
        allocs++;
        if (++inUse > highWater) {
            highWater = inUse;
        }
        return b;
    }

    @Override
    public void detach(Buffer buffer) {
        int i = buffer.id() - firstId;
        if (buffer.pool() != this || state[i] != HANDED_OUT) {
            throw new IllegalStateException("pool " + name + ": detach of a buffer the device did not hand out (buffer "
                    + buffer.id() + ")");
        }
        state[i] = DETACHED;
        detaches++;
    }

    @Override
    public void free(int core, Buffer buffer) {
        int element = buffer.owner();
        if (buffer.pool() != this || !context.onFree(buffer)) {
            doubleFrees++;
            return;
        }
        int i = buffer.id() - firstId;
        frees++;
        inUse--;
        if (state[i] == HANDED_OUT) {
            returns++;
            put(core, i); // back to the device: put_bp
        } else {
            fragFrees++; // skb_free_frag (or kfree): its memory goes back
            if (frags != null) {
                frags.free(core, element, buffer.address());
            } else {
                context.charge(core, element, kfreeCycles);
            }
            state[i] = MEMORY;
            memory[memoryCount++] = i;
        }
    }

    /** {@code mvneta_bm_bufs_free}: the buffers the device still holds come back and are freed; {@code buf_num} falls. */
    @Override
    public void close() {
        while (ringCount > 0) {
            int i = ring[ringHead];
            if (++ringHead == size) {
                ringHead = 0;
            }
            ringCount--;
            state[i] = MEMORY;
            memory[memoryCount++] = i;
            if (frags != null) {
                frags.free(0, -1, records[i].address());
            }
            teardownFreed++;
        }
        // mvneta_bm_bufs_free reads buf_num pointers back, skipping empty reads, and subtracts them all: buf_num ends at 0
        // even when the driver still holds buffers (their memory goes when the driver frees them)
        bufNum = 0;
    }

    @Override
    public void forEachInUse(BufferVisitor visitor) {
        for (Buffer b : records) {
            if (b.allocated()) {
                visitor.visit(b);
            }
        }
    }

    @Override
    public void liveValues(LiveValues values) {
        values.add("deviceEmpty", () -> deviceEmpty);
        values.add("refillFailures", () -> refillFailures);
        values.add("putBp", () -> putBps);
    }

    /** {@inheritDoc} {@code deviceEmpty} counts them. */
    @Override
    public void countAllocFailures(int missing) {
        deviceEmpty += missing;
    }

    @Override
    public PoolStatsDTO stats() {
        PoolStatsDTO s = new PoolStatsDTO();
        s.name = name;
        s.kind = KIND;
        s.capacity = records.length;
        s.available = ringCount;
        s.inUse = inUse;
        s.highWaterMark = highWater;
        s.allocs = allocs;
        s.frees = frees;
        s.allocFailures = deviceEmpty;
        s.doubleFrees = doubleFrees;
        s.cacheMisses = misses.clone();
        s.cacheHits = new long[touches.length];
        for (int c = 0; c < touches.length; c++) {
            s.cacheHits[c] = touches[c] - misses[c]; // the construct step's write of the cookie
        }
        s.gauges.put("size", (long) size);
        s.gauges.put("bufNum", (long) bufNum);
        s.gauges.put("fragSize", (long) fragSize);
        s.gauges.put("inDevice", (long) ringCount);
        s.gauges.put("freeMemory", (long) memoryCount);
        s.counters.put("deviceEmpty", deviceEmpty);
        s.counters.put("refills", refills);
        s.counters.put("refillFailures", refillFailures);
        s.counters.put("putBp", putBps);
        s.counters.put("dmaMaps", dmaMaps);
        s.counters.put("memoryAllocs", fragAllocs);
        s.counters.put("memoryFrees", fragFrees);
        s.counters.put("detaches", detaches);
        s.counters.put("returnsToDevice", returns);
        s.counters.put("addCalls", addCalls);
        s.counters.put("addedBuffers", addedBuffers);
        s.counters.put("addRefusedFull", refusedFull);
        s.counters.put("addRefusedTooMany", refusedTooMany);
        s.counters.put("addRefusedOverflow", refusedOverflow);
        s.counters.put("teardownFreed", teardownFreed);
        if (frags != null) {
            frags.counters(s.counters, s.gauges);
        }
        return s;
    }
}
