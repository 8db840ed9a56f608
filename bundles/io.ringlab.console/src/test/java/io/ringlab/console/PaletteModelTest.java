package io.ringlab.console;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertNotEquals;

import java.util.List;

import org.junit.jupiter.api.Test;

import io.ringlab.sim.api.dto.ElementDescriptorDTO;

class PaletteModelTest {
    static ElementDescriptorDTO type(String type, String category, String bundle, String version) {
        ElementDescriptorDTO d = new ElementDescriptorDTO();
        d.type = type;
        d.category = category;
        d.bundle = bundle;
        d.bundleVersion = version;
        return d;
    }

    @Test
    void categoriesFollowAPipelinesOrderThenByNameAndTypesAreSorted() {
        PaletteModel m = PaletteModel.of(List.of(type("sink", "sinks", "t", "1"), type("zeta", "widgets", "x", "1"),
                type("tcp", "sources", "t", "1"), type("source", "sources", "t", "1"), type("netdev", "drivers", "n", "1"),
                type("alpha", "analysers", "a", "1"), type("odd", null, "o", "1")));
        assertEquals(List.of("sources", "drivers", "sinks", "analysers", "other", "widgets"), List.copyOf(m.categories().keySet()));
        assertEquals(List.of("source", "tcp"), m.categories().get("sources").stream().map(d -> d.type).toList());
    }

    @Test
    void theSignatureChangesWithABundleVersionAndNotWithOrder() {
        var a = type("link", "links", "io.ringlab.link", "0.1.0");
        var b = type("sink", "sinks", "io.ringlab.traffic", "0.1.0");
        assertEquals(PaletteModel.of(List.of(a, b)).signature(), PaletteModel.of(List.of(b, a)).signature());
        assertNotEquals(PaletteModel.of(List.of(a, b)).signature(),
                PaletteModel.of(List.of(type("link", "links", "io.ringlab.link", "0.2.0"), b)).signature());
        assertNotEquals(PaletteModel.of(List.of(a, b)).signature(), PaletteModel.of(List.of(b)).signature());
    }

    @Test
    void theTooltipGivesTheSummaryAndTheModelPage() {
        ElementDescriptorDTO d = type("stmmac", "drivers", "io.ringlab.driver.stmmac", "0.1.0");
        d.summary = "STMicro stmmac with BQL";
        assertEquals("STMicro stmmac with BQL", PaletteModel.tooltip(d), "no page named");
        d.modelPage = "docs/models/stmmac.md";
        assertEquals("STMicro stmmac with BQL\nModel: docs/models/stmmac.md", PaletteModel.tooltip(d));
    }

    @Test
    void aLabelNamesTheTypeItsBundleAndVersion() {
        assertEquals("netdev  (io.ringlab.driver.netdev 0.1.0)", PaletteModel.label(type("netdev", "drivers", "io.ringlab.driver.netdev", "0.1.0")));
    }
}
