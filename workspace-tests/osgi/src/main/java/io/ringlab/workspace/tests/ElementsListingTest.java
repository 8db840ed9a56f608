package io.ringlab.workspace.tests;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.util.List;

import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.ExtendWith;
import org.osgi.framework.BundleContext;
import org.osgi.test.common.annotation.InjectBundleContext;
import org.osgi.test.junit5.context.BundleContextExtension;

/**
 * {@code ringlab elements} and {@code ringlab pools} in the framework, on the installed bundles: every built-in type
 * lists its metrics with unit, kind and meaning and names its model page; every pool kind says what it models.
 */
@ExtendWith(BundleContextExtension.class)
class ElementsListingTest {
    @InjectBundleContext
    BundleContext context;

    @Test
    void everyTypeListsItsMetricsAndItsModelPage() throws Exception {
        Gogo.Result r = Gogo.ringlab(context, "elements");
        assertEquals(0, r.code(), r.all());
        List<String> lines = r.out().lines().toList();
        int types = 0;
        int pages = 0;
        for (int i = 0; i < lines.size(); i++) {
            String l = lines.get(i);
            if (l.startsWith("  ") && !l.startsWith("   ")) {
                types++;
            } else if (l.startsWith("    model: docs/models/") && l.endsWith(".md")) {
                pages++;
            }
        }
        assertTrue(types >= 18, r.out());
        assertEquals(types, pages, "one model page per type: " + r.out());
        assertTrue(r.out().matches("(?s).*\\n      rxMbitPerSecond +Mbit/s +rate +rxBytes in megabits per second.*"),
                r.out());
        assertTrue(r.out().matches("(?s).*\\n      rttP50Millis +ms +histogram +median round-trip time\\n.*"), r.out());
        assertTrue(r.out().contains("    model: docs/models/stmmac.md"), r.out());
    }

    @Test
    void everyPoolKindSaysWhatItModels() throws Exception {
        Gogo.Result r = Gogo.ringlab(context, "pools");
        assertEquals(0, r.code(), r.all());
        List<String> lines = r.out().lines().toList();
        assertTrue(lines.size() >= 5, r.out());
        for (String l : lines) {
            assertTrue(l.matches("[a-z]+ +\\S.*"), "a kind and its description: " + l);
        }
        assertTrue(r.out().contains("mm/slub.c"), r.out());
    }
}
