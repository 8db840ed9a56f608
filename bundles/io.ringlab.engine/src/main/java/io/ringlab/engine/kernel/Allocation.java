package io.ringlab.engine.kernel;

import java.lang.invoke.MethodHandle;
import java.lang.invoke.MethodHandles;
import java.lang.invoke.MethodType;
import java.lang.management.ManagementFactory;

/**
 * Reads the heap bytes the current thread has allocated ({@code com.sun.management.ThreadMXBean}), looked up through the
 * platform class loader so that the engine bundle needs no import of {@code com.sun.management} inside OSGi, and the CPU
 * time it has used ({@code java.lang.management.ThreadMXBean}): the engine thread's own measurements.
 */
public final class Allocation {
    private static final MethodHandle CURRENT = lookup();

    private Allocation() {
    }

    private static MethodHandle lookup() {
        try {
            Class<?> type = ClassLoader.getPlatformClassLoader().loadClass("com.sun.management.ThreadMXBean");
            Object bean = ManagementFactory.getThreadMXBean();
            if (!type.isInstance(bean)) {
                return null;
            }
            MethodHandle h = MethodHandles.publicLookup().findVirtual(type, "getCurrentThreadAllocatedBytes",
                    MethodType.methodType(long.class));
            return h.bindTo(bean);
        } catch (ReflectiveOperationException | RuntimeException e) {
            return null;
        }
    }

    /** @return CPU time the current thread has used so far in nanoseconds (user and system), or -1 if the JVM does not tell */
    public static long currentThreadCpuNanos() {
        java.lang.management.ThreadMXBean bean = ManagementFactory.getThreadMXBean();
        return bean.isCurrentThreadCpuTimeSupported() ? bean.getCurrentThreadCpuTime() : -1;
    }

    /** @return bytes allocated by the current thread so far, or -1 if the JVM does not tell. */
    public static long currentThreadAllocatedBytes() {
        if (CURRENT == null) {
            return -1;
        }
        try {
            return (long) CURRENT.invokeExact();
        } catch (Throwable e) {
            return -1;
        }
    }
}
