package io.ringlab.bql;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import org.junit.jupiter.api.Test;

/**
 * Checks {@link Dql} against {@code lib/dynamic_queue_limits.c} on hand-computed traces (kernel-models.md 1.1 to 1.4).
 * Virtual time only: HZ is 1000 unless a test says otherwise, so one jiffy is 10^9 ps.
 */
class DqlTest {

    private static final int FRAME = 1514;
    private static final int M = Dql.DQL_MAX_OBJECT;
    private static final long PICOS_PER_JIFFY_AT_1000_HZ = 1_000_000_000L;

    private static long jiffy(long j) {
        return j * PICOS_PER_JIFFY_AT_1000_HZ;
    }

    private static Dql kernelDefaults() {
        return new Dql(1000, 1000, 0, Dql.DQL_MAX_LIMIT, true);
    }

    /** Queues frames while {@code dql_avail >= 0}, as the stack does until BQL stops the queue; returns the bytes queued. */
    private static int queueUntilStopped(Dql dql, int frame, long nowPicos) {
        int bytes = 0;
        do {
            dql.queued(frame, nowPicos);
            bytes += frame;
        } while (dql.available() >= 0);
        return bytes;
    }

    @Test
    void shouldStartWithZeroLimitAndKernelBounds() {
        Dql dql = kernelDefaults();
        assertEquals(0, dql.limit(), "limit after dql_init");
        assertEquals(0, dql.adjLimit(), "adj_limit from zeroed memory");
        assertEquals(0, dql.available(), "avail");
        assertEquals(0, dql.minLimit(), "min_limit");
        assertEquals(1_879_048_192, dql.maxLimit(), "max_limit = DQL_MAX_LIMIT");
        assertEquals(0xFFFF_FFFFL, Integer.toUnsignedLong(dql.lowestSlack()), "lowest_slack = UINT_MAX");
        assertEquals(0L, dql.slackStartTime(), "slack_start_time = jiffies at init");
        assertEquals(1000, dql.slackHoldTime(), "slack_hold_time");
    }

    @Test
    void shouldFollowWorkedTraceOfOneFrame() {
        Dql dql = kernelDefaults();
        dql.queued(FRAME, 0);
        assertEquals(-1514, dql.available(), "avail after one frame on a fresh queue");
        assertEquals(1514, dql.inflight(), "inflight");

        dql.completed(FRAME, jiffy(1));
        assertEquals(1514, dql.limit(), "limit = 0 + POSDIFF(1514, 0) + 0");
        assertEquals(3028, dql.adjLimit(), "adj_limit = limit + num_completed");
        assertEquals(1514, dql.available(), "avail");
        assertEquals(0, dql.inflight(), "inflight");
        assertEquals(0, dql.prevOvlimit(), "ovlimit is zeroed when the limit changes");
        assertEquals(1514, dql.prevNumQueued(), "prev_num_queued");
        assertEquals(1514, dql.prevLastObjCnt(), "prev_last_obj_cnt");
        assertEquals(1L, dql.slackStartTime(), "starvation restarts the slack window");
        assertEquals(Dql.UINT_MAX, dql.lowestSlack(), "starvation resets lowest_slack");
    }

    @Test
    void shouldRoughlyDoubleLimitPerIntervalWhenDeviceDrainsEverything() {
        Dql dql = kernelDefaults();
        int[] expected = {1514, 4542, 10598, 22710};
        int previous = 0;
        for (int interval = 0; interval < 10; interval++) {
            long now = jiffy(interval + 1);
            int bytes = queueUntilStopped(dql, FRAME, now);
            dql.completed(bytes, now);
            int limit = dql.limit();
            // increase = bytes queued and completed since the previous completion; prev_ovlimit is 0 (the limit changed)
            assertEquals(previous + bytes, limit, "limit after starved interval " + interval);
            if (interval < expected.length) {
                assertEquals(expected[interval], limit, "limit after starved interval " + interval);
            }
            if (previous > 0) {
                double ratio = (double) limit / previous;
                assertTrue(ratio >= 2.0 && ratio <= 3.0, "growth ratio " + ratio + " in interval " + interval);
            }
            assertEquals(limit, dql.available(), "everything completed: avail = limit");
            assertEquals(interval + 1L, dql.slackStartTime(), "slack_start_time restarts at each starvation");
            previous = limit;
        }
    }

    /**
     * Busy intervals with slack: a starvation at jiffy 0 sets limit 100,000 and starts the slack window; the device then
     * completes 10,000 to 20,000 B per event while 100,000 B stay queued. Slack = limit - 2 x completed.
     */
    @Test
    void shouldDecreaseByLowestSlackOnlyAfterHoldTimeStrictlyPassed() {
        Dql dql = new Dql(1000, 10, 0, Dql.DQL_MAX_LIMIT, true);
        dql.queued(100_000, 0);
        dql.completed(100_000, 0);
        assertEquals(100_000, dql.limit(), "starved: limit = bytes completed");
        dql.queued(50_000, 0);
        dql.queued(50_000, 0);
        assertEquals(0, dql.available(), "filled to the limit");

        // first event after the starvation: nothing was in flight at the previous completion, so no slack is taken
        completeAndRefill(dql, 10_000, jiffy(1));
        assertEquals(Dql.UINT_MAX, dql.lowestSlack(), "no busy interval yet");

        completeAndRefill(dql, 20_000, jiffy(2));
        assertEquals(60_000, dql.lowestSlack(), "slack = 100,000 - 2 x 20,000");
        completeAndRefill(dql, 10_000, jiffy(5));
        assertEquals(60_000, dql.lowestSlack(), "80,000 is not lower");
        completeAndRefill(dql, 10_000, jiffy(10));
        assertEquals(100_000, dql.limit(), "jiffy 10 is not after 0 + 10");
        completeAndRefill(dql, 10_000, jiffy(11) - 1);
        assertEquals(100_000, dql.limit(), "one picosecond before jiffy 11 is still jiffy 10");
        assertEquals(0L, dql.slackStartTime(), "window not restarted");

        completeAndRefill(dql, 10_000, jiffy(11));
        assertEquals(40_000, dql.limit(), "limit - lowest slack (60,000), not this event's 80,000");
        assertEquals(11L, dql.slackStartTime(), "window restarts at the decrease");
        assertEquals(Dql.UINT_MAX, dql.lowestSlack(), "lowest_slack reset after the decrease");
        assertEquals(0, dql.prevOvlimit(), "ovlimit zeroed because the limit changed");
        assertEquals(40_000 - 100_000, dql.available(), "avail = new limit - inflight");
    }

    /** Completes {@code bytes} and queues the same amount again, keeping 100,000 B in flight. */
    private static void completeAndRefill(Dql dql, int bytes, long nowPicos) {
        assertEquals(100_000, dql.inflight(), "in flight before the completion");
        dql.completed(bytes, nowPicos);
        dql.queued(bytes, nowPicos);
    }

    @Test
    void shouldCompareLowestSlackUnsignedSoThatTheLimitDecreases() {
        // with a signed comparison lowest_slack would stay UINT_MAX (-1) and POSDIFF(limit, -1) would raise the limit
        Dql dql = new Dql(1000, 1, 0, Dql.DQL_MAX_LIMIT, true);
        dql.queued(100_000, 0);
        dql.completed(100_000, 0);
        dql.queued(100_000, 0);
        dql.completed(10_000, jiffy(1));
        dql.queued(10_000, jiffy(1));
        assertEquals(-1, dql.lowestSlack(), "UINT_MAX is -1 as a Java int");

        dql.completed(20_000, jiffy(1));
        dql.queued(20_000, jiffy(1));
        assertEquals(60_000, dql.lowestSlack(), "60,000 is below UINT_MAX");
        assertEquals(100_000, dql.limit(), "hold time not over");

        dql.completed(10_000, jiffy(2));
        assertEquals(40_000, dql.limit(), "decreased by the lowest slack 60,000");
        assertTrue(dql.limit() < 100_000, "the limit went down");
    }

    @Test
    void shouldClampUnsignedWhenLimitPlusIncreaseExceedsIntMax() {
        Dql dql = kernelDefaults();
        // starve with the largest objects until the limit sits at DQL_MAX_LIMIT
        for (int interval = 0; interval < 5; interval++) {
            int bytes = queueUntilStopped(dql, M, jiffy(interval));
            dql.completed(bytes, jiffy(interval));
        }
        assertEquals(Dql.DQL_MAX_LIMIT, dql.limit(), "limit at max");

        int bytes = queueUntilStopped(dql, M, jiffy(10));
        assertEquals(8 * M, bytes, "eight objects to get over 1,879,048,192");
        dql.completed(bytes, jiffy(10));
        // limit + increase + prev_ovlimit = 1,879,048,192 + 2,147,483,640 + 268,435,448 = 4,294,967,280: -16 as an int, so a
        // signed clamp would give min_limit (0)
        assertEquals(Dql.DQL_MAX_LIMIT, dql.limit(), "unsigned clamp keeps max_limit");
        assertEquals(8 * M - Dql.DQL_MAX_LIMIT, dql.prevOvlimit(), "limit unchanged, so ovlimit is kept");
    }

    @Test
    void shouldClampToMinLimitAfterFirstCompletion() {
        Dql dql = new Dql(1000, 1000, 5000, Dql.DQL_MAX_LIMIT, true);
        assertEquals(0, dql.limit(), "dql_init resets with min_limit 0; the bound applies later");
        dql.queued(FRAME, 0);
        assertEquals(-1514, dql.available(), "a fresh queue stops after one frame even with min_limit");
        dql.completed(FRAME, 0);
        assertEquals(5000, dql.limit(), "clamp(1514, 5000, max)");
        assertEquals(5000, dql.available(), "avail = limit");
    }

    @Test
    void shouldClampToMaxLimitAndKeepOvlimitWhenClampedLimitIsUnchanged() {
        Dql dql = new Dql(1000, 1000, 0, 2000, true);
        dql.queued(FRAME, 0);
        dql.completed(FRAME, 0);
        assertEquals(1514, dql.limit(), "below max");

        int bytes = queueUntilStopped(dql, FRAME, jiffy(1));
        assertEquals(3028, bytes, "two frames");
        dql.completed(bytes, jiffy(1));
        assertEquals(2000, dql.limit(), "1514 + 3028 clamped to 2000");
        assertEquals(0, dql.prevOvlimit(), "limit changed: ovlimit zeroed");

        bytes = queueUntilStopped(dql, FRAME, jiffy(2));
        assertEquals(3028, bytes, "two frames");
        dql.completed(bytes, jiffy(2));
        assertEquals(2000, dql.limit(), "still clamped");
        assertEquals(1028, dql.prevOvlimit(), "limit unchanged: ovlimit = POSDIFF(3028, 2000) kept");
        assertEquals(2000, dql.available(), "avail");
    }

    @Test
    void shouldKeepAdjLimitOnResetAndResetLimitToZeroAs2014() {
        Dql dql = new Dql(1000, 1000, 0, Dql.DQL_MAX_LIMIT, false);
        dql.queued(FRAME, 0);
        dql.completed(FRAME, 0);
        dql.queued(FRAME, 0);
        assertEquals(0, dql.available(), "one frame in flight at limit 1514");

        dql.reset(jiffy(7));
        assertEquals(0, dql.limit(), "2014 dql_reset: limit = 0");
        assertEquals(0, dql.numQueued(), "num_queued");
        assertEquals(0, dql.numCompleted(), "num_completed");
        assertEquals(0, dql.inflight(), "inflight forgotten");
        assertEquals(0, dql.prevOvlimit(), "prev_ovlimit");
        assertEquals(0, dql.prevNumQueued(), "prev_num_queued");
        assertEquals(0, dql.lastObjCnt(), "last_obj_cnt");
        assertEquals(0, dql.prevLastObjCnt(), "prev_last_obj_cnt");
        assertEquals(Dql.UINT_MAX, dql.lowestSlack(), "lowest_slack");
        assertEquals(7L, dql.slackStartTime(), "slack_start_time = jiffies");
        assertEquals(3028, dql.adjLimit(), "adj_limit is not touched");
        assertEquals(3028, dql.available(), "avail returns the old adj_limit until the next completion");

        dql.queued(FRAME, jiffy(8));
        assertEquals(1514, dql.available(), "still counted against the old adj_limit");
        dql.completed(FRAME, jiffy(8));
        assertEquals(1514, dql.limit(), "starved from 0 again");
        assertEquals(3028, dql.adjLimit(), "recomputed");
        assertEquals(1514, dql.available(), "avail");
    }

    @Test
    void shouldResetLimitToMinLimitAsCurrentKernels() {
        Dql dql = new Dql(1000, 1000, 3000, Dql.DQL_MAX_LIMIT, true);
        dql.queued(FRAME, 0);
        dql.completed(FRAME, 0);
        assertEquals(3000, dql.limit(), "clamped to min_limit");
        assertEquals(4514, dql.adjLimit(), "3000 + 1514");

        dql.reset(jiffy(3));
        assertEquals(3000, dql.limit(), "current dql_reset: limit = min_limit");
        assertEquals(4514, dql.available(), "old adj_limit - 0");

        dql.queued(FRAME, jiffy(4));
        dql.completed(FRAME, jiffy(4));
        assertEquals(3000, dql.limit(), "not over the limit: no change");
        assertEquals(4514, dql.adjLimit(), "3000 + 1514");
        assertEquals(3000, dql.available(), "avail");
    }

    @Test
    void shouldResetLimitToZeroAs2014EvenWithMinLimitAndClampAtNextCompletion() {
        Dql dql = new Dql(1000, 1000, 3000, Dql.DQL_MAX_LIMIT, false);
        dql.queued(FRAME, 0);
        dql.completed(FRAME, 0);
        dql.reset(jiffy(3));
        assertEquals(0, dql.limit(), "2014 dql_reset ignores min_limit");
        dql.queued(FRAME, jiffy(4));
        dql.completed(FRAME, jiffy(4));
        assertEquals(3000, dql.limit(), "clamp restores min_limit");
    }

    @Test
    void shouldRefuseToCompleteMoreThanInFlight() {
        Dql dql = kernelDefaults();
        dql.queued(FRAME, 0);
        dql.reset(0);
        IllegalArgumentException e = assertThrows(IllegalArgumentException.class, () -> dql.completed(FRAME, 0));
        assertEquals("bytes=1514, allowed 0 to inflight=0", e.getMessage());
        assertEquals(0, dql.numCompleted(), "state unchanged");
    }

    @Test
    void shouldRefuseObjectsAboveDqlMaxObject() {
        Dql dql = kernelDefaults();
        dql.queued(M, 0);
        assertEquals(M, dql.inflight(), "DQL_MAX_OBJECT itself is accepted");
        IllegalArgumentException e = assertThrows(IllegalArgumentException.class, () -> dql.queued(M + 1, 0));
        assertEquals("bytes=268435456, allowed 0 to 268435455 (DQL_MAX_OBJECT)", e.getMessage());
        e = assertThrows(IllegalArgumentException.class, () -> dql.queued(-1, 0));
        assertEquals("bytes=4294967295, allowed 0 to 268435455 (DQL_MAX_OBJECT)", e.getMessage());
        assertEquals(M, dql.numQueued(), "state unchanged");
        assertEquals(M, dql.lastObjCnt(), "last_obj_cnt unchanged");
    }

    /**
     * Runs the same operations on a fresh queue and on one whose counters start 4,000 B below 2^32, so that
     * {@code num_queued} and {@code num_completed} wrap during the run, and checks that both agree at every step. The load
     * first keeps the device busy (the limit decreases), then lets it drain everything each jiffy (the limit grows).
     */
    @Test
    void shouldGiveTheSameLimitsWhenCountersWrapAround() {
        Dql fresh = new Dql(1000, 10, 0, 100_000, false);
        Dql wrapped = new Dql(1000, 10, 0, 100_000, false);
        for (int i = 0; i < 15; i++) {
            wrapped.queued(M, 0);
            wrapped.completed(M, 0);
        }
        int rest = (int) ((1L << 32) - 5000 - 15L * M);
        wrapped.queued(rest, 0);
        wrapped.completed(rest, 0);
        fresh.queued(M, 0);
        fresh.completed(M, 0);
        for (Dql dql : new Dql[] {fresh, wrapped}) {
            dql.queued(1000, 0);
            dql.completed(1000, 0);
        }
        assertEquals(-4000, wrapped.numQueued(), "num_queued = 2^32 - 4000");
        assertEquals(-4000, wrapped.numCompleted(), "num_completed = 2^32 - 4000");
        assertSameState(fresh, wrapped, "after alignment");

        for (int i = 0; i < 3; i++) {
            fresh.queued(FRAME, 0);
            wrapped.queued(FRAME, 0);
        }
        assertEquals(542, wrapped.numQueued(), "num_queued wrapped past 2^32");
        assertEquals(4542, wrapped.inflight(), "inflight across the wrap");
        assertEquals(100_000 - 4542, wrapped.available(), "avail across the wrap");
        assertSameState(fresh, wrapped, "after the wrap of num_queued");

        int offset = wrapped.numQueued() - fresh.numQueued();
        int lowest = Integer.MAX_VALUE;
        int grewBackTo = 0;
        for (int tick = 1; tick <= 80; tick++) {
            long now = jiffy(tick);
            // busy device for 40 jiffies (20 frames a jiffy), then one that drains everything
            int drainBytes = tick <= 40 ? 20 * FRAME : Integer.MAX_VALUE;
            for (Dql dql : new Dql[] {fresh, wrapped}) {
                int completed = Math.min(dql.inflight(), drainBytes);
                if (completed > 0) {
                    dql.completed(completed, now);
                }
                queueUntilStopped(dql, FRAME, now);
            }
            assertSameState(fresh, wrapped, "tick " + tick);
            assertEquals(offset, wrapped.numQueued() - fresh.numQueued(), "num_queued offset at tick " + tick);
            assertEquals(offset, wrapped.numCompleted() - fresh.numCompleted(), "num_completed offset at tick " + tick);
            if (tick <= 40) {
                lowest = Math.min(lowest, wrapped.limit());
            } else {
                grewBackTo = Math.max(grewBackTo, wrapped.limit());
            }
        }
        assertTrue(lowest < 100_000, "the busy phase decreased the limit, lowest=" + lowest);
        assertTrue(grewBackTo > lowest, "the draining phase increased it again, grewBackTo=" + grewBackTo);
        assertTrue(Integer.compareUnsigned(wrapped.numCompleted(), 1_000_000_000) < 0, "num_completed wrapped too");
    }

    private static void assertSameState(Dql expected, Dql actual, String when) {
        assertEquals(expected.limit(), actual.limit(), "limit " + when);
        assertEquals(expected.available(), actual.available(), "avail " + when);
        assertEquals(expected.inflight(), actual.inflight(), "inflight " + when);
        assertEquals(expected.prevOvlimit(), actual.prevOvlimit(), "prev_ovlimit " + when);
        assertEquals(expected.prevLastObjCnt(), actual.prevLastObjCnt(), "prev_last_obj_cnt " + when);
        assertEquals(expected.lowestSlack(), actual.lowestSlack(), "lowest_slack " + when);
        assertEquals(expected.slackStartTime(), actual.slackStartTime(), "slack_start_time " + when);
        assertEquals(expected.adjLimit() - expected.numCompleted(), actual.adjLimit() - actual.numCompleted(),
                "adj_limit - num_completed " + when);
    }

    @Test
    void shouldDeriveJiffiesFromVirtualTime() {
        Dql dql = new Dql(250, 250, 0, Dql.DQL_MAX_LIMIT, true);
        assertEquals(0L, dql.jiffies(3_999_999_999L), "4 ms per jiffy at HZ=250");
        assertEquals(1L, dql.jiffies(4_000_000_000L), "one jiffy");
        assertEquals(250L * 3600, dql.jiffies(3600L * 1_000_000_000_000L), "one hour");
        assertEquals(Long.MAX_VALUE / 4_000_000_000L, dql.jiffies(Long.MAX_VALUE), "no overflow at the end of time");
    }

    @Test
    void shouldDeriveJiffiesExactlyAtHz300() {
        // CONFIG_HZ=300: a jiffy is 3.333... ms, which no whole number of picoseconds divides
        Dql dql = new Dql(300, 300, 0, Dql.DQL_MAX_LIMIT, true);
        assertEquals(0L, dql.jiffies(3_333_333_333L));
        assertEquals(1L, dql.jiffies(3_333_333_334L), "10^12 / 300 rounded up is where jiffy 1 starts");
        assertEquals(300L, dql.jiffies(1_000_000_000_000L), "one second");
        assertEquals(299L, dql.jiffies(999_999_999_999L));
        assertEquals(300L * 3600 * 24, dql.jiffies(3600L * 24 * 1_000_000_000_000L), "one day");
    }

    @Test
    void shouldRejectHzOutsideTheKernelsRange() {
        for (int hz : new int[] {99, 1001, 0, -1000}) {
            IllegalArgumentException e = assertThrows(IllegalArgumentException.class,
                    () -> new Dql(hz, 100, 0, Dql.DQL_MAX_LIMIT, true));
            assertEquals("hz=" + hz + ", allowed 100 to 1000", e.getMessage());
        }
        for (int hz : new int[] {100, 250, 300, 1000}) {
            assertEquals(hz, new Dql(hz, hz, 0, Dql.DQL_MAX_LIMIT, true).hz(), "hz accepted");
        }
    }

    @Test
    void shouldRejectBadHoldTimeAndLimits() {
        IllegalArgumentException e = assertThrows(IllegalArgumentException.class,
                () -> new Dql(1000, -1, 0, Dql.DQL_MAX_LIMIT, true));
        assertEquals("holdTimeJiffies=-1, allowed 0 to 2147483647", e.getMessage());
        e = assertThrows(IllegalArgumentException.class, () -> new Dql(1000, 1000, 0, Dql.DQL_MAX_LIMIT + 1, true));
        assertEquals("maxLimitBytes=1879048193, allowed 0 to 1879048192 (DQL_MAX_LIMIT)", e.getMessage());
        e = assertThrows(IllegalArgumentException.class, () -> new Dql(1000, 1000, 5000, 4000, true));
        assertEquals("minLimitBytes=5000, allowed 0 to maxLimitBytes=4000", e.getMessage());
        e = assertThrows(IllegalArgumentException.class, () -> new Dql(1000, 1000, -1, 4000, true));
        assertEquals("minLimitBytes=-1, allowed 0 to maxLimitBytes=4000", e.getMessage());
    }

    @Test
    void shouldImplementKernelMacrosWithSignedAndUnsignedComparisons() {
        assertEquals(0, Dql.posdiff(5, 7), "POSDIFF of a negative difference");
        assertEquals(10, Dql.posdiff(5, -5), "POSDIFF across the wrap: 5 - (2^32 - 5)");
        assertTrue(Dql.afterEq(3, -3), "AFTER_EQ across the wrap");
        assertTrue(Dql.afterEq(3, 3), "AFTER_EQ of equal values");
        assertEquals(-1, Dql.maxUnsigned(-1, 5), "UINT_MAX is the larger");
        assertEquals(Dql.DQL_MAX_LIMIT, Dql.clampUnsigned(-10, 0, Dql.DQL_MAX_LIMIT), "a huge unsigned value clamps high");
        assertEquals(300, Dql.clampUnsigned(20, 300, 4000), "clamp low");
        assertTrue(Dql.timeAfter(11, 10), "11 is after 10");
        assertTrue(!Dql.timeAfter(10, 10), "time_after is strict");
    }
}
