package io.ringlab.conformance;

import org.junit.jupiter.api.Assertions;
import org.junit.jupiter.api.Assumptions;

/**
 * What a test needs before it can check anything (a built Ringlab jar, a page of the docs): on a developer's machine a
 * missing one skips the test with the reason, so that a sample builds on its own; in CI (the environment variable
 * {@code CI} is {@code true}, as CI services set it and {@code .ci/run} exports it) it fails the test, so that a missing
 * jar can never pass as green.
 */
public final class Prerequisites {
    /** The environment variable that says the tests run in CI. */
    public static final String CI = "CI";

    private Prerequisites() {
    }

    /**
     * @param present whether the prerequisite is there
     * @param what what is missing and how to get it, for the skip or the failure
     */
    public static void require(boolean present, String what) {
        require(present, what, inCi());
    }

    static void require(boolean present, String what, boolean inCi) {
        if (present) {
            return;
        }
        if (inCi) {
            Assertions.fail("prerequisite missing (" + CI + "=true, so this fails instead of skipping): " + what);
        }
        Assumptions.abort(what);
    }

    /** @return whether the tests run in CI: {@code CI=true} */
    public static boolean inCi() {
        return "true".equalsIgnoreCase(System.getenv(CI));
    }
}
