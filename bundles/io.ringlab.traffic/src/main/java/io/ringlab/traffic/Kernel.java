package io.ringlab.traffic;

import java.util.List;

/**
 * The kernel whose TCP a {@code tcp} or {@code host} element follows (property {@code kernel}): the release whose
 * {@code net/ipv4/tcp_input.c}, {@code tcp_output.c}, {@code tcp_recovery.c}, {@code tcp_timer.c} and
 * {@code tcp_cubic.c} the code cites, with that release's sysctl defaults. Each sample pipeline names the kernel of its
 * scenario (docs/models/tcp.md, "Kernel presets").
 * <ul>
 * <li>{@link #V3_19}: Linux 3.19 (February 2015), the net-next tree the stmmac BQL patch was measured on (seed 001):
 * SACK with FACK ({@code tcp_fack = 1}), dupthresh loss marking ({@code tcp_mark_head_lost}), early retransmit and TLP
 * ({@code tcp_early_retrans = 3}), PRR, F-RTO ({@code tcp_frto = 2}), HyStart on a millisecond clock; no RACK (the
 * {@code tcp_recovery} sysctl does not exist).</li>
 * <li>{@link #V4_6}: Linux 4.6 (May 2016), the era of the mlx5 and mvneta seeds: as 3.19 plus RACK loss detection
 * ({@code tcp_rack_mark_lost}, v4.4, {@code tcp_recovery = 1}) beside FACK and dupthresh, HyStart on a microsecond
 * clock; RACK has no reordering timer yet (v4.10).</li>
 * <li>{@link #CURRENT}: Linux 6.12 (November 2024), the release packetdrill's {@code gtests/net/tcp} scripts are run
 * against: RACK-TLP (RFC 8985): with {@code tcp_recovery = 1} a SACK flow's losses are marked by RACK only (FACK was
 * removed in v4.15; {@code tcp_time_to_recover} applies the dupthresh rule only without RACK), with the reordering timer
 * (v4.10) and the adaptive reordering window; TLP; PRR; HyStart's v5.7 ACK-train and delay thresholds.</li>
 * </ul>
 */
enum Kernel {
    V3_19("v3.19"), V4_6("v4.6"), CURRENT("current");

    /** The property value naming the preset. */
    final String id;

    Kernel(String id) {
        this.id = id;
    }

    /** @return the property values, in release order. */
    static List<String> ids() {
        return List.of(V3_19.id, V4_6.id, CURRENT.id);
    }

    /**
     * @param id a property value
     * @return the preset
     * @throws IllegalArgumentException naming the allowed values (the property's validation refuses others first)
     */
    static Kernel of(String id) {
        for (Kernel k : values()) {
            if (k.id.equals(id)) {
                return k;
            }
        }
        throw new IllegalArgumentException("kernel '" + id + "': allowed are " + ids());
    }

    /** @return {@code true} from v4.4 on: RACK loss detection exists ({@code tcp_recovery}). */
    boolean hasRack() {
        return this != V3_19;
    }

    /** @return {@code true} before v4.15: FACK exists ({@code tcp_fack}). */
    boolean hasFack() {
        return this != CURRENT;
    }

    /**
     * @return {@code true} from v5.4 on: {@code __tcp_transmit_skb} sets PSH on every packet of more than one segment
     *         (051ba67447de, "tcp: force a PSH flag on TSO packets", Eric Dumazet, September 2019, v5.4: {@code if
     *         (tcp_skb_pcount(skb) > 1) tcb->tcp_flags |= TCPHDR_PSH;} on the clone it transmits, so the skb in the
     *         retransmit queue keeps its own flags)
     */
    boolean forcesPshOnGso() {
        return this == CURRENT;
    }

    /**
     * @return {@code true} before v6.10: {@code tcp_cwnd_test} returns 1 for a one-segment skb with FIN whatever the
     *         cwnd ("Don't be strict about the congestion window for the final FIN"; removed by 22555032c513, "tcp:
     *         remove dubious FIN exception from tcp_cwnd_test()", April 2024, v6.10)
     */
    boolean exemptsFinFromCwnd() {
        return this != CURRENT;
    }

    /** @return {@code true} from v4.3 on: {@code tcp_in_slow_start} is {@code cwnd < ssthresh} (before: {@code <=}). */
    boolean slowStartStrict() {
        return this != V3_19;
    }
}
