package io.ringlab.traffic;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.util.ArrayList;
import java.util.List;

import org.junit.jupiter.api.Test;

import io.ringlab.engine.standalone.Standalone;
import io.ringlab.sim.api.Element;
import io.ringlab.sim.api.ElementContext;
import io.ringlab.sim.api.ElementFactory;
import io.ringlab.sim.api.PipelineException;
import io.ringlab.sim.api.dto.ElementDescriptorDTO;
import io.ringlab.sim.api.dto.RunOptionsDTO;

/**
 * The kernel build a shipped cost profile states reaches the TCP elements: the 32-bit ARM boards' profiles give the ARM
 * structure sizes (192 and 192 once aligned), the x86-64 profile the x86-64 ones (256 and 320), each with the
 * {@code MAX_TCP_HEADER} of its stated configuration (272), and a profile that states no kernel build is refused naming
 * the element and the key.
 */
class SkbSizesProfileTest {

    private static SkbSizes sizes(String profile) throws Exception {
        List<TcpConfig> configs = new ArrayList<>();
        ElementFactory tcp = new TcpFactory();
        ElementFactory capture = new ElementFactory() {
            @Override
            public ElementDescriptorDTO descriptor() {
                return tcp.descriptor();
            }

            @Override
            public Element create(ElementContext context) {
                TcpElement e = (TcpElement) tcp.create(context);
                configs.add(e.cfg);
                return e;
            }
        };
        Standalone sim = Standalone.builder().element(capture).build();
        RunOptionsDTO o = new RunOptionsDTO();
        o.seed = 1L;
        sim.prepare("""
                duration = 1ms
                profile = %s
                element iperf : tcp
                element q : pfifo
                element eth0 : netdev
                element wire : link
                element far : host
                element back : pfifo
                element eth1 : netdev
                element rwire : link
                iperf -> q -> eth0 -> wire -> far
                far.out -> back -> eth1 -> rwire -> iperf.in
                """.formatted(profile), o);
        assertEquals(1, configs.size());
        return configs.get(0).skb;
    }

    @Test
    void theArmBoardsProfilesGiveTheArmStructureSizes() throws Exception {
        for (String board : new String[] {"amlogic-s805", "armada-388"}) {
            SkbSizes s = sizes(board);
            assertEquals(192, s.skbStruct, board + ": SKB_DATA_ALIGN(176)");
            assertEquals(192, s.shinfo, board + ": SKB_DATA_ALIGN(176)");
            assertEquals(272, s.maxTcpHeader, board + ": 128 + LL_MAX_HEADER 96 (WLAN) + 48 (SIT)");
            assertEquals(2048 + 192, s.truesize(1514), board);
            assertEquals(512 + 192 + 1448, s.segmentTruesize(0, 1448), board + ": a kmalloc-512 head");
        }
    }

    @Test
    void theX86ProfileGivesTheX86StructureSizes() throws Exception {
        SkbSizes s = sizes("generic-x86-4ghz");
        assertEquals(256, s.skbStruct);
        assertEquals(320, s.shinfo);
        assertEquals(272, s.maxTcpHeader);
        assertEquals(2304, s.truesize(1514));
        assertEquals(1024 + 256 + 1448, s.segmentTruesize(0, 1448), "SKB_DATA_ALIGN(272) + 320 = 640: kmalloc-1024");
        assertEquals(212_992, s.rmemMax);
    }

    @Test
    void aProfileWithoutAKernelBuildIsRefusedNamingTheElementAndTheKey() throws Exception {
        java.nio.file.Path p = java.nio.file.Files.createTempFile("nokernel", ".profile");
        try {
            java.nio.file.Files.writeString(p, """
                    name = nokernel | source: a test profile
                    frequencyHz = 1000000000 | source: a test profile
                    cores = 1 | source: a test profile
                    """);
            Exception e = assertThrows(Exception.class, () -> sizes(p.toString()));
            Throwable t = e;
            while (t.getCause() != null && !(t instanceof PipelineException)) {
                t = t.getCause();
            }
            String m = e.getMessage() + " / " + t.getMessage();
            assertTrue(m.contains("iperf") && m.contains("kernel.sizeofSkBuff"), m);
        } finally {
            java.nio.file.Files.delete(p);
        }
    }
}
