package io.ringlab.traffic;

import io.ringlab.sim.api.CostProfile;
import io.ringlab.sim.api.KernelBuild;

/**
 * The socket-memory sizes of one kernel build, derived once per element from what its cost profile states
 * ({@link KernelBuild}): {@code SKB_DATA_ALIGN(sizeof(struct sk_buff))} and {@code SKB_DATA_ALIGN(sizeof(struct
 * skb_shared_info))} of the architecture, and {@code MAX_TCP_HEADER} of the configuration. Everything that depends on them
 * ({@code SKB_TRUESIZE}, a TCP skb's linear room, the truesize of a segment {@code skb_segment} builds, {@code SK_RMEM_MAX})
 * is computed here, from plain ints, without allocation. Immutable.
 * <p>
 * The values of the shipped profiles (docs/models/tcp.md, "Socket memory per kernel build"): x86-64 v3.19/v4.6 256 and
 * 320 (232 and 320 raw), 32-bit ARM 192 and 192 (176 and 176 raw), {@code MAX_TCP_HEADER} 272 for a configuration with
 * the Kconfig defaults {@code WLAN=y} and IPv6 with {@code IPV6_SIT}.
 */
final class SkbSizes {
    /** {@code LL_MAX_HEADER} without WLAN, AX.25 and Hyper-V (include/linux/netdevice.h, v3.19 to current). */
    static final int LL_MAX_HEADER_PLAIN = 32;
    /** {@code LL_MAX_HEADER} with {@code CONFIG_WLAN} or {@code CONFIG_AX25}, without {@code CONFIG_MAC80211_MESH}. */
    static final int LL_MAX_HEADER_WLAN = 96;
    /** {@code LL_MAX_HEADER} with mesh networking, or with {@code CONFIG_HYPERV_NET=y} (v4.6 and later). */
    static final int LL_MAX_HEADER_MESH = 128;
    /** What {@code MAX_HEADER} adds when any of IPIP, GRE, SIT or the IPv6 tunnel is enabled: 48 bytes. */
    static final int TUNNEL_HEADER = 48;
    /** {@code MAX_TCP_HEADER} = {@code 128 + MAX_HEADER} ({@code include/net/tcp.h}). */
    static final int TCP_HEADER_ROOM = 128;
    /** {@code _SK_MEM_PACKETS} (net/core/sock.c): {@code SK_RMEM_MAX} = 256 x {@code SKB_TRUESIZE(256)}. */
    private static final int SK_MEM_PACKETS = 256;

    /** {@code SMP_CACHE_BYTES}, the alignment of {@code SKB_DATA_ALIGN}. */
    final int smpCacheBytes;
    /** {@code SKB_DATA_ALIGN(sizeof(struct sk_buff))}. */
    final int skbStruct;
    /** {@code SKB_DATA_ALIGN(sizeof(struct skb_shared_info))}. */
    final int shinfo;
    /** {@code MAX_TCP_HEADER}: the headroom {@code sk_stream_alloc_skb} reserves in every TCP skb. */
    final int maxTcpHeader;
    /**
     * Payload bytes {@code tcp_sendmsg} copies into an skb's linear part before it turns to page fragments: the head is
     * allocated with {@code select_size()} = {@code SKB_WITH_OVERHEAD(2048 - MAX_TCP_HEADER)} bytes of room
     * ({@code net/ipv4/tcp.c}, 3.x with GSO; {@code sk_stream_alloc_skb} sets {@code reserved_tailroom} so exactly that
     * much is available): 2048 - 272 - 192 = 1584 on 32-bit ARM, 2048 - 272 - 320 = 1456 on x86-64. A one-MSS skb is all
     * linear when the MSS fits; a GSO skb's first {@code linearPayload} payload bytes are.
     */
    final int linearPayload;
    /** {@code sysctl_rmem_max} = {@code SK_RMEM_MAX} (net/core/sock.c): 212,992 bytes on x86-64, 163,840 on 32-bit ARM. */
    final int rmemMax;

    /**
     * @param sizeofSkBuff {@code sizeof(struct sk_buff)}
     * @param sizeofShinfo {@code sizeof(struct skb_shared_info)}
     * @param smpCacheBytes {@code SMP_CACHE_BYTES}, a power of two
     * @param maxHeader {@code MAX_HEADER}
     */
    SkbSizes(int sizeofSkBuff, int sizeofShinfo, int smpCacheBytes, int maxHeader) {
        this.smpCacheBytes = smpCacheBytes;
        this.skbStruct = dataAlign(sizeofSkBuff);
        this.shinfo = dataAlign(sizeofShinfo);
        this.maxTcpHeader = TCP_HEADER_ROOM + maxHeader;
        this.linearPayload = Tcp.SKB_HEAD_BYTES - maxTcpHeader - shinfo;
        this.rmemMax = SK_MEM_PACKETS * skbTruesize(256);
    }

    /**
     * Reads the kernel build a profile states.
     *
     * @param p the run's cost profile
     * @param element the element's name, for messages
     * @return the sizes
     * @throws IllegalArgumentException naming the profile, the key, what it means and what is allowed, for a missing or
     *         out-of-range value
     */
    static SkbSizes of(CostProfile p, String element) {
        int skb = size(p, element, KernelBuild.SIZEOF_SK_BUFF, "sizeof(struct sk_buff)");
        int shinfo = size(p, element, KernelBuild.SIZEOF_SKB_SHARED_INFO, "sizeof(struct skb_shared_info)");
        int cache = (int) number(p, element, KernelBuild.SMP_CACHE_BYTES, "SMP_CACHE_BYTES of the kernel configuration");
        if (cache < 8 || cache > 512 || Integer.bitCount(cache) != 1) {
            throw new IllegalArgumentException(element + ": profile " + p.name() + ": " + KernelBuild.SMP_CACHE_BYTES + "="
                    + cache + ", allowed a power of two from 8 to 512 (SMP_CACHE_BYTES)");
        }
        int ll = llMaxHeader(bool(p, element, KernelBuild.CONFIG_WLAN), option(p, element, KernelBuild.CONFIG_AX25),
                bool(p, element, KernelBuild.CONFIG_MAC80211_MESH), option(p, element, KernelBuild.CONFIG_HYPERV_NET));
        int maxHeader = maxHeader(ll, option(p, element, KernelBuild.CONFIG_NET_IPIP),
                option(p, element, KernelBuild.CONFIG_NET_IPGRE), option(p, element, KernelBuild.CONFIG_IPV6_SIT),
                option(p, element, KernelBuild.CONFIG_IPV6_TUNNEL));
        return new SkbSizes(skb, shinfo, cache, maxHeader);
    }

    /**
     * {@code LL_MAX_HEADER} as include/linux/netdevice.h computes it (v3.19; v4.6 added the Hyper-V test first, which a
     * v3.19 build states as {@link KernelBuild#N}).
     *
     * @param wlan {@code CONFIG_WLAN}, {@link KernelBuild#N} or {@link KernelBuild#Y}
     * @param ax25 {@code CONFIG_AX25}
     * @param mesh {@code CONFIG_MAC80211_MESH}
     * @param hypervNet {@code CONFIG_HYPERV_NET}
     * @return the bytes
     */
    static int llMaxHeader(int wlan, int ax25, int mesh, int hypervNet) {
        if (hypervNet == KernelBuild.Y) { // defined(CONFIG_HYPERV_NET): built in only
            return LL_MAX_HEADER_MESH;
        }
        if (wlan == KernelBuild.Y || ax25 != KernelBuild.N) { // defined(CONFIG_WLAN) || IS_ENABLED(CONFIG_AX25)
            return mesh == KernelBuild.Y ? LL_MAX_HEADER_MESH : LL_MAX_HEADER_WLAN;
        }
        return LL_MAX_HEADER_PLAIN;
    }

    /**
     * @param llMaxHeader {@code LL_MAX_HEADER}
     * @param ipip {@code CONFIG_NET_IPIP}
     * @param gre {@code CONFIG_NET_IPGRE}
     * @param sit {@code CONFIG_IPV6_SIT}
     * @param ip6Tunnel {@code CONFIG_IPV6_TUNNEL}
     * @return {@code MAX_HEADER}: {@code LL_MAX_HEADER}, plus 48 when any of the tunnels {@code IS_ENABLED}
     */
    static int maxHeader(int llMaxHeader, int ipip, int gre, int sit, int ip6Tunnel) {
        boolean tunnels = ipip != KernelBuild.N || gre != KernelBuild.N || sit != KernelBuild.N || ip6Tunnel != KernelBuild.N;
        return llMaxHeader + (tunnels ? TUNNEL_HEADER : 0);
    }

    /**
     * @param bytes a size
     * @return {@code SKB_DATA_ALIGN(bytes)} = {@code ALIGN(bytes, SMP_CACHE_BYTES)}
     */
    int dataAlign(int bytes) {
        return (bytes + smpCacheBytes - 1) & -smpCacheBytes;
    }

    /**
     * {@code SKB_TRUESIZE(X)} (include/linux/skbuff.h): {@code X} plus the aligned {@code struct sk_buff} and
     * {@code struct skb_shared_info}, what {@code tcp_fixup_rcvbuf} and {@code tcp_rcv_space_adjust} charge per segment.
     *
     * @param bytes the data size
     * @return the truesize in bytes
     */
    int skbTruesize(int bytes) {
        return bytes + skbStruct + shinfo;
    }

    /**
     * {@code skb->truesize} of a segment, as {@code __alloc_skb} sets it ({@code SKB_TRUESIZE}): the data area
     * ({@link Tcp#SKB_HEAD_BYTES} minus the shared info, or the frame aligned to {@code SMP_CACHE_BYTES} when it does not
     * fit) plus the shared info plus {@code struct sk_buff}: 2304 bytes on x86-64 and 2240 on 32-bit ARM for any frame
     * that fits the 2 KB head (an MSS of 1448 included).
     *
     * @param frameBytes the frame's length without FCS
     * @return the truesize in bytes
     */
    int truesize(int frameBytes) {
        int data = Math.max(Tcp.SKB_HEAD_BYTES - shinfo, dataAlign(frameBytes));
        return data + shinfo + skbStruct;
    }

    /**
     * {@code skb->truesize} of a TCP skb carrying {@code payload} bytes, as {@code tcp_sendmsg} leaves it: the head
     * ({@link #truesize} of a frame that fits the 2 KB block) plus every byte copied into page fragments
     * ({@code skb->truesize += copy}, {@code include/net/sock.h} {@code skb_copy_to_page_nocache}), i.e. the payload
     * beyond {@link #linearPayload}. On 32-bit ARM with {@code MAX_TCP_HEADER} 272, 10 segments of 1448 give 2240 + 14,480
     * - 1584 = 15,136.
     *
     * @param mss payload bytes per segment
     * @param segs segments, at least 1
     * @return the truesize in bytes
     */
    int gsoTruesize(int mss, int segs) {
        return truesize(Tcp.HEADERS) + Math.max(0, segs * mss - linearPayload);
    }

    /**
     * @param seq the stream offset of the skb's first payload byte
     * @param payload its payload bytes
     * @return {@code nr_frags} of an skb built by {@code tcp_sendmsg}: the page fragments spanned by the payload beyond
     *         the linear part ({@link Tcp#pageFrags}), 0 when it all fits the head
     */
    int skbFrags(long seq, int payload) {
        return payload <= linearPayload ? 0 : Tcp.pageFrags(seq + linearPayload, payload - linearPayload);
    }

    /**
     * The truesize {@code skb_segment} ({@code net/core/skbuff.c}, 3.x) gives a segment of a TCP GSO skb on a
     * scatter-gather device: a new head from {@code __alloc_skb(hsize + doffset + headroom)}, where {@code hsize} is the
     * segment's bytes still in the GSO skb's linear part and {@code doffset + headroom} the GSO skb's headroom and
     * headers ({@code MAX_TCP_HEADER} reserved by {@code sk_stream_alloc_skb}), so {@code truesize =
     * SKB_TRUESIZE(SKB_WITH_OVERHEAD(ksize))} = the kmalloc block plus {@code struct sk_buff}; then each fragment's bytes
     * ({@code nskb->truesize += nskb->data_len}). A segment of 1448 bytes in fragments takes {@code
     * SKB_DATA_ALIGN(MAX_TCP_HEADER) + shinfo}: on 32-bit ARM 320 + 192 = 512, a kmalloc-512 head, 512 + 192 + 1448 =
     * 2152; on x86-64 320 + 320 = 640, a kmalloc-1024 head, 1024 + 256 + 1448 = 2728 (with {@code MAX_TCP_HEADER} 160:
     * 192 + 320 = 512, 2216).
     *
     * @param hsize payload bytes of the segment in the GSO skb's linear part
     * @param dataLen payload bytes in page fragments
     * @return the segment's truesize
     */
    int segmentTruesize(int hsize, int dataLen) {
        int head = dataAlign(hsize + maxTcpHeader) + shinfo;
        return Tcp.kmallocSize(head) + skbStruct + dataLen;
    }

    private static double number(CostProfile p, String element, String key, String meaning) {
        if (!p.has(key)) {
            throw new IllegalArgumentException(element + ": profile " + p.name() + " does not state " + key + " (" + meaning
                    + " of the kernel build it models), which the TCP socket memory is derived from; add a line '" + key
                    + " = VALUE | source: ...' to the profile (docs/models/tcp.md, \"Socket memory per kernel build\")");
        }
        return p.value(key);
    }

    private static int size(CostProfile p, String element, String key, String meaning) {
        double v = number(p, element, key, meaning);
        if (!(v >= 16 && v <= 4096) || v != Math.rint(v)) {
            throw new IllegalArgumentException(element + ": profile " + p.name() + ": " + key + "=" + v
                    + ", allowed a whole number of bytes from 16 to 4096 (" + meaning + ")");
        }
        return (int) v;
    }

    private static int option(CostProfile p, String element, String key) {
        String name = "CONFIG_" + key.substring(key.lastIndexOf('.') + 1);
        double v = number(p, element, key, name);
        if (v != KernelBuild.N && v != KernelBuild.M && v != KernelBuild.Y) {
            throw new IllegalArgumentException(element + ": profile " + p.name() + ": " + key + "=" + v
                    + ", allowed 0 (not set), 1 (=m) or 2 (=y) for " + name);
        }
        return (int) v;
    }

    private static int bool(CostProfile p, String element, String key) {
        int v = option(p, element, key);
        if (v == KernelBuild.M) {
            throw new IllegalArgumentException(element + ": profile " + p.name() + ": " + key + "=1 (=m), but CONFIG_"
                    + key.substring(key.lastIndexOf('.') + 1) + " is a bool: allowed 0 (not set) or 2 (=y)");
        }
        return v;
    }
}
