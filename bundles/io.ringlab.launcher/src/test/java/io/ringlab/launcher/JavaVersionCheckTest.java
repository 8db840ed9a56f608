package io.ringlab.launcher;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertNull;
import static org.junit.jupiter.api.Assertions.assertTrue;

import org.junit.jupiter.api.Test;

class JavaVersionCheckTest {
    @Test
    void readsTheFeatureReleaseOfOldAndNewVersionStrings() {
        assertEquals(8, JavaVersionCheck.feature("1.8"));
        assertEquals(17, JavaVersionCheck.feature("17"));
        assertEquals(21, JavaVersionCheck.feature("21.0.2"));
        assertEquals(25, JavaVersionCheck.feature(" 25 "));
        assertEquals(-1, JavaVersionCheck.feature(null));
        assertEquals(-1, JavaVersionCheck.feature(""));
        assertEquals(-1, JavaVersionCheck.feature("${ringlab.java}"));
    }

    @Test
    void refusesAnOlderJavaNamingItsVersionItsHomeAndTheMinimum() {
        String m = JavaVersionCheck.refusal("17", "21", "/usr/lib/jvm/java-17-openjdk-amd64");
        assertTrue(m.startsWith("ringlab: this is Java 17 (/usr/lib/jvm/java-17-openjdk-amd64); Ringlab needs Java 21 or newer."),
                m);
        assertTrue(m.contains("./ringlab"), m);
        assertTrue(JavaVersionCheck.refusal("1.8", "21", "/opt/jre8").startsWith("ringlab: this is Java 8 "));
    }

    @Test
    void letsTheMinimumAndNewerPassAndChecksNothingWithoutAMinimum() {
        assertNull(JavaVersionCheck.refusal("21", "21", "/j"));
        assertNull(JavaVersionCheck.refusal("25", "21", "/j"));
        assertNull(JavaVersionCheck.refusal("17", null, "/j"));
        assertNull(JavaVersionCheck.refusal("17", "not a version", "/j"));
    }
}
