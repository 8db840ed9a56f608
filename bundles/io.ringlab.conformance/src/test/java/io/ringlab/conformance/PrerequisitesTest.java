package io.ringlab.conformance;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import org.junit.jupiter.api.Test;
import org.opentest4j.AssertionFailedError;
import org.opentest4j.TestAbortedException;

/** A missing prerequisite skips a test on a developer's machine and fails it in CI. */
class PrerequisitesTest {
    @Test
    void aMissingPrerequisiteSkipsOutsideCiAndFailsInCi() {
        TestAbortedException skipped = assertThrows(TestAbortedException.class,
                () -> Prerequisites.require(false, "no app/target/ringlab.jar", false));
        assertTrue(skipped.getMessage().contains("no app/target/ringlab.jar"), skipped.getMessage());
        AssertionFailedError failed = assertThrows(AssertionFailedError.class,
                () -> Prerequisites.require(false, "no app/target/ringlab.jar", true));
        assertEquals("prerequisite missing (CI=true, so this fails instead of skipping): no app/target/ringlab.jar",
                failed.getMessage());
    }

    @Test
    void aPresentPrerequisiteDoesNothingEitherWay() {
        Prerequisites.require(true, "x", true);
        Prerequisites.require(true, "x", false);
    }
}
