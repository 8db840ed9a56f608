package io.ringlab.conformance;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.util.List;
import java.util.Map;

import org.junit.jupiter.api.Test;

import io.ringlab.conformance.Fixtures.CorrectNic;
import io.ringlab.conformance.Fixtures.CorrectPool;
import io.ringlab.conformance.Fixtures.CorrectQdisc;
import io.ringlab.conformance.Fixtures.LeakingPool;
import io.ringlab.conformance.Fixtures.LifoQdisc;
import io.ringlab.conformance.Fixtures.NicDeclaringAnUnregisteredMetric;
import io.ringlab.conformance.Fixtures.NicDroppingItsRingInAHandover;
import io.ringlab.conformance.Fixtures.NicLosingARingBuffer;
import io.ringlab.conformance.Fixtures.NicOnTheWallClock;
import io.ringlab.conformance.Fixtures.NicSkippingBqlCompletion;
import io.ringlab.conformance.Fixtures.NicWhoseWalkMissesItsRing;
import io.ringlab.conformance.Fixtures.NicWithAnUndeclaredMetric;
import io.ringlab.conformance.Fixtures.NicWithAnUnseededRandom;
import io.ringlab.conformance.Fixtures.PoolTakingADoubleFreeBack;
import io.ringlab.conformance.Fixtures.QdiscForgettingRequeuedBytes;

/**
 * The kit against itself: the contracts, run with the JUnit Platform launcher as a third party's build runs them, pass for
 * the correct fixtures and fail for each broken one, with the check that names what broke. A fault may break more than
 * one check (a driver that stalls its queue holds nothing at a swap); each case lists every check it fails and what the
 * failure says.
 */
class FixturesFailTheContractsTest {

    /** Runs the contract class; it must fail exactly the checks named, each with a message holding the text given. */
    private static Contracts.Outcome failsWith(Class<?> contract, Map<String, String> expected) {
        Contracts.Outcome o = Contracts.run(contract);
        assertEquals(expected.keySet(), o.failures().keySet(), contract.getSimpleName() + " failed other checks: "
                + o.failures());
        expected.forEach((check, text) -> {
            String message = String.valueOf(o.failures().get(check).getMessage());
            assertTrue(message.contains(text), contract.getSimpleName() + "." + check + " failed for another reason: "
                    + message);
        });
        return o;
    }

    @Test
    void theCorrectFixturesPassEveryCheck() {
        Contracts.Outcome nic = Contracts.run(CorrectNic.class);
        assertEquals(Map.of(), nic.failures());
        assertEquals(10, nic.succeeded(), "every driver check ran and passed");
        Contracts.Outcome pool = Contracts.run(CorrectPool.class);
        assertEquals(Map.of(), pool.failures());
        assertEquals(6, pool.succeeded(), "every pool check ran and passed");
        Contracts.Outcome qdisc = Contracts.run(CorrectQdisc.class);
        assertEquals(Map.of(), qdisc.failures());
        assertEquals(4, qdisc.succeeded(), "every qdisc check ran and passed");
        assertEquals(3, qdisc.skipped(), "the element checks are skipped for a kind without an element factory");
    }

    @Test
    void aQdiscThatServesNewestFirstFailsTheOrdering() {
        // every check dequeues what it queued, so every one sees the order broken
        failsWith(LifoQdisc.class, Map.of(
                "enqueueAndDequeueConservePackets", "ordering: packet",
                "theLimitDropsWithItsReason", "ordering: packet",
                "backlogCountersMatchTheQueuedPackets", "ordering: packet",
                "packetsLeaveInThePromisedOrder", "ordering: packet"));
    }

    @Test
    void aQdiscThatForgetsRequeuedBytesFailsTheBacklogCounters() {
        failsWith(QdiscForgettingRequeuedBytes.class, Map.of(
                "enqueueAndDequeueConservePackets", "backlog counters: backlogBytes() after a requeue",
                "backlogCountersMatchTheQueuedPackets", "backlog counters: backlogBytes() after a requeue"));
    }

    @Test
    void aLeakingPoolFailsTheAccounting() {
        failsWith(LeakingPool.class, Map.of(
                "allocsMinusFreesIsInUse", "accounting: the pool lost 4 buffer(s)",
                "capacityIsHonoured", "capacity: after every buffer was freed alloc gave 48 buffers, 64 the first time"));
    }

    @Test
    void aPoolThatTakesADoubleFreeBackFailsTheDoubleFreeChecks() {
        failsWith(PoolTakingADoubleFreeBack.class, Map.of(
                "aDoubleFreeIsRefusedAndCounted", "double free: a second free of buffer",
                "bulkAllocAndFreeKeepTheirDocumentedSemantics", "bulk: freeBulk of [x, y, x] must free x and y once each"));
    }

    @Test
    void aDriverThatSkipsItsBqlCompletionFailsTheBqlHooks() {
        // the bytes its timer cleans never complete: BQL's in-flight count only grows, the queue stops for good, and the
        // stalled driver holds nothing when the handover check swaps it
        failsWith(NicSkippingBqlCompletion.class, Map.of(
                "bqlCompletesEveryByteReportedSentOnceTheRingDrains", "bytes were never completed",
                "aSameVersionSwapUnderLoadHandsOverAndChangesNothing", "handed no buffer over"));
    }

    @Test
    void aDriverThatLosesABufferFromItsRingFailsBufferOwnership() {
        String leak = "in use but held by no element; last owner dut";
        failsWith(NicLosingARingBuffer.class, Map.of(
                "buffersAndPacketsAreConservedUnderLoad", leak,
                "buffersAndPacketsAreConservedWithGsoTraffic", leak,
                "bqlCompletesEveryByteReportedSentOnceTheRingDrains", leak,
                "aSameVersionSwapUnderLoadHandsOverAndChangesNothing", leak));
    }

    @Test
    void aDriverWhoseWalkMissesItsRingFailsTheRingInvariantsInEveryRun() {
        // the probe looks at the rings in every run of the contract, so every check reports it
        String missed = "which dut.forEachHeld does not visit: the invariant walk would miss it";
        Map<String, String> all = new java.util.TreeMap<>();
        for (String check : List.of("ringsKeepTheirInvariantsUnderLoad", "buffersAndPacketsAreConservedUnderLoad",
                "buffersAndPacketsAreConservedWhenIdle", "buffersAndPacketsAreConservedWithGsoTraffic",
                "bqlCompletesEveryByteReportedSentOnceTheRingDrains", "bqlKeepsFarFewerBytesInTheDevice",
                "theSameSeedGivesTheSameResults", "anotherSeedGivesOtherResults",
                "aSameVersionSwapUnderLoadHandsOverAndChangesNothing", "everyMetricItReportsIsDeclared")) {
            all.put(check, "ring invariants: the TX ring holds buffer");
        }
        Contracts.Outcome o = failsWith(NicWhoseWalkMissesItsRing.class, all);
        assertTrue(o.failures().values().stream().allMatch(t -> t.getMessage().contains(missed)), o.failures().toString());
    }

    @Test
    void aDriverOnTheWallClockFailsDeterminism() {
        // determinism fails always; the swap check compares two runs that read the wall clock, which almost always differ
        // but may by chance agree (a CI run did), so it may fail too, and only with its own message
        Contracts.Outcome o = Contracts.run(NicOnTheWallClock.class);
        String swap = "aSameVersionSwapUnderLoadHandsOverAndChangesNothing";
        assertTrue(java.util.Set.of("theSameSeedGivesTheSameResults", swap).containsAll(o.failures().keySet()),
                "NicOnTheWallClock failed other checks: " + o.failures());
        assertTrue(o.failures().containsKey("theSameSeedGivesTheSameResults"), "determinism passed: " + o.failures());
        assertTrue(o.failures().get("theSameSeedGivesTheSameResults").getMessage()
                .contains("determinism: two runs with seed 7 differ"), o.failures().toString());
        if (o.failures().containsKey(swap)) {
            assertTrue(o.failures().get(swap).getMessage().contains("changed the results"), o.failures().toString());
        }
    }

    @Test
    void aDriverWithAnUnseededRandomFailsDeterminism() {
        // the determinism check is the one that names the fault; the swap check compares two runs of the same unseeded
        // driver, which differ only as often as their draws do (once in a few dozen builds they did not)
        Contracts.Outcome o = Contracts.run(NicWithAnUnseededRandom.class);
        assertTrue(o.failures().containsKey("theSameSeedGivesTheSameResults"), o.failures().toString());
        assertTrue(String.valueOf(o.failures().get("theSameSeedGivesTheSameResults").getMessage())
                .contains("determinism: two runs with seed 7 differ"), o.failures().toString());
        assertTrue(java.util.Set.of("theSameSeedGivesTheSameResults", "aSameVersionSwapUnderLoadHandsOverAndChangesNothing")
                .containsAll(o.failures().keySet()), "other checks failed: " + o.failures());
    }

    @Test
    void aDriverWhoseHandoverDropsItsRingFailsTheHandover() {
        failsWith(NicDroppingItsRingInAHandover.class, Map.of(
                "aSameVersionSwapUnderLoadHandsOverAndChangesNothing", "packet(s) (swap-drain"));
    }

    @Test
    void aDriverThatRegistersAnUndeclaredMetricFailsTheDeclarations() {
        failsWith(NicWithAnUndeclaredMetric.class, Map.of(
                "everyMetricItReportsIsDeclared", "txDoorbells (not declared)"));
    }

    @Test
    void aDriverWhoseFactoryDeclaresAMetricItNeverRegistersFailsTheDeclarations() {
        failsWith(NicDeclaringAnUnregisteredMetric.class, Map.of(
                "everyMetricItReportsIsDeclared", "declares metrics the loaded run does not report: txRestarts"));
    }
}
