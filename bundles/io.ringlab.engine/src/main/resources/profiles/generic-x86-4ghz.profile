# Generic x86-64 server core, the default profile of the reference elements.
# The reference NIC and the traffic elements charge no CPU unless a pipeline sets a cost, so this profile only fixes the
# clock that converts cycles to time and the number of cores.
name = generic-x86-4ghz | source: the 4 GHz machine of Jesper Brouer's slab_bulk_test figures (shared/research/kernel-models.md section 3)
frequencyHz = 4000000000 | source: kernel-models.md section 3, slab_bulk_test run "at 4 GHz"
cores = 2 | source: Ringlab default, enough for an interrupt core and an application core
# The kernel's view of the machine, separate from the cores the run simulates: SLUB sizes its slabs by nr_cpu_ids
# (calculate_order's min_objects = 4 * (fls(nr_cpu_ids) + 1), mm/slub.c), so a 2-core run keeps the 8-thread geometry.
kernel.nrCpuIds = 8 | source: Intel ARK, Core i7-4790K: 4 cores, 8 threads; nr_cpu_ids = possible CPUs (ACPI MADT), 8 assumed for this box (docs/research/board-constants.md section 2)
# Caches of the i7-4790K (Haswell, 4 cores, 8 MB L3): sizes from Intel ARK and the Optimization Reference Manual's Haswell
# table, latencies as measured for Haswell by 7-cpu.com (i7-4770: L2 12 cycles, L3 36 cycles, RAM 36 cycles + 57 ns).
cache.lineBytes = 64 | source: Intel 64 and IA-32 Architectures Optimization Reference Manual, Haswell cache parameters
cache.l1d.bytes = 32768 | source: Optimization Reference Manual, Haswell: L1 data 32 KB, 8-way
cache.l1d.ways = 8 | source: Optimization Reference Manual, Haswell: L1 data 32 KB, 8-way
cache.l1i.bytes = 32768 | source: Optimization Reference Manual, Haswell: L1 instruction 32 KB, 8-way
cache.l1i.ways = 8 | source: Optimization Reference Manual, Haswell: L1 instruction 32 KB, 8-way
cache.l2.bytes = 262144 | source: Optimization Reference Manual, Haswell: L2 256 KB, 8-way
cache.l2.ways = 8 | source: Optimization Reference Manual, Haswell: L2 256 KB, 8-way
cache.l3.bytes = 8388608 | source: Intel ARK, Core i7-4790K: 8 MB Intel Smart Cache
cache.l3.ways = 16 | source: 7-cpu.com, Intel Haswell: L3 16-way
cache.l2Cycles = 12 | source: 7-cpu.com, Intel Haswell (i7-4770): L2 cache latency 12 cycles
cache.l3Cycles = 36 | source: 7-cpu.com, Intel Haswell (i7-4770): L3 cache latency 36 cycles
cache.memoryCycles = 264 | source: 7-cpu.com, Intel Haswell: RAM latency 36 cycles + 57 ns, 57 ns = 228 cycles at 4 GHz
cache.ddio = 0 | source: Intel DDIO is a Xeon E5/E7 feature; the desktop i7-4790K has none
cache.l1dFillBuffers = 10 | source: 10 L1D line-fill buffers per core on Nehalem through Haswell, which cap its outstanding L1 data misses and which software prefetches occupy too (Stack Overflow, "Does software prefetching allocate a Line Fill Buffer (LFB)?", 2013, measured on Haswell); consistent with perf's Haswell event L1D_PEND_MISS.FB_FULL; the Intel Optimization Reference Manual's own table was not read (docs/research/board-constants.md section 5)
# The kernel build (io.ringlab.sim.api.KernelBuild), from which the TCP elements derive SKB_TRUESIZE and MAX_TCP_HEADER:
# x86-64, v3.19 to v4.6, with a distribution-like configuration. The machine's .config was not published: the options
# below are the Kconfig defaults an INET kernel gets (an assumption; a distribution config with MAC80211_MESH=y gives
# LL_MAX_HEADER 128 and MAX_TCP_HEADER 304, which docs/models/tcp.md lists as a sensitivity).
kernel.sizeofSkBuff = 232 | source: struct sk_buff of v3.19 and v4.6 include/linux/skbuff.h laid out for x86-64 with a distribution's options (XFRM, NF_CONNTRACK, BRIDGE_NETFILTER, NET_SCHED, NET_CLS_ACT, IPV6_NDISC_NODETYPE, NET_RX_BUSY_POLL, XPS, NETWORK_SECMARK), by docs/research/board-constants/gen.py; io.ringlab.pool.slab's skb heads use the same 232
kernel.sizeofSkbSharedInfo = 320 | source: struct skb_shared_info of v3.19 and v4.6 for x86-64 (gen.py): nr_frags, tx_flags, gso_size, gso_segs, gso_type 8, frag_list 8, hwtstamps 8, tskey, ip6_frag_id, dataref 4 each + 4 padding, destructor_arg 8, then MAX_SKB_FRAGS = 65536/PAGE_SIZE + 1 = 17 frags of 16 bytes (page pointer 8, __u32 page_offset and size): 48 + 272
kernel.smpCacheBytes = 64 | source: arch/x86/Kconfig.cpu (v4.6): X86_L1_CACHE_SHIFT 6 for GENERIC_CPU and MCORE2, SMP_CACHE_BYTES 64
kernel.config.WLAN = 2 | source: drivers/net/wireless/Kconfig (v3.19, v4.6): menuconfig WLAN default y; distributions keep it
kernel.config.AX25 = 0 | source: assumed not set (no default; distributions build it as a module, which would not move LL_MAX_HEADER past WLAN's 96)
kernel.config.MAC80211_MESH = 0 | source: net/mac80211/Kconfig: no default; assumed not set (with =y MAX_TCP_HEADER is 304)
kernel.config.HYPERV_NET = 0 | source: assumed not built in; distributions build it as a module (=m), which include/linux/netdevice.h's defined(CONFIG_HYPERV_NET) does not count
kernel.config.NET_IPIP = 1 | source: assumed a module, as distributions build the IPv4 tunnels (no Kconfig default); IPV6_SIT alone already adds the 48
kernel.config.NET_IPGRE = 1 | source: assumed a module, as NET_IPIP
kernel.config.IPV6_SIT = 2 | source: net/ipv6/Kconfig: IPV6 default m (v3.19) or y (v4.6), IPV6_SIT default y
kernel.config.IPV6_TUNNEL = 1 | source: assumed a module, as distributions build it (no Kconfig default)
