# Marvell Armada 388 (88F6828, the SolidRun Clearfog of seed 000): two Cortex-A9 cores, a PL310 level 2, no level 3.
# Sources in docs/research/mvneta-armada.md. Not yet here: the per-packet costs of the mvneta paths
# (mvneta.rxPacketCycles, mvneta.txPacketCycles), to be fitted to seed 000's 17,500 connections/s once the haproxy
# scenario exists, and measured MMIO, DMA-map and allocator costs for this CPU (none found); until then the mvneta model
# charges only what the pools and the cache model charge.
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
