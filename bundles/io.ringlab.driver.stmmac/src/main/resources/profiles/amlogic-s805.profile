# Amlogic S805 (ODROID-C1), the board of the stmmac BQL seed (shared/seeds/001): Cortex-A5, one core in use.
name = amlogic-s805 | source: Beniamino Galvani, "Re: [PATCH net-next] net: stmmac: add BQL support", netdev, 28 Dec 2014
frequencyHz = 1500000000 | source: Amlogic S805 product brief, quad-core Cortex-A5 up to 1.5 GHz
cores = 1 | source: the seed: "SMP is not working yet" on that kernel tree
# The clock the MAC's RX interrupt watchdog counts: stmmac_riwt2usec converts RIWT with clk_get_rate(priv->stmmac_clk), the
# "stmmaceth" clock, which on Meson is clk81 (v3.19 Documentation/devicetree/bindings/net/meson-dwmac.txt: clocks = <&clk81>;
# mainline meson8b.dtsi: <&clkc CLKID_ETH>, a gate whose parent is clk81, drivers/clk/meson/meson8b.c MESON_GATE). clk81's
# mux and divider are the boot loader's (meson8b-clkc.c of v4.6: CLK_MUX_READ_ONLY): fclk_div4 / 4 = 2.55 GHz / 16, as
# Amlogic's boot code writes it (".clk81=159375000, //2.55GHz/4/4=159.375MHz") and as measured on an ODROID-C1 (S805):
# 159,372,396 Hz and 159,373,438 Hz from meson-clk-msr (M. Blumenstingl, quoted in "Re: [PATCH] soc: amlogic: clk-measure:
# Optimize measurement accuracy", linux-kernel, 18 Jul 2025; docs/research/board-constants.md section 3). Assumed: the seed's
# 2014 board ran the same boot loader setting (its DT is unseen; a DT fixed-clock would change only the driver's conversion).
stmmac.csrClockHz = 159375000 | source: clk81 = fclk_div4 / 4 of the 2.55 GHz fixed PLL, measured 159.372 MHz on an ODROID-C1 (docs/research/board-constants.md section 3); the stmmaceth clock is clk81 (meson-dwmac binding, meson8b.c); RIWT 0xff = 409.6 us
# Per-frame CPU costs of the whole stack, driver included (TCP/IP send or receive, qdisc, xmit or RX, TX clean, IRQ and
# NAPI overhead), as one constant per direction. Two unknowns, two published figures, with an ACK every second segment
# costing one frame of the opposite direction (the assumption of this fit):
#   TX saturation: 1.5e9 / (tx + rx / 2) = 600e6 / (1514 * 8)  (49,537 frames/s)  ->  tx + rx/2 = 30,281
#   RX saturation: 1.5e9 / (rx + tx / 2) = 650e6 / (1514 * 8)  (53,665 frames/s)  ->  rx + tx/2 = 27,951
#   solved: tx = 21,741, rx = 17,080
stmmac.txFrameCycles = 21741 | fitted: 600 Mbit/s TX of the S805 board (seed 001), jointly with rxFrameCycles
stmmac.rxFrameCycles = 17080 | fitted: 650 Mbit/s RX of the S805 board (seed 001), jointly with txFrameCycles
# The kernel build (io.ringlab.sim.api.KernelBuild), from which the TCP elements derive SKB_TRUESIZE and MAX_TCP_HEADER:
# seed 001's net-next of Dec 2014 (bengal/linux meson8b, v3.19-rc) for 32-bit ARM, configured as v3.19's
# multi_v7_defconfig (it has ARCH_MESON=y; v3.19 has no meson defconfig). The configuration is an assumption: the seed
# did not publish its .config. Derivations: docs/research/board-constants.md section 1, docs/models/tcp.md.
kernel.sizeofSkBuff = 176 | source: struct sk_buff of v3.19 include/linux/skbuff.h laid out for 32-bit ARM (EABI: 4-byte pointers, 8-byte alignment of 64-bit fields) with multi_v7_defconfig's options that change it (XFRM, IPV6_NDISC_NODETYPE, NET_RX_BUSY_POLL, XPS; no NETFILTER or NET_SCHED), by docs/research/board-constants/gen.py; 192 with netfilter and the scheduler, the same 192 once aligned
kernel.sizeofSkbSharedInfo = 176 | source: struct skb_shared_info of v3.19 for 32-bit ARM (gen.py): nr_frags, tx_flags, gso_size, gso_segs, gso_type 8, frag_list 4 + 4 padding, hwtstamps 8, tskey, ip6_frag_id, dataref, destructor_arg 4 each, and MAX_SKB_FRAGS = 65536/PAGE_SIZE + 1 = 17 frags of 8 bytes (skb_frag_struct: page pointer 4, __u16 page_offset and size when BITS_PER_LONG is 32 and PAGE_SIZE 4 KB)
kernel.smpCacheBytes = 64 | source: arch/arm/mm/Kconfig v3.19: ARM_L1_CACHE_SHIFT_6 default y if CPU_V7, ARM_L1_CACHE_SHIFT 6, so L1_CACHE_BYTES = SMP_CACHE_BYTES = 64 (the Cortex-A5's own lines are 32 bytes)
kernel.config.WLAN = 2 | source: multi_v7_defconfig v3.19 does not set WLAN; drivers/net/wireless/Kconfig: menuconfig WLAN default y
kernel.config.AX25 = 0 | source: multi_v7_defconfig v3.19 sets neither HAMRADIO nor AX25 (net/ax25/Kconfig: no default)
kernel.config.MAC80211_MESH = 0 | source: multi_v7_defconfig v3.19 has MAC80211=m and does not set MAC80211_MESH (net/mac80211/Kconfig: no default)
kernel.config.HYPERV_NET = 0 | source: Hyper-V depends on x86; v3.19's include/linux/netdevice.h does not test it
kernel.config.NET_IPIP = 0 | source: multi_v7_defconfig v3.19 does not set NET_IPIP (net/ipv4/Kconfig: no default)
kernel.config.NET_IPGRE = 0 | source: multi_v7_defconfig v3.19 does not set NET_IPGRE (net/ipv4/Kconfig: no default)
kernel.config.IPV6_SIT = 1 | source: multi_v7_defconfig v3.19 leaves IPV6 at its default m and IPV6_SIT at its default y (net/ipv6/Kconfig), so SIT is a module
kernel.config.IPV6_TUNNEL = 1 | source: multi_v7_defconfig v3.19: CONFIG_IPV6_TUNNEL=m
