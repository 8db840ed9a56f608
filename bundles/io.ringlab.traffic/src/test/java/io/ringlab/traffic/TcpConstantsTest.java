package io.ringlab.traffic;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.util.HashMap;
import java.util.Map;
import java.util.Set;

import org.junit.jupiter.api.Test;

import io.ringlab.sim.api.CostProfile;
import io.ringlab.sim.api.KernelBuild;

/**
 * Segment sizes and the truesize charged to sk_wmem_alloc, for the two architectures of the shipped profiles: x86-64
 * ({@code sizeof(struct sk_buff)} 232, {@code skb_shared_info} 320) and 32-bit ARM (176 and 176), both with
 * {@code SMP_CACHE_BYTES} 64, and for {@code MAX_HEADER} 32 (no WLAN, no tunnel: {@code MAX_TCP_HEADER} 160) and 144
 * (WLAN and IPv6's SIT: 272). Expected values are written as the kernel's arithmetic.
 */
class TcpConstantsTest {
    private static final int X86_SKB = 232, X86_SHINFO = 320, ARM_SKB = 176, ARM_SHINFO = 176, CACHE = 64;
    private static final int PLAIN = 32, WLAN_SIT = 96 + 48;
    private static final SkbSizes X86_160 = new SkbSizes(X86_SKB, X86_SHINFO, CACHE, PLAIN);
    private static final SkbSizes X86_272 = new SkbSizes(X86_SKB, X86_SHINFO, CACHE, WLAN_SIT);
    private static final SkbSizes ARM_272 = new SkbSizes(ARM_SKB, ARM_SHINFO, CACHE, WLAN_SIT);

    private static int align(int x) {
        return (x + CACHE - 1) / CACHE * CACHE;
    }

    @Test
    void theStructuresAreAlignedToSmpCacheBytes() {
        assertEquals(256, X86_272.skbStruct);
        assertEquals(320, X86_272.shinfo);
        assertEquals(192, ARM_272.skbStruct, "176 -> 192");
        assertEquals(192, ARM_272.shinfo, "176 -> 192");
        assertEquals(160, X86_160.maxTcpHeader, "128 + LL_MAX_HEADER 32");
        assertEquals(272, ARM_272.maxTcpHeader, "128 + LL_MAX_HEADER 96 + 48");
        assertEquals(256 * (256 + 256 + 320), X86_272.rmemMax, "SK_RMEM_MAX 212,992 on x86-64");
        assertEquals(256 * (256 + 192 + 192), ARM_272.rmemMax, "SK_RMEM_MAX 163,840 on 32-bit ARM");
    }

    @Test
    void llMaxHeaderAndMaxHeaderFollowTheConfiguration() {
        int n = KernelBuild.N, m = KernelBuild.M, y = KernelBuild.Y;
        assertEquals(32, SkbSizes.llMaxHeader(n, n, n, n));
        assertEquals(96, SkbSizes.llMaxHeader(y, n, n, n));
        assertEquals(96, SkbSizes.llMaxHeader(n, m, n, n), "IS_ENABLED(CONFIG_AX25) counts a module");
        assertEquals(128, SkbSizes.llMaxHeader(y, n, y, n), "mesh networking");
        assertEquals(96, SkbSizes.llMaxHeader(y, n, n, m), "defined(CONFIG_HYPERV_NET) does not count a module");
        assertEquals(128, SkbSizes.llMaxHeader(n, n, n, y));
        assertEquals(96, SkbSizes.maxHeader(96, n, n, n, n));
        assertEquals(144, SkbSizes.maxHeader(96, n, n, m, n), "SIT as a module adds 48");
        assertEquals(176, SkbSizes.maxHeader(128, m, m, y, m));
    }

    @Test
    void aFullSizedSegmentTakesTheTwoKilobyteHead() {
        assertEquals(1514, 1448 + Tcp.HEADERS, "MSS 1448 with timestamps fills a 1500-byte MTU");
        assertEquals(2048 + 256, X86_272.truesize(1514), "a kmalloc-2048 head plus struct sk_buff: 2304");
        assertEquals(2048 + 256, X86_272.truesize(66), "a short segment still takes the 2 KB head");
        assertEquals(2048 + 192, ARM_272.truesize(1514), "2240 on 32-bit ARM");
        assertEquals(X86_160.truesize(1514), X86_272.truesize(1514), "the head does not depend on MAX_TCP_HEADER");
    }

    @Test
    void aJumboSegmentIsChargedItsAlignedLengthAndBothOverheads() {
        assertEquals(align(9014) + 320 + 256, X86_272.truesize(9014));
        assertEquals(align(9014) + 192 + 192, ARM_272.truesize(9014));
        assertEquals(9014 + 192 + 192, ARM_272.skbTruesize(9014), "SKB_TRUESIZE adds the structures only");
    }

    @Test
    void aGsoSkbIsChargedItsHeadPlusThePayloadBeyondTheLinearPart() {
        assertEquals(io.ringlab.sim.api.ElementContext.GSO_HEADER_BYTES, Tcp.HEADERS, "segment() splits with these headers");
        assertEquals(2048 - 160 - 320, X86_160.linearPayload, "select_size: SKB_WITH_OVERHEAD(2048 - MAX_TCP_HEADER): 1568");
        assertEquals(2048 - 272 - 320, X86_272.linearPayload, "1456");
        assertEquals(2048 - 272 - 192, ARM_272.linearPayload, "1584");
        assertEquals(2048 + 192, ARM_272.gsoTruesize(1448, 1), "one MSS fits the linear part");
        assertEquals(2048 + 192 + 10 * 1448 - 1584, ARM_272.gsoTruesize(1448, 10));
        assertEquals(2048 + 256 + 10 * 1448 - 1568, X86_160.gsoTruesize(1448, 10));
        assertEquals(45, (Tcp.GSO_MAX_SIZE - 1 - ARM_272.maxTcpHeader) / 1448, "tcp_tso_autosize's cap at an MSS of 1448");
    }

    @Test
    void onlyThePayloadBeyondTheLinearPartLiesInPageFragments() {
        assertEquals(0, ARM_272.skbFrags(0, 1448), "a one-MSS skb is linear: one descriptor");
        assertEquals(1, ARM_272.skbFrags(0, 10 * 1448));
        assertEquals(2, ARM_272.skbFrags(32768 - 2000, 10 * 1448), "its fragment bytes cross a 32 KB page fragment");
        assertEquals(0, X86_160.skbFrags(0, 1448));
        assertEquals(0, X86_272.skbFrags(0, 1448), "1456 linear bytes still hold an MSS of 1448");
    }

    @Test
    void kmallocRoundsUpToItsSizeClasses() {
        assertEquals(96, Tcp.kmallocSize(65));
        assertEquals(128, Tcp.kmallocSize(97));
        assertEquals(192, Tcp.kmallocSize(160));
        assertEquals(512, Tcp.kmallocSize(512));
        assertEquals(1024, Tcp.kmallocSize(640));
        assertEquals(2048, Tcp.kmallocSize(1984));
        assertEquals(16384, Tcp.kmallocSize(9000), "a page allocation above kmalloc-8k");
    }

    @Test
    void skbSegmentGivesEachSegmentItsOwnHeadAndFragmentBytes() {
        // head = kmalloc(SKB_DATA_ALIGN(hsize + MAX_TCP_HEADER) + SKB_DATA_ALIGN(shinfo)); truesize = head + sk_buff + frags
        assertEquals(Tcp.kmallocSize(align(1448 + 160) + 320) + 256, X86_160.segmentTruesize(1448, 0), "all linear: 2304");
        assertEquals(1024 + 256 + 1328, X86_160.segmentTruesize(120, 1328), "120 linear bytes: a kmalloc-1024 head");
        assertEquals(512 + 256 + 1448, X86_160.segmentTruesize(0, 1448), "headers only: 192 + 320 = 512");
        assertEquals(1024 + 256 + 1448, X86_272.segmentTruesize(0, 1448), "320 + 320 = 640: kmalloc-1024, 2728");
        assertEquals(512 + 192 + 1448, ARM_272.segmentTruesize(0, 1448), "320 + 192 = 512: kmalloc-512, 2152");
    }

    @Test
    void aProfileStatesTheKernelBuild() {
        SkbSizes s = SkbSizes.of(profile(arm()), "tcp");
        assertEquals(192, s.skbStruct);
        assertEquals(192, s.shinfo);
        assertEquals(272, s.maxTcpHeader, "WLAN=y, IPV6_SIT=m, IPV6_TUNNEL=m");
        assertEquals(512 + 192 + 1448, s.segmentTruesize(0, 1448));
        Map<String, Double> mesh = arm();
        mesh.put(KernelBuild.CONFIG_MAC80211_MESH, (double) KernelBuild.Y);
        assertEquals(128 + 128 + 48, SkbSizes.of(profile(mesh), "tcp").maxTcpHeader);
    }

    @Test
    void aProfileWithoutTheKernelBuildOrWithAWrongValueIsRefusedByName() {
        Map<String, Double> missing = arm();
        missing.remove(KernelBuild.SIZEOF_SK_BUFF);
        var e = assertThrows(IllegalArgumentException.class, () -> SkbSizes.of(profile(missing), "iperf"));
        assertTrue(e.getMessage().contains("iperf") && e.getMessage().contains("board")
                && e.getMessage().contains(KernelBuild.SIZEOF_SK_BUFF), e.getMessage());
        Map<String, Double> tristate = arm();
        tristate.put(KernelBuild.CONFIG_WLAN, (double) KernelBuild.M);
        e = assertThrows(IllegalArgumentException.class, () -> SkbSizes.of(profile(tristate), "iperf"));
        assertTrue(e.getMessage().contains("kernel.config.WLAN=1") && e.getMessage().contains("bool"), e.getMessage());
        Map<String, Double> option = arm();
        option.put(KernelBuild.CONFIG_IPV6_SIT, 3.0);
        e = assertThrows(IllegalArgumentException.class, () -> SkbSizes.of(profile(option), "iperf"));
        assertTrue(e.getMessage().contains("allowed 0 (not set), 1 (=m) or 2 (=y)"), e.getMessage());
        Map<String, Double> cache = arm();
        cache.put(KernelBuild.SMP_CACHE_BYTES, 48.0);
        e = assertThrows(IllegalArgumentException.class, () -> SkbSizes.of(profile(cache), "iperf"));
        assertTrue(e.getMessage().contains("power of two"), e.getMessage());
    }

    /** The kernel build of the amlogic-s805 profile, as numbers. */
    private static Map<String, Double> arm() {
        Map<String, Double> m = new HashMap<>();
        m.put(KernelBuild.SIZEOF_SK_BUFF, (double) ARM_SKB);
        m.put(KernelBuild.SIZEOF_SKB_SHARED_INFO, (double) ARM_SHINFO);
        m.put(KernelBuild.SMP_CACHE_BYTES, (double) CACHE);
        m.put(KernelBuild.CONFIG_WLAN, (double) KernelBuild.Y);
        m.put(KernelBuild.CONFIG_AX25, (double) KernelBuild.N);
        m.put(KernelBuild.CONFIG_MAC80211_MESH, (double) KernelBuild.N);
        m.put(KernelBuild.CONFIG_HYPERV_NET, (double) KernelBuild.N);
        m.put(KernelBuild.CONFIG_NET_IPIP, (double) KernelBuild.N);
        m.put(KernelBuild.CONFIG_NET_IPGRE, (double) KernelBuild.N);
        m.put(KernelBuild.CONFIG_IPV6_SIT, (double) KernelBuild.M);
        m.put(KernelBuild.CONFIG_IPV6_TUNNEL, (double) KernelBuild.M);
        return m;
    }

    private static CostProfile profile(Map<String, Double> values) {
        return new CostProfile() {
            @Override public String name() { return "board"; }
            @Override public long frequencyHz() { return 1_000_000_000L; }
            @Override public int cores() { return 1; }
            @Override public boolean has(String key) { return values.containsKey(key); }
            @Override public double value(String key) { return values.get(key); }
            @Override public double value(String key, double fallback) { return values.getOrDefault(key, fallback); }
            @Override public String source(String key) { return "source: test"; }
            @Override public Set<String> keys() { return values.keySet(); }
        };
    }
}
