package io.ringlab.traffic;

/**
 * What a {@link TcpSock} reports to its element ({@link TcpSock.Owner#event}): event codes the element maps onto its
 * counters, and drop codes it maps onto its drop reasons. Codes index arrays; they are dense from 0.
 */
final class TcpEvents {
    static final int SEGMENTS_SENT = 0, RETRANSMITS = 1, RECOVERIES = 2, RTO = 3, ACKED_BYTES = 4, DUP_ACKS = 5,
            ALLOC_FAILURES = 6, ACK_POOL_EMPTY = 7, ACKS_SENT = 8, DELAYED_ACKS = 9, RCV_SEGMENTS = 10,
            RCV_DUPLICATES = 11, RCV_OUT_OF_ORDER = 12, RWND_LIMITED = 13, WINDOW_PROBES = 14, LOSS_PROBES = 15,
            LOSS_PROBE_RECOVERIES = 16, SPURIOUS_RTOS = 17, UNDOS = 18, DSACKS_RECEIVED = 19, REORDERING = 20,
            LOST_RETRANSMITS = 21, FAST_RETRANS = 22, SLOW_START_RETRANS = 23;
    /** The number of event codes. */
    static final int COUNT = 24;

    /** Drop codes: not this connection's, old data, beyond the window, the out-of-order record full. */
    static final int DROP_NOT_OURS = 0, DROP_OLD = 1, DROP_OVER_WINDOW = 2, DROP_OFO = 3;
    /** The drop reasons, by drop code: what the elements register ({@code ElementContext.dropReason}). */
    static final String[] DROP_REASONS = {"tcp-not-ours", "tcp-old-data", "tcp-over-window", "tcp-ofo-drop"};

    private TcpEvents() {
    }
}
