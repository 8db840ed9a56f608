package io.ringlab.bql;

import io.ringlab.queue.api.QueueLimits;

/**
 * Dynamic Queue Limits, a line-for-line port of the kernel's {@code struct dql} and its operations
 * ({@code include/linux/dynamic_queue_limits.h}: {@code struct dql}, {@code dql_queued}, {@code dql_avail};
 * {@code lib/dynamic_queue_limits.c}: {@code dql_completed}, {@code dql_reset}, {@code dql_init}).
 * <p>
 * <b>Arithmetic.</b> Every counter is a free-running 32-bit {@code unsigned int} in the kernel and a Java {@code int} here,
 * so both wrap modulo 2<sup>32</sup> the same way. {@code POSDIFF} and {@code AFTER_EQ} test the <em>signed</em>
 * difference, exactly as the kernel's macros cast to {@code int}; every other comparison of {@code dql_completed}
 * ({@code max} of the two slacks, {@code slack < lowest_slack} with {@code lowest_slack} starting at {@code UINT_MAX}, and
 * the {@code clamp} to {@code [min_limit, max_limit]}) is <em>unsigned</em> in C and uses {@link Integer#compareUnsigned}
 * here. A signed comparison would read {@code UINT_MAX} as -1 and the limit would never decrease.
 * <p>
 * <b>Time.</b> Only jiffies enter the algorithm ({@code slack_start_time}, {@code slack_hold_time}). Jiffies are derived
 * from virtual time as {@code floor(nowPicos * HZ / 10^12)}, computed exactly for every HZ (300 included); they count
 * from 0 at virtual time 0 in a 64-bit {@code long}, as the kernel's 64-bit {@code unsigned long jiffies}, so they never
 * wrap in a run ({@code INITIAL_JIFFIES}, the kernel's five-minutes-before-wrap start, matters only to 32-bit jiffies and is
 * not modelled). {@code time_after} keeps the kernel's strict, wrap-aware form {@code (long) (b - a) < 0}.
 * <p>
 * <b>Configuration.</b> HZ (100 to 1000, the range of {@code kernel/Kconfig.hz}); {@code slack_hold_time} in jiffies
 * ({@code netdev_init_one_queue} passes HZ, one second); {@code min_limit} and {@code max_limit} in bytes (sysfs
 * {@code limit_min}/{@code limit_max}; {@code dql_init} sets 0 and {@link #DQL_MAX_LIMIT}); the {@code dql_reset} variant:
 * limit 0 (2014 code) or {@code min_limit} (current kernels). The constructor does what the kernel does for a new queue:
 * {@code dql_init} (which resets with {@code min_limit = 0}, so the first limit is 0 and {@code adj_limit} is 0 from zeroed
 * memory) and then applies the configured bounds as the sysfs knobs would, which does not touch {@code limit}; the first
 * {@code dql_completed} clamps it.
 * <p>
 * <b>Counters</b> (all bytes, unsigned 32-bit, wrapping): {@code num_queued}, {@code num_completed}, {@code adj_limit},
 * {@code limit}, {@code prev_ovlimit}, {@code prev_num_queued}, {@code last_obj_cnt}, {@code prev_last_obj_cnt},
 * {@code lowest_slack}; {@code slack_start_time} in jiffies. {@link #reset} clears all of them except {@code adj_limit},
 * which the kernel does not touch: {@link #available()} returns the old {@code adj_limit} until the next completion.
 * <p>
 * <b>Not modelled:</b> the v6.9 stall detector ({@code stall_thrs}, {@code history[]}, {@code dql_check_stall}), which is
 * diagnostic only and never changes the limit.
 * <p>
 * <b>Errors.</b> {@code dql_queued} with more than {@link #DQL_MAX_OBJECT} bytes is a {@code BUG_ON} in the 2014 code and
 * a {@code WARN_ON_ONCE} plus return in v6.x; {@code dql_completed} of more than is in flight is a {@code BUG_ON}. Both are
 * caller bugs and throw {@link IllegalArgumentException} here; valid calls allocate nothing and throw nothing.
 * <p>
 * Not thread-safe: one TX queue, one engine thread (the kernel relies on the TX lock and NAPI for the same).
 *
 * @see NetdevTxQueue
 */
final class Dql implements QueueLimits {

    /**
     * The largest object {@code dql_queued} accepts, in bytes: {@code DQL_MAX_OBJECT = UINT_MAX / 16} = 268,435,455
     * ({@code include/linux/dynamic_queue_limits.h}).
     */
    static final int DQL_MAX_OBJECT = 268_435_455;

    /**
     * The largest limit, in bytes: {@code DQL_MAX_LIMIT = (UINT_MAX / 2) - DQL_MAX_OBJECT} = 1,879,048,192 (0x70000000)
     * ({@code include/linux/dynamic_queue_limits.h}); {@code dql_init} sets {@code max_limit} to it
     * ({@code lib/dynamic_queue_limits.c}).
     */
    static final int DQL_MAX_LIMIT = 1_879_048_192;

    /**
     * {@code UINT_MAX} (0xFFFFFFFF) as a Java {@code int}: -1. {@code dql_reset} and {@code dql_completed}
     * ({@code lib/dynamic_queue_limits.c}) set {@code lowest_slack} to it; compare it only unsigned.
     */
    static final int UINT_MAX = 0xFFFF_FFFF;

    /** Smallest HZ accepted: 100, the lowest {@code CONFIG_HZ} choice ({@code kernel/Kconfig.hz}). */
    static final int MIN_HZ = 100;

    /** Largest HZ accepted: 1000, the highest {@code CONFIG_HZ} choice ({@code kernel/Kconfig.hz}). */
    static final int MAX_HZ = 1000;

    /** Picoseconds per second, the unit of virtual time. */
    static final long PICOS_PER_SECOND = 1_000_000_000_000L;

    // configuration (struct dql, "Configuration" part)
    private final int hz;
    private final int maxLimit;
    private final int minLimit;
    private final int slackHoldTime;
    private final boolean resetToMinLimit;

    // enqueue side (struct dql, first cache line)
    private int numQueued;
    private int adjLimit;
    private int lastObjCnt;

    // completion side (struct dql, second cache line)
    private int limit;
    private int numCompleted;
    private int prevOvlimit;
    private int prevNumQueued;
    private int prevLastObjCnt;
    private int lowestSlack;
    private long slackStartTime;

    /**
     * Creates the state of a new TX queue at virtual time 0: {@code dql_init(dql, slackHoldTimeJiffies)}, then the bounds.
     *
     * @param hz the kernel's HZ, 100 to 1000 ({@code CONFIG_HZ} offers 100, 250, 300 and 1000)
     * @param slackHoldTimeJiffies {@code slack_hold_time} in jiffies, 0 to {@link Integer#MAX_VALUE}
     * @param minLimitBytes {@code min_limit} in bytes, 0 to {@code maxLimitBytes}
     * @param maxLimitBytes {@code max_limit} in bytes, {@code minLimitBytes} to {@link #DQL_MAX_LIMIT}
     * @param resetToMinLimit {@code true} for current kernels' {@code dql_reset} (limit = {@code min_limit}), {@code false}
     *            for the 2014 code (limit = 0)
     * @throws IllegalArgumentException with a {@code key=value} message when a value is out of range
     */
    Dql(int hz, int slackHoldTimeJiffies, int minLimitBytes, int maxLimitBytes, boolean resetToMinLimit) {
        checkArguments(hz, slackHoldTimeJiffies, minLimitBytes, maxLimitBytes);
        this.hz = hz;
        this.slackHoldTime = slackHoldTimeJiffies;
        this.minLimit = minLimitBytes;
        this.maxLimit = maxLimitBytes;
        this.resetToMinLimit = resetToMinLimit;
        // dql_init: min_limit is 0 while dql_reset runs, so the first limit is 0 in every kernel version; adj_limit stays 0
        // (zeroed memory). The configured bounds apply afterwards, as a write to limit_min/limit_max would.
        resetState(0L, 0);
    }

    /**
     * Validates the constructor's arguments without creating state.
     *
     * @param hz the kernel's HZ
     * @param slackHoldTimeJiffies the hold time in jiffies
     * @param minLimitBytes {@code min_limit} in bytes
     * @param maxLimitBytes {@code max_limit} in bytes
     * @throws IllegalArgumentException with a {@code key=value} message naming the allowed range
     */
    static void checkArguments(int hz, int slackHoldTimeJiffies, int minLimitBytes, int maxLimitBytes) {
        if (hz < MIN_HZ || hz > MAX_HZ) {
            throw new IllegalArgumentException("hz=" + hz + ", allowed " + MIN_HZ + " to " + MAX_HZ);
        }
        if (slackHoldTimeJiffies < 0) {
            throw new IllegalArgumentException(
                    "holdTimeJiffies=" + slackHoldTimeJiffies + ", allowed 0 to " + Integer.MAX_VALUE);
        }
        if (maxLimitBytes < 0 || maxLimitBytes > DQL_MAX_LIMIT) {
            throw new IllegalArgumentException(
                    "maxLimitBytes=" + maxLimitBytes + ", allowed 0 to " + DQL_MAX_LIMIT + " (DQL_MAX_LIMIT)");
        }
        if (minLimitBytes < 0 || minLimitBytes > maxLimitBytes) {
            throw new IllegalArgumentException(
                    "minLimitBytes=" + minLimitBytes + ", allowed 0 to maxLimitBytes=" + maxLimitBytes);
        }
    }

    /**
     * {@code dql_queued}: records {@code bytes} posted to the device.
     *
     * @throws IllegalArgumentException if {@code bytes}, read unsigned, exceeds {@link #DQL_MAX_OBJECT} (the kernel's
     *             {@code BUG_ON}/{@code WARN_ON_ONCE}); the state is left unchanged
     */
    @Override
    public void queued(int bytes, long nowPicos) {
        if (Integer.compareUnsigned(bytes, DQL_MAX_OBJECT) > 0) {
            throw new IllegalArgumentException("bytes=" + Integer.toUnsignedString(bytes) + ", allowed 0 to "
                    + DQL_MAX_OBJECT + " (DQL_MAX_OBJECT)");
        }
        lastObjCnt = bytes;
        numQueued += bytes;
    }

    /** {@code dql_avail}: {@code (int) (adj_limit - num_queued)}; negative means over the limit. */
    @Override
    public int available() {
        return adjLimit - numQueued;
    }

    /**
     * {@code dql_completed}: records {@code bytes} completed by the device at {@code nowPicos} and adapts the limit.
     *
     * @throws IllegalArgumentException if {@code bytes}, read unsigned, exceeds the bytes in flight (the kernel's
     *             {@code BUG_ON}); the state is left unchanged
     */
    @Override
    public void completed(int bytes, long nowPicos) {
        final int nq = numQueued;
        if (Integer.compareUnsigned(bytes, nq - numCompleted) > 0) {
            throw new IllegalArgumentException("bytes=" + Integer.toUnsignedString(bytes) + ", allowed 0 to inflight="
                    + Integer.toUnsignedString(nq - numCompleted));
        }
        final int completed = numCompleted + bytes;
        int newLimit = limit;
        int ovlimit = posdiff(nq - numCompleted, newLimit);
        final int inprogress = nq - completed;
        final int prevInprogress = prevNumQueued - numCompleted;
        final boolean allPrevCompleted = afterEq(completed, prevNumQueued);

        if ((ovlimit != 0 && inprogress == 0) || (prevOvlimit != 0 && allPrevCompleted)) {
            // Starved: over the limit and drained, or over the limit before and everything queued then is done. Grow by
            // what was both queued and completed since the previous completion, plus the previous over-limit.
            newLimit += posdiff(completed, prevNumQueued) + prevOvlimit;
            slackStartTime = jiffies(nowPicos);
            lowestSlack = UINT_MAX;
        } else if (inprogress != 0 && prevInprogress != 0 && !allPrevCompleted) {
            // Busy for the whole interval: remember the lowest slack; shrink by it once the hold time has passed.
            int slack = posdiff(newLimit + prevOvlimit, 2 * (completed - numCompleted));
            int slackLastObjs = prevOvlimit != 0 ? posdiff(prevLastObjCnt, prevOvlimit) : 0;
            slack = maxUnsigned(slack, slackLastObjs);
            if (Integer.compareUnsigned(slack, lowestSlack) < 0) {
                lowestSlack = slack;
            }
            long now = jiffies(nowPicos);
            if (timeAfter(now, slackStartTime + Integer.toUnsignedLong(slackHoldTime))) {
                newLimit = posdiff(newLimit, lowestSlack);
                slackStartTime = now;
                lowestSlack = UINT_MAX;
            }
        }

        newLimit = clampUnsigned(newLimit, minLimit, maxLimit);
        if (newLimit != limit) {
            limit = newLimit;
            ovlimit = 0;
        }
        adjLimit = newLimit + completed;
        prevOvlimit = ovlimit;
        prevLastObjCnt = lastObjCnt;
        numCompleted = completed;
        prevNumQueued = nq;
    }

    /**
     * {@code dql_reset}: clears the dynamic state; the limit becomes {@code min_limit} (current kernels) or 0 (2014),
     * as configured. {@code adj_limit} is kept, as in the kernel.
     */
    @Override
    public void reset(long nowPicos) {
        resetState(jiffies(nowPicos), resetToMinLimit ? minLimit : 0);
    }

    private void resetState(long nowJiffies, int newLimit) {
        limit = newLimit;
        numQueued = 0;
        numCompleted = 0;
        lastObjCnt = 0;
        prevNumQueued = 0;
        prevLastObjCnt = 0;
        prevOvlimit = 0;
        lowestSlack = UINT_MAX;
        slackStartTime = nowJiffies;
    }

    @Override
    public int limit() {
        return limit;
    }

    @Override
    public int inflight() {
        return numQueued - numCompleted;
    }

    @Override
    public int minLimit() {
        return minLimit;
    }

    @Override
    public int maxLimit() {
        return maxLimit;
    }

    /**
     * {@code jiffies_to_msecs(slack_hold_time)} ({@code kernel/time/time.c}): {@code (MSEC_PER_SEC / HZ) * j} when HZ
     * divides 1000, else {@code j * HZ_TO_MSEC_NUM / HZ_TO_MSEC_DEN}, which truncates as {@code j * 1000 / HZ} does.
     */
    @Override
    public int holdTimeMillis() {
        return 1000 % hz == 0 ? (1000 / hz) * slackHoldTime : (int) ((long) slackHoldTime * 1000 / hz);
    }

    /** @return {@code num_queued}: bytes ever queued, modulo 2<sup>32</sup> (read unsigned). */
    int numQueued() {
        return numQueued;
    }

    /** @return {@code num_completed}: bytes ever completed, modulo 2<sup>32</sup> (read unsigned). */
    int numCompleted() {
        return numCompleted;
    }

    /** @return {@code adj_limit}: {@code limit + num_completed} at the last completion, modulo 2<sup>32</sup>. */
    int adjLimit() {
        return adjLimit;
    }

    /** @return {@code prev_ovlimit}: bytes above the limit at the last completion, 0 if the limit changed then. */
    int prevOvlimit() {
        return prevOvlimit;
    }

    /** @return {@code prev_num_queued}: {@code num_queued} at the last completion. */
    int prevNumQueued() {
        return prevNumQueued;
    }

    /** @return {@code last_obj_cnt}: bytes of the last {@code dql_queued}. */
    int lastObjCnt() {
        return lastObjCnt;
    }

    /** @return {@code prev_last_obj_cnt}: {@code last_obj_cnt} at the last completion. */
    int prevLastObjCnt() {
        return prevLastObjCnt;
    }

    /** @return {@code lowest_slack} in bytes, read unsigned; {@link #UINT_MAX} (-1) when no slack was seen since the reset. */
    int lowestSlack() {
        return lowestSlack;
    }

    /** @return {@code slack_start_time} in jiffies. */
    long slackStartTime() {
        return slackStartTime;
    }

    /** @return {@code slack_hold_time} in jiffies. */
    int slackHoldTime() {
        return slackHoldTime;
    }

    /** @return the configured HZ. */
    int hz() {
        return hz;
    }

    /** @return {@code true} if {@link #reset} sets the limit to {@code min_limit}, {@code false} if to 0. */
    boolean resetToMinLimit() {
        return resetToMinLimit;
    }

    /**
     * @param nowPicos virtual time in picoseconds, at least 0
     * @return the jiffies at that time: {@code nowPicos * HZ / 10^12}, rounded down
     */
    long jiffies(long nowPicos) {
        // split so that the product cannot overflow: (nowPicos % 10^12) * HZ < 10^15
        return (nowPicos / PICOS_PER_SECOND) * hz + (nowPicos % PICOS_PER_SECOND) * hz / PICOS_PER_SECOND;
    }

    /** {@code POSDIFF(A, B)} ({@code lib/dynamic_queue_limits.c}): {@code A - B} if its signed value is positive, else 0. */
    static int posdiff(int a, int b) {
        int d = a - b;
        return d > 0 ? d : 0;
    }

    /** {@code AFTER_EQ(A, B)} ({@code lib/dynamic_queue_limits.c}): {@code (int) (A - B) >= 0}. */
    static boolean afterEq(int a, int b) {
        return a - b >= 0;
    }

    /** {@code time_after(a, b)} ({@code include/linux/jiffies.h}): {@code (long) (b - a) < 0}, strict and wrap-aware. */
    static boolean timeAfter(long a, long b) {
        return b - a < 0;
    }

    /** {@code max(a, b)} on {@code unsigned int} ({@code include/linux/minmax.h}, {@code kernel.h} in 2014). */
    static int maxUnsigned(int a, int b) {
        return Integer.compareUnsigned(a, b) >= 0 ? a : b;
    }

    /**
     * {@code clamp(val, lo, hi)} on {@code unsigned int} ({@code include/linux/minmax.h}): {@code min(max(val, lo), hi)}.
     */
    static int clampUnsigned(int val, int lo, int hi) {
        int v = Integer.compareUnsigned(val, lo) < 0 ? lo : val;
        return Integer.compareUnsigned(v, hi) > 0 ? hi : v;
    }

    @Override
    public String toString() {
        return "Dql[limit=" + Integer.toUnsignedString(limit) + ", inflight=" + Integer.toUnsignedString(inflight())
                + ", avail=" + available() + ", numQueued=" + Integer.toUnsignedString(numQueued) + ", numCompleted="
                + Integer.toUnsignedString(numCompleted) + ", adjLimit=" + Integer.toUnsignedString(adjLimit) + "]";
    }
}
