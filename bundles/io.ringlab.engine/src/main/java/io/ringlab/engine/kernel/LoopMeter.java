package io.ringlab.engine.kernel;

/**
 * The engine thread's own measurements of a run's loop: wall time, CPU time and bytes allocated
 * ({@code RunResultDTO.wallMeasurements}).
 */
final class LoopMeter {
    final long wallStart = System.nanoTime();
    long allocStart = -1, allocEnd = -1, cpuStart = -1, cpuEnd = -1;
    long loopStart = wallStart, loopNanos;

    void start() {
        allocStart = Allocation.currentThreadAllocatedBytes();
        cpuStart = Allocation.currentThreadCpuNanos();
        loopStart = System.nanoTime();
    }

    void stop() {
        allocEnd = Allocation.currentThreadAllocatedBytes();
        cpuEnd = Allocation.currentThreadCpuNanos();
        loopNanos = System.nanoTime() - loopStart;
    }

    long cpuNanos() {
        return cpuStart < 0 || cpuEnd < 0 ? -1 : cpuEnd - cpuStart;
    }
}
