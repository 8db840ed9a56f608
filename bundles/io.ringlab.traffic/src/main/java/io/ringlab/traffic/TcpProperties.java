package io.ringlab.traffic;

import java.util.List;

import io.ringlab.sim.api.dto.ElementDescriptorDTO;
import io.ringlab.sim.api.dto.PropertyDescriptorDTO;
import io.ringlab.sim.api.dto.PropertyDescriptorDTO.Kind;

/**
 * The TCP properties the {@code tcp} sender and the {@code host} receiver share, declared once: what {@link TcpConfig}
 * reads. Each names the sysctl or socket setting it stands for, so that a packetdrill script's {@code sysctl} lines map
 * onto them.
 */
final class TcpProperties {
    /** The value of {@code tcpRecovery}, {@code fack}, {@code tcpRmem} that means "what the kernel preset has". */
    static final String KERNEL_DEFAULT = "kernel";

    private TcpProperties() {
    }

    /** Adds the shared properties to a descriptor. */
    static void addTo(ElementDescriptorDTO d) {
        d.properties.add(PropertyDescriptorDTO.choice("kernel", Kernel.CURRENT.id, Kernel.ids(),
                "the kernel whose TCP this follows (docs/models/tcp.md, 'Kernel presets'): v3.19 (SACK + FACK, dupthresh,"
                        + " early retransmit, TLP, PRR, F-RTO), v4.6 (+ RACK after recovery starts), current (RACK-TLP,"
                        + " reordering timer, no FACK)"));
        d.properties.add(PropertyDescriptorDTO.choice("recovery", KERNEL_DEFAULT, List.of(KERNEL_DEFAULT, "newreno"),
                "loss recovery: 'kernel' (the preset's SACK-based recovery) or 'newreno' (this end offers no SACK, so the"
                        + " connection runs tcp_fastretrans_alert's NewReno branch, RFC 6582; for comparison)"));
        d.properties.add(PropertyDescriptorDTO.of("sack", Kind.BOOLEAN, "true", null, null,
                "offer and use SACK (net.ipv4.tcp_sack, RFC 2018); both ends must offer it"));
        d.properties.add(PropertyDescriptorDTO.of("dsack", Kind.BOOLEAN, "true", null, null,
                "send D-SACK blocks for duplicate data (net.ipv4.tcp_dsack, RFC 2883)"));
        d.properties.add(PropertyDescriptorDTO.of("timestamps", Kind.BOOLEAN, "true", null, null,
                "offer and use the timestamps option (net.ipv4.tcp_timestamps, RFC 7323): 12 header bytes per segment"));
        d.properties.add(PropertyDescriptorDTO.of("windowScaling", Kind.BOOLEAN, "true", null, null,
                "offer window scaling (net.ipv4.tcp_window_scaling, RFC 7323 §2)"));
        d.properties.add(PropertyDescriptorDTO.of("frto", Kind.INTEGER, "2", "0", "2",
                "F-RTO after a timeout (net.ipv4.tcp_frto): 0 off, 1 and 2 the SACK-enhanced RFC 5682 algorithm as"
                        + " tcp_process_loss runs it since 3.10"));
        d.properties.add(PropertyDescriptorDTO.of("earlyRetrans", Kind.INTEGER, "3", "0", "4",
                "net.ipv4.tcp_early_retrans: 0 neither, 1-2 early retransmit (RFC 5827, v3.19/v4.6 only), 3 delayed ER"
                        + " + tail loss probe, 4 TLP only"));
        d.properties.add(PropertyDescriptorDTO.of("tcpRecovery", Kind.STRING, KERNEL_DEFAULT, null, null,
                "net.ipv4.tcp_recovery: 'kernel' (1 from v4.4 on, absent in v3.19), or a number whose bit 0 turns RACK"
                        + " loss detection on"));
        d.properties.add(PropertyDescriptorDTO.of("fack", Kind.STRING, KERNEL_DEFAULT, null, null,
                "net.ipv4.tcp_fack: 'kernel' (true in v3.19 and v4.6; the sysctl was removed in v4.15), true or false"));
        d.properties.add(PropertyDescriptorDTO.of("reordering", Kind.INTEGER, "3", "1", "300",
                "net.ipv4.tcp_reordering: the initial dupthresh"));
        d.properties.add(PropertyDescriptorDTO.of("tcpRmem", Kind.STRING, KERNEL_DEFAULT, null, null,
                "net.ipv4.tcp_rmem 'MIN DEFAULT MAX' in bytes; 'kernel' is 4096 87380 6291456 (v3.19, v4.6) or"
                        + " 4096 131072 6291456 (since v5.4)"));
        d.properties.add(PropertyDescriptorDTO.of("tcpWmem", Kind.STRING, "4096 16384 4194304", null, null,
                "net.ipv4.tcp_wmem 'MIN DEFAULT MAX' in bytes (the send buffer autotunes up to MAX)"));
        d.properties.add(PropertyDescriptorDTO.of("mss", Kind.SIZE, "1448B", "88B", "8948B",
                "advertised MSS less the 12 timestamp option bytes (tp->advmss with timestamps): payload bytes per full"
                        + " segment; frames are mss + 66 bytes (1448 gives 1514: a 1500-byte MTU); 88 is TCP_MIN_MSS"));
        d.properties.add(PropertyDescriptorDTO.of("initialCwnd", Kind.INTEGER, "10", "1", "4096",
                "initial congestion window in segments (TCP_INIT_CWND, include/net/tcp.h; RFC 6928)"));
        d.properties.add(PropertyDescriptorDTO.of("initialSsthresh", Kind.INTEGER, "0", "0", "4096",
                "initial slow-start threshold in segments; 0 is TCP_INFINITE_SSTHRESH"));
        d.properties.add(PropertyDescriptorDTO.of("minRto", Kind.DURATION, "200ms", "1ms", "120s",
                "lower bound of the variance term of the retransmission timeout (TCP_RTO_MIN; ip route ... rto_min)"));
        d.properties.add(PropertyDescriptorDTO.of("delayedAck", Kind.DURATION, "40ms", "0s", "1s",
                "delayed-ACK timeout (TCP_DELACK_MIN = HZ/25 = 40 ms, the ato floor); 0 acknowledges every segment at once"));
        d.properties.add(PropertyDescriptorDTO.of("hz", Kind.INTEGER, "250", "100", "1000",
                "kernel HZ (CONFIG_HZ): jiffies clock CUBIC's bictcp_update and the timers use, and the TCP timestamp"
                        + " clock before v4.13"));
        d.properties.add(PropertyDescriptorDTO.of("slowStartAfterIdle", Kind.BOOLEAN, "true", null, null,
                "net.ipv4.tcp_slow_start_after_idle: restart the window after an idle RTO (tcp_cwnd_restart)"));
    }

    /** @return the {@code tcp_rmem} the kernel preset ships: tcp_init, net/ipv4/tcp.c. */
    static String defaultRmem(Kernel k) {
        // 87380 until commit a337531b942b ("tcp: up initial rmem to 128KB and SYN rwin to around 64KB", v5.4)
        return k == Kernel.CURRENT ? "4096 131072 6291456" : "4096 87380 6291456";
    }
}
