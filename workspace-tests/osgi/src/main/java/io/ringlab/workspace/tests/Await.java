package io.ringlab.workspace.tests;

import java.util.concurrent.TimeUnit;
import java.util.function.BooleanSupplier;

/** Waiting in the integration tests: bounded, so that a broken path fails its test instead of hanging the whole run. */
final class Await {
    /** Longer than anything here takes (fileinstall polls every 100 ms, a paced run lasts a few seconds). */
    private static final long BOUND_SECONDS = 60;

    private Await() {
    }

    /**
     * Waits until {@code condition} holds.
     *
     * @param what the condition in words, for the failure
     * @throws AssertionError after {@value #BOUND_SECONDS} s
     */
    static void until(BooleanSupplier condition, String what) {
        long deadline = System.nanoTime() + TimeUnit.SECONDS.toNanos(BOUND_SECONDS);
        while (!condition.getAsBoolean()) {
            if (System.nanoTime() > deadline) {
                throw new AssertionError("timed out waiting for: " + what);
            }
            Thread.onSpinWait();
        }
    }
}
