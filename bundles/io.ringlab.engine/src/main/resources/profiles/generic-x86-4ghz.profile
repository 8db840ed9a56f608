# Generic x86-64 server core, the default profile of the reference elements.
# The reference NIC and the traffic elements charge no CPU unless a pipeline sets a cost, so this profile only fixes the
# clock that converts cycles to time and the number of cores.
name = generic-x86-4ghz | source: the 4 GHz machine of Jesper Brouer's slab_bulk_test figures (shared/research/kernel-models.md section 3)
frequencyHz = 4000000000 | source: kernel-models.md section 3, slab_bulk_test run "at 4 GHz"
cores = 2 | source: Ringlab default, enough for an interrupt core and an application core
