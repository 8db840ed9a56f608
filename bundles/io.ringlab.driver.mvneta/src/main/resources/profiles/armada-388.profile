# Marvell Armada 388 (88F6828, the SolidRun Clearfog of seed 000): two Cortex-A9 cores, a PL310 level 2, no level 3.
# Sources in docs/research/mvneta-armada.md and docs/research/armada-costs.md; the fits in
# docs/validation/mvneta-bm-haproxy.md. No allocator cost was found for an ARMv7 CPU: the slab and page-fragment costs
# are the i7-4790K's cycle counts (io.ringlab.pool.slab's defaults) and 0.
name = armada-388 | source: docs/research/mvneta-armada.md (Armada 388 = 88F6828, armada-388-clearfog-pro.dts)
frequencyHz = 1600000000 | source: issue 4 and the research notes: a 1.6 GHz Armada 388; not checked against a datasheet
cores = 2 | source: W. Tarreau's blog (2016-09-15): "two Cortex-A9 CPU cores"
cache.lineBytes = 32 | source: ARM Cortex-A9 TRM (DDI 0388I) section 7.1: 32-byte L1 lines; the PL310 also has 32-byte lines
cache.l1d.bytes = 32768 | source: Cortex-A9 TRM: 16, 32 or 64 KB by configuration; 32 KB assumed for the Armada 38x
cache.l1d.ways = 4 | source: Cortex-A9 TRM section 7.1: 4-way set-associative
cache.l1i.bytes = 32768 | source: Cortex-A9 TRM: 16, 32 or 64 KB by configuration; 32 KB assumed for the Armada 38x
cache.l1i.ways = 4 | source: Cortex-A9 TRM section 7.1: 4-way set-associative
cache.l2.bytes = 1048576 | source: assumed 1 MB for the Armada 38x's PL310 (arch/arm/mach-mvebu/coherency.c names the PL310; size not found)
cache.l2.ways = 16 | source: assumed; the PL310 is 8- or 16-way by configuration (not found for the Armada 38x)
cache.l2Cycles = 19 | source: 7-cpu.com Cortex-A9 (Exynos 4210, another A9 SoC): 23 cycles at a 64 KB working set, +19 over L1
cache.memoryCycles = 209 | source: 7-cpu.com Cortex-A9 (Exynos 4210): RAM 37 cycles + 110 ns; 33 cycles over L1 + 176 at 1.6 GHz
mmio.readCycles = 240 | source: docs/research/armada-costs.md section 1: FreeBSD rS315589 measured "on the order of 150ns per read/write" of an i.MX (Cortex-A9) peripheral register; 150 ns at 1.6 GHz. Borrowed from another A9 SoC: no Armada figure exists; the Armada 38x maps all its I/O strongly ordered (arch/arm/mach-mvebu/coherency.c), so each access waits for completion
mmio.writeCycles = 240 | source: as mmio.readCycles (the same 150 ns per read or write)
hwbm.putBpCycles = 240 | source: mvneta_bm_pool_put_bp is one register write to the BM's BPPI window: mmio.writeCycles
dma.mapCycles = 20 | source: assumed from the code (docs/research/armada-costs.md section 2): with arm_coherent_dma_ops, dma_map_single is address arithmetic and there is no unmap hook; 10 to 30 cycles inferred, no measurement
mvneta.rxPacketCycles = 1100 | fitted: with mvneta.txPacketCycles (equal split assumed) to the mvneta BM commit's (dc35a10f68d3) "~535 [k] packets without BM": pipelines/mvneta-bridge-64.pipeline, bm=false, gives 0.535 Mpps; includes the bridge's own work (br_handle_frame, br_forward) and the skb setup, which the model has no element for
mvneta.txPacketCycles = 1100 | fitted: see mvneta.rxPacketCycles
# The proxy's CPU per connection beyond the driver, split as the kernel runs it (docs/models/haproxy.md "Fit"): one cost
# per frame for the kernel's TCP/IP and socket work, charged in the NAPI softirq on the interrupt core for a received
# frame and on the sending core for a sent one, and haproxy's own work per connection on its process's core. Two
# assumptions fix the split: haproxy's sizing notes (doc/intro.txt 3.6: "15% of the processing time spent in HAProxy
# versus 85% in the kernel in TCP or HTTP close mode", a Core i7 with kernel 3.10) apply to the A9, the driver
# included in the kernel's 85 %; and the kernel's work beyond the driver is the same for each of the 17 frames (no
# per-segment figure for an ARMv7 CPU was found). One scale is then fitted to the seed's 17,500 connections/s.
haproxy.connectionCycles = 22370 | fitted: with tcp.rxSegmentCycles to seed 000's 17,500 connections/s with bm=false (pipelines/mvneta-bm-haproxy.pipeline, two haproxy processes: 17,526/s): 15/85 of the rest, 0.15 / 0.85 x (the driver's 28,134 cycles per connection in that run + 17 frames x 5,800) = 22,365, rounded; haproxy's own work and its system calls' fixed part
haproxy.segmentCycles = 0 | source: not found; the long-transfer variant's CPU is a lower bound
tcp.rxSegmentCycles = 5800 | fitted: jointly with haproxy.connectionCycles (above) to seed 000's 17,500 connections/s with bm=false, assuming haproxy's 85 % kernel share and the same kernel cost for every frame; charged in the NAPI softirq on the interrupt core (core 0), which this makes the bottleneck
tcp.txSegmentCycles = 5800 | fitted: the same per-frame kernel cost as tcp.rxSegmentCycles (the even-split assumption), charged on the core that sends the frame: the softirq core for the kernel's own SYN-ACK and ACKs, the haproxy process's core for what haproxy writes
# The kernel build (io.ringlab.sim.api.KernelBuild), from which the TCP elements derive SKB_TRUESIZE and MAX_TCP_HEADER
# and mvneta its frag_size: v4.6 (the mvneta model's era) for 32-bit ARM, configured as mvebu_v7_defconfig (read in
# v3.19; no v4.6 ARM tree was available, and the options below are its Kconfig defaults, which v4.6 keeps or raises).
# The configuration is an assumption: seed 000 did not publish its kernel. Derivations: docs/research/board-constants.md
# section 1, docs/models/tcp.md.
kernel.sizeofSkBuff = 176 | source: struct sk_buff of v4.6 include/linux/skbuff.h laid out for 32-bit ARM EABI with the defconfig's options (XFRM, IPV6_NDISC_NODETYPE, NET_RX_BUSY_POLL, XPS; no NETFILTER or NET_SCHED), by docs/research/board-constants/gen.py; 192 with netfilter and the scheduler, the same 192 once aligned
kernel.sizeofSkbSharedInfo = 176 | source: struct skb_shared_info of v4.6 for 32-bit ARM (gen.py): 40 bytes before frags[] (as v3.19's), and MAX_SKB_FRAGS 17 frags of 8 bytes (skb_frag_struct with __u16 page_offset and size when BITS_PER_LONG is 32)
kernel.smpCacheBytes = 64 | source: arch/arm/mm/Kconfig (v3.19): ARM_L1_CACHE_SHIFT_6 default y if CPU_V7, so SMP_CACHE_BYTES 64 although the Cortex-A9's lines are 32 bytes (cache.lineBytes)
kernel.config.WLAN = 2 | source: mvebu_v7_defconfig (v3.19) does not set WLAN; drivers/net/wireless/Kconfig (v3.19, v4.6): menuconfig WLAN default y
kernel.config.AX25 = 0 | source: mvebu_v7_defconfig sets neither HAMRADIO nor AX25 (no default)
kernel.config.MAC80211_MESH = 0 | source: mvebu_v7_defconfig does not set MAC80211 or MAC80211_MESH (no default)
kernel.config.HYPERV_NET = 0 | source: Hyper-V depends on x86 (drivers/hv/Kconfig)
kernel.config.NET_IPIP = 0 | source: mvebu_v7_defconfig does not set NET_IPIP (no default)
kernel.config.NET_IPGRE = 0 | source: mvebu_v7_defconfig does not set NET_IPGRE (no default)
kernel.config.IPV6_SIT = 2 | source: mvebu_v7_defconfig leaves IPV6 at its default (y in v4.6's net/ipv6/Kconfig, m in v3.19) and IPV6_SIT at its default y
kernel.config.IPV6_TUNNEL = 0 | source: mvebu_v7_defconfig does not set IPV6_TUNNEL (no default)
