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
