package io.ringlab.console;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.util.List;

import org.junit.jupiter.api.Test;

import io.ringlab.sim.api.dto.ElementDescriptorDTO;
import io.ringlab.sim.api.dto.ElementSpecDTO;
import io.ringlab.sim.api.dto.PipelineDTO;

class ThirdPartyBundleTest {
    private static ElementDescriptorDTO type(String id, String bundle, String version) {
        ElementDescriptorDTO d = new ElementDescriptorDTO();
        d.type = id;
        d.bundle = bundle;
        d.bundleVersion = version;
        return d;
    }

    private static PipelineDTO pipeline(String... types) {
        PipelineDTO p = new PipelineDTO();
        for (String t : types) {
            ElementSpecDTO e = new ElementSpecDTO();
            e.type = t;
            e.name = t + p.elements.size();
            p.elements.add(e);
        }
        return p;
    }

    private static final List<ElementDescriptorDTO> INSTALLED = List.of(type("source", "io.ringlab.traffic", "0.2.0"),
            type("tpsink", "org.example.dropin", "1.0.0"), type("tpspin", "org.example.dropin", "1.0.0"),
            type("other", "com.example.other", "2.1.0"), type("tpsink", "org.example.dropin", "1.1.0"));

    @Test
    void theBundlesOfThePipelinesTypesThatAreNotRinglabsOwnComeOnceEachWithTheirLocation() {
        List<ThirdPartyBundle> l = ThirdPartyBundle.of(pipeline("source", "tpsink", "tpspin", "tpsink"), INSTALLED,
                (name, version) -> "file:/plugins/" + name + "-" + version + ".jar");

        assertEquals(List.of(new ThirdPartyBundle("org.example.dropin", "1.0.0", "file:/plugins/org.example.dropin-1.0.0.jar"),
                new ThirdPartyBundle("org.example.dropin", "1.1.0", "file:/plugins/org.example.dropin-1.1.0.jar")), l);
        assertEquals("org.example.dropin 1.0.0", l.get(0).label());
    }

    @Test
    void aPipelineOfRinglabsOwnTypesHasNone() {
        assertTrue(ThirdPartyBundle.of(pipeline("source", "unknown"), INSTALLED, (name, version) -> "x").isEmpty());
    }

    @Test
    void aChildGetsTheElementBundlesThenEveryThirdPartyProviderOfPoolQdiscAndQueueLimitKindsOnce() {
        ThirdPartyBundle dropin = new ThirdPartyBundle("org.example.dropin", "1.0.0", "file:/p/dropin.jar");
        ThirdPartyBundle pools = new ThirdPartyBundle("org.example.pools", "1.0.0", "file:/p/pools.jar");
        ThirdPartyBundle slab = new ThirdPartyBundle("io.ringlab.pool.slab", "0.2.0", "reference:file:/app/slab.jar");
        java.util.Map<String, List<ThirdPartyBundle>> providers = java.util.Map.of(
                "io.ringlab.buffer.api.BufferPoolProvider", List.of(slab, pools),
                "io.ringlab.queue.api.QdiscProvider", List.of(dropin),
                "io.ringlab.queue.api.QueueLimitsProvider", List.of(pools));

        List<ThirdPartyBundle> l = ThirdPartyBundle.forAChild(List.of(dropin), providers::get);

        assertEquals(List.of(dropin, new ThirdPartyBundle("org.example.pools", "1.0.0", "file:/p/pools.jar", false)), l,
                "Ringlab's own pool bundle stays out, each third-party bundle once, a kind provider not required");
        assertEquals(List.of(dropin), ThirdPartyBundle.forAChild(List.of(dropin), service -> List.of()));
    }
}
