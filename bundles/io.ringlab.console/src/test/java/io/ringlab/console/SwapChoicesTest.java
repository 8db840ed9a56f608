package io.ringlab.console;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.util.List;

import org.junit.jupiter.api.Test;

import io.ringlab.sim.api.dto.ElementDescriptorDTO;

class SwapChoicesTest {
    private static ElementDescriptorDTO type(String id, String category, String version) {
        ElementDescriptorDTO d = new ElementDescriptorDTO();
        d.type = id;
        d.category = category;
        d.bundleVersion = version;
        return d;
    }

    private static final List<ElementDescriptorDTO> INSTALLED = List.of(type("mlx5", "driver", "0.2.0"),
            type("netdev", "driver", "0.1.0"), type("pfifo", "qdisc", "0.1.0"), type("fq_codel", "qdisc", "0.1.0"),
            type("stmmac", "driver", "0.1.0"));

    @Test
    void anElementsOwnTypeComesFirstThenTheOtherTypesOfItsCategory() {
        List<SwapChoices.Choice> c = SwapChoices.of("netdev", INSTALLED);
        assertEquals(List.of("netdev", "mlx5", "stmmac"), c.stream().map(SwapChoices.Choice::type).toList());
        assertEquals(null, c.get(0).version(), "its own type: the newest version");
        assertTrue(c.get(0).label().startsWith("netdev@0.1.0 (a fresh instance"), c.get(0).label());
        assertEquals("mlx5@0.2.0", c.get(1).label());
        assertEquals("0.2.0", c.get(1).version());
        assertEquals(List.of("pfifo", "fq_codel"), SwapChoices.of("pfifo", INSTALLED).stream().map(SwapChoices.Choice::type).toList());
    }

    @Test
    void aTypeNoLongerInstalledOffersNothing() {
        assertEquals(List.of(), SwapChoices.of("mvneta", INSTALLED));
    }
}
