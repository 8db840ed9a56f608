package io.ringlab.traffic;

import io.ringlab.sim.api.Configuration;
import io.ringlab.sim.api.CostProfile;

/**
 * The TCP settings of one element, read once from its properties: what a Linux host's {@code net.ipv4.tcp_*} sysctls and
 * the socket's options say, for the {@link Kernel} the element follows. Shared by the {@code tcp} sender and the
 * {@code host} receiver (both read the same property names; {@link TcpProperties} declares them once). Immutable.
 */
final class TcpConfig {
    /** {@code TCP_RTO_MAX}: 120 s. */
    static final long MAX_RTO_PICOS = 120_000_000_000_000L;
    /** {@code TCP_TIMEOUT_INIT}: 1 s (RFC 6298 §2.1). */
    static final long INITIAL_RTO_PICOS = 1_000_000_000_000L;
    /** {@code TCP_DELACK_MAX} = HZ/5: 200 ms (include/net/tcp.h); TLP's allowance for a delayed ACK. */
    static final long DELACK_MAX_PICOS = 200_000_000_000L;

    final Kernel kernel;
    /** {@code tp->advmss}: the payload bytes per full segment with the timestamps option ({@code mss} property). */
    final int mss;
    final boolean sack, dsack, timestamps, windowScaling;
    /** {@code tcp_frto}: 0 off, 1 basic, 2 SACK-enhanced (RFC 5682 §3.1, the default since 3.10). */
    final int frto;
    /** {@code tcp_early_retrans}: 0 off, 1-2 early retransmit, 3 ER with delay + TLP, 4 TLP only (3.5+). */
    final int earlyRetrans;
    /** {@code tcp_recovery} bit 0 ({@code TCP_RACK_LOSS_DETECTION}, named {@code TCP_RACK_LOST_RETRANS} in 4.4-4.9). */
    final boolean rack;
    /** {@code tcp_fack} (removed in 4.15): FACK counting in {@code tcp_mark_head_lost} and {@code tcp_dupack_heuristics}. */
    final boolean fack;
    /** {@code tcp_reordering}: the initial dupthresh, 3. */
    final int reordering;
    /** {@code tcp_rmem} and {@code tcp_wmem}: min, default, max bytes. */
    final int[] rmem, wmem;
    final long minRto;
    final int initialCwnd, initialSsthresh;
    /** {@code TCP_ATO_MIN} / the delayed-ACK timeout, picoseconds; 0 acknowledges every segment at once. */
    final long delayedAck;
    final int hz;
    /** {@code tcp_slow_start_after_idle}. */
    final boolean slowStartAfterIdle;
    /** The socket-memory sizes of the kernel build the run's cost profile states. */
    final SkbSizes skb;

    TcpConfig(Configuration c, String element, CostProfile profile) {
        this.skb = SkbSizes.of(profile, element);
        this.kernel = Kernel.of(c.getString("kernel"));
        this.mss = (int) c.getBytes("mss");
        this.sack = c.getBoolean("sack") && !c.getString("recovery").equals("newreno");
        this.dsack = c.getBoolean("dsack");
        this.timestamps = c.getBoolean("timestamps");
        this.windowScaling = c.getBoolean("windowScaling");
        this.frto = (int) c.getLong("frto");
        this.earlyRetrans = (int) c.getLong("earlyRetrans");
        String recovery = c.getString("tcpRecovery");
        this.rack = recovery.equals("kernel") ? kernel.hasRack() : (Integer.parseInt(recovery) & 1) != 0;
        if (rack && !kernel.hasRack()) {
            throw new IllegalArgumentException(element + ".tcpRecovery = " + recovery + ": kernel " + kernel.id
                    + " has no RACK (tcp_recovery appeared in v4.4); use 0 or kernel");
        }
        String f = c.getString("fack");
        this.fack = f.equals("kernel") ? kernel.hasFack() : Boolean.parseBoolean(f);
        if (fack && !kernel.hasFack()) {
            throw new IllegalArgumentException(element + ".fack = true: kernel " + kernel.id
                    + " has no FACK (removed in v4.15); use false or kernel");
        }
        this.reordering = (int) c.getLong("reordering");
        String r = c.getString("tcpRmem");
        this.rmem = triple(r.equals(TcpProperties.KERNEL_DEFAULT) ? TcpProperties.defaultRmem(kernel) : r,
                element + ".tcpRmem");
        this.wmem = triple(c.getString("tcpWmem"), element + ".tcpWmem");
        this.minRto = c.getPicos("minRto");
        this.initialCwnd = (int) c.getLong("initialCwnd");
        this.initialSsthresh = (int) c.getLong("initialSsthresh");
        this.delayedAck = c.getPicos("delayedAck");
        this.hz = (int) c.getLong("hz");
        this.slowStartAfterIdle = c.getBoolean("slowStartAfterIdle");
    }

    /**
     * @param text three sizes in bytes, as the sysctl takes them ({@code "4096 87380 6291456"})
     * @param where the element and property, for the error
     * @return min, default, max
     */
    static int[] triple(String text, String where) {
        String[] parts = text.trim().split("\\s+");
        if (parts.length != 3) {
            throw new IllegalArgumentException(where + " = \"" + text + "\": three sizes in bytes are allowed, min default"
                    + " max, as the sysctl takes them (\"4096 87380 6291456\")");
        }
        int[] v = new int[3];
        for (int i = 0; i < 3; i++) {
            try {
                v[i] = Integer.parseInt(parts[i]);
            } catch (NumberFormatException e) {
                throw new IllegalArgumentException(where + " = \"" + text + "\": '" + parts[i]
                        + "' is not a number of bytes (1 to 2147483647)");
            }
            if (v[i] < 1) {
                throw new IllegalArgumentException(where + " = \"" + text + "\": '" + parts[i]
                        + "' is not a number of bytes (1 to 2147483647)");
            }
        }
        if (v[0] > v[1] || v[1] > v[2]) {
            throw new IllegalArgumentException(where + " = \"" + text + "\": min <= default <= max is required");
        }
        return v;
    }

    /** @return the TCP timestamp clock ({@code tcp_time_stamp}) at {@code picos}: jiffies at HZ up to 4.12, 1 ms since 4.13. */
    long tsClock(long picos) {
        if (kernel == Kernel.CURRENT) {
            return picos / 1_000_000_000L; // tcp_clock_ms (commit 9a568de4818d, "tcp: switch TCP TS option (RFC 7323) to 1ms clock")
        }
        long s = picos / 1_000_000_000_000L;
        long rest = picos % 1_000_000_000_000L;
        return s * hz + rest * hz / 1_000_000_000_000L;
    }

    /** @return picoseconds per tick of {@link #tsClock}. */
    long tsTickPicos() {
        return kernel == Kernel.CURRENT ? 1_000_000_000L : 1_000_000_000_000L / hz;
    }

    /** @return picoseconds per jiffy at the configured HZ (timers are jiffies: {@code TCP_TIMEOUT_MIN} is 2 of them). */
    long jiffyPicos() {
        return 1_000_000_000_000L / hz;
    }

    /**
     * {@code tcp_win_from_space} for kernels with {@code tcp_adv_win_scale} = 1 (its default since 2.6.x, until
     * v6.5 replaced it with the measured {@code scaling_ratio}, which starts at the same 50 %): half the space.
     */
    static int winFromSpace(int space) {
        return space - (space >> 1);
    }
}
