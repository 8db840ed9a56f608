package io.ringlab.cluster;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertNotEquals;
import static org.junit.jupiter.api.Assertions.assertNull;

import java.util.Map;
import java.util.TreeMap;

import org.junit.jupiter.api.Test;

class BuildTest {
    private static Map<String, String> bundles(String engine, String model) {
        Map<String, String> m = new TreeMap<>();
        m.put("io.ringlab.engine", engine);
        m.put("io.ringlab.driver.stmmac", model);
        m.put("com.acme.driver", "1.0.0#feed");
        return m;
    }

    @Test
    void theVersionIsTheEnginesAndTheHashCoversEveryRinglabBundle() {
        Build a = Build.of(bundles("0.2.0#aaaa", "0.2.0#bbbb"));
        assertEquals("0.2.0", a.version());
        assertEquals(16, a.hash().length());
        assertEquals(a, Build.of(bundles("0.2.0#aaaa", "0.2.0#bbbb")));
        assertNotEquals(a.hash(), Build.of(bundles("0.2.0#aaaa", "0.2.0#bbbc")).hash(), "a model's content changes it");
        Map<String, String> plugin = bundles("0.2.0#aaaa", "0.2.0#bbbb");
        plugin.put("com.acme.driver", "2.0.0#beef");
        assertEquals(a, Build.of(plugin), "third-party bundles are checked per run, not in the build");
        assertEquals("dev", Build.of(Map.of()).version());
    }

    @Test
    void aMemberOfAnotherBuildIsRefusedWithBothNamed() {
        Build a = Build.of(bundles("0.2.0#aaaa", "0.2.0#bbbb"));
        assertNull(a.refuses(a.version(), a.hash()));
        assertEquals("it runs Ringlab 0.1.0 (build 0123456789abcdef), this process " + a,
                a.refuses("0.1.0", "0123456789abcdef"));
        assertEquals("it runs Ringlab 0.2.0 (build 0123456789abcdef), this process " + a,
                a.refuses("0.2.0", "0123456789abcdef"), "the same version string from other code");
        assertEquals("it is not a Ringlab worker (it has no ringlab.version attribute)", a.refuses(null, null));
    }
}
