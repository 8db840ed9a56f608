package io.ringlab.sim.api;

/**
 * Keys of a {@link CostProfile} that state the kernel build of the machine being modelled: the structure sizes of its
 * architecture and the configuration options that size its headers. Elements derive kernel constants from them (the TCP
 * elements {@code SKB_TRUESIZE} and {@code MAX_TCP_HEADER}, a driver {@code SKB_DATA_ALIGN(sizeof(struct
 * skb_shared_info))}) instead of assuming one architecture; each value in a profile carries its source (the structure's
 * layout on that architecture and era, the defconfig or distribution config the profile assumes).
 * <p>
 * A configuration option's value is {@link #N}, {@link #M} or {@link #Y}, as Kconfig writes it ({@code # ... is not set},
 * {@code =m}, {@code =y}): {@code IS_ENABLED(CONFIG_X)} is true for {@code M} and {@code Y}, {@code defined(CONFIG_X)}
 * only for {@code Y}.
 */
public final class KernelBuild {
    /** {@code sizeof(struct sk_buff)} in bytes, before {@code SKB_DATA_ALIGN} (include/linux/skbuff.h, or pahole). */
    public static final String SIZEOF_SK_BUFF = "kernel.sizeofSkBuff";
    /** {@code sizeof(struct skb_shared_info)} in bytes, before {@code SKB_DATA_ALIGN}. */
    public static final String SIZEOF_SKB_SHARED_INFO = "kernel.sizeofSkbSharedInfo";
    /**
     * {@code SMP_CACHE_BYTES} = {@code L1_CACHE_BYTES} of the kernel's configuration, the alignment of
     * {@code SKB_DATA_ALIGN}; a configuration choice, which can differ from the CPU's real line ({@code cache.lineBytes}):
     * 64 for every ARMv7 kernel ({@code CONFIG_ARM_L1_CACHE_SHIFT} 6) on 32-byte-line Cortex-A5 and A9 cores.
     */
    public static final String SMP_CACHE_BYTES = "kernel.smpCacheBytes";

    /** {@code CONFIG_WLAN} (bool), which raises {@code LL_MAX_HEADER} (include/linux/netdevice.h). */
    public static final String CONFIG_WLAN = "kernel.config.WLAN";
    /** {@code CONFIG_AX25} (tristate), which raises {@code LL_MAX_HEADER} as {@code CONFIG_WLAN} does. */
    public static final String CONFIG_AX25 = "kernel.config.AX25";
    /** {@code CONFIG_MAC80211_MESH} (bool): {@code LL_MAX_HEADER} 128 instead of 96 with WLAN or AX25. */
    public static final String CONFIG_MAC80211_MESH = "kernel.config.MAC80211_MESH";
    /** {@code CONFIG_HYPERV_NET} (tristate; only {@code =y} counts): {@code LL_MAX_HEADER} 128 (v4.6 and later). */
    public static final String CONFIG_HYPERV_NET = "kernel.config.HYPERV_NET";
    /** {@code CONFIG_NET_IPIP} (tristate): any of the four tunnels adds 48 to {@code MAX_HEADER}. */
    public static final String CONFIG_NET_IPIP = "kernel.config.NET_IPIP";
    /** {@code CONFIG_NET_IPGRE} (tristate). */
    public static final String CONFIG_NET_IPGRE = "kernel.config.NET_IPGRE";
    /** {@code CONFIG_IPV6_SIT} (tristate). */
    public static final String CONFIG_IPV6_SIT = "kernel.config.IPV6_SIT";
    /** {@code CONFIG_IPV6_TUNNEL} (tristate). */
    public static final String CONFIG_IPV6_TUNNEL = "kernel.config.IPV6_TUNNEL";

    /** A configuration option that is not set. */
    public static final int N = 0;
    /** A tristate option built as a module. */
    public static final int M = 1;
    /** An option built in. */
    public static final int Y = 2;

    private KernelBuild() {
    }
}
