package io.ringlab.traffic;

import java.util.function.ObjLongConsumer;

/**
 * {@code tcp_get_info} (net/ipv4/tcp.c): a connection's {@code struct tcp_info} fields by the names packetdrill's
 * {@code %{ }%} blocks use, in the kernel's units (microseconds for times, segments for windows, bytes for MSS).
 */
final class TcpInfo {
    /** {@code TCPI_OPT_*} bits of {@code tcpi_options} (include/uapi/linux/tcp.h). */
    static final int OPT_TIMESTAMPS = 1, OPT_SACK = 2, OPT_WSCALE = 4;

    private TcpInfo() {
    }

    static void fill(TcpSock sk, ObjLongConsumer<String> out) {
        RtxQueue q = sk.q;
        out.accept("tcpi_state", sk.state);
        out.accept("tcpi_ca_state", sk.caState);
        out.accept("tcpi_retransmits", sk.retransmits);
        out.accept("tcpi_backoff", sk.backoff);
        out.accept("tcpi_options", (sk.tsOk ? OPT_TIMESTAMPS : 0) | (sk.sackOk ? OPT_SACK : 0)
                | (sk.wscaleOk ? OPT_WSCALE : 0));
        out.accept("tcpi_snd_wscale", sk.sndWscale);
        out.accept("tcpi_rcv_wscale", sk.rcv.rcvWscale);
        out.accept("tcpi_rto", sk.rtoPicos / 1_000_000L);
        out.accept("tcpi_ato", sk.cfg.delayedAck / 1_000_000L);
        out.accept("tcpi_snd_mss", sk.mssCache);
        out.accept("tcpi_rcv_mss", sk.rcv.rcvMss);
        out.accept("tcpi_unacked", q.packetsOut());
        out.accept("tcpi_sacked", q.sackedOut);
        out.accept("tcpi_lost", q.lostOut);
        out.accept("tcpi_retrans", q.retransOut);
        out.accept("tcpi_fackets", q.facketsOut);
        out.accept("tcpi_rtt", sk.srttUs >> 3);
        out.accept("tcpi_rttvar", sk.mdevUs >> 2);
        out.accept("tcpi_snd_ssthresh", sk.ssthresh());
        out.accept("tcpi_snd_cwnd", sk.cwnd());
        out.accept("tcpi_advmss", sk.advmss);
        out.accept("tcpi_reordering", sk.reordering);
        out.accept("tcpi_rcv_ssthresh", sk.rcv.rcvSsthresh);
        out.accept("tcpi_rcv_space", sk.rcv.spaceBytes);
        out.accept("tcpi_total_retrans", sk.totalRetrans);
        out.accept("tcpi_delivered", sk.delivered);
        out.accept("tcpi_min_rtt", sk.minRttUs() == Long.MAX_VALUE ? 0xFFFF_FFFFL : sk.minRttUs());
        out.accept("tcpi_snd_wnd", sk.sndWnd);
        out.accept("tcpi_bytes_acked", sk.bytesAcked);
        out.accept("tcpi_bytes_received", Math.max(0, sk.rcv.rcvNxt - sk.irs - 1));
    }
}
