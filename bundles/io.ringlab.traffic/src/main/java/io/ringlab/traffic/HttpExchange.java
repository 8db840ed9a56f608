package io.ringlab.traffic;

import io.ringlab.buffer.api.Buffer;

/**
 * The frames of one proxied HTTP/1.0 connection as the proxy's network port sees them, shared by {@code http-load} (the
 * clients and the server beyond the port) and {@code haproxy} (the proxy on the board). A frame is a TCP packet whose
 * {@link Buffer#flow()} is the connection's slot, {@link Buffer#seq()} the connection's serial number (a slot is reused by
 * later connections; a frame of an earlier serial is stale), {@link Buffer#flags()} the frame kind below and
 * {@link Buffer#ack()} the byte offset a data segment starts at or an acknowledgement covers.
 * <p>
 * One short connection (handshake, GET, an empty file, close), in order:
 * <pre>
 *  client -> proxy   C_SYN          74 B
 *  proxy  -> client  P_SYNACK       74 B   (kernel)
 *  client -> proxy   C_ACK, C_GET   66 B, 66 + request B
 *  proxy  -> server  P_SYN          74 B   (haproxy: accept, read, connect)
 *  server -> proxy   S_SYNACK       74 B
 *  proxy  -> server  P_ACK, P_GET   66 B (kernel), 66 + request B (haproxy)
 *  server -> proxy   S_DATA..., S_FIN    66 + response header B (one segment for an empty file), 66 B
 *  proxy  -> client  P_DATA..., P_FIN    the same segments, 66 B (haproxy forwards and closes both sides)
 *  proxy  -> server  P_FINACK       66 B
 *  server -> proxy   S_LASTACK      66 B
 *  client -> proxy   C_ACKFIN, C_FIN     66 B, 66 B (client kernel acknowledges, then the client closes)
 *  proxy  -> client  P_LASTACK      66 B   (kernel)
 * </pre>
 * That is 9 frames in and 8 out per connection, all of them under {@code rx_copybreak} (256 B) for an empty file. A longer
 * response goes as MSS-sized segments: the server keeps at most a window of unacknowledged bytes; the proxy's kernel
 * acknowledges every second segment ({@code P_ACKDATA}), the client's every second forwarded one ({@code C_ACKDATA}),
 * as Linux's {@code __tcp_ack_snd_check} does for full-sized segments.
 * <p>
 * Sizes are {@code skb->len} (Ethernet frame without FCS): Ethernet 14 + IPv4 20 + TCP 20, plus TCP options: 20 on a
 * SYN or SYN-ACK (MSS 4, SACK permitted 2, timestamps 10, NOP 1, window scale 3: Linux's {@code tcp_syn_options}), 12
 * (timestamps and two NOPs) on every other segment; so 74 and 66 bytes, and an MSS of 1448 payload bytes at MTU 1500.
 */
final class HttpExchange {
    /** Frame kinds ({@link Buffer#flags()}). C = client, S = server, P = proxy (the board). */
    static final int C_SYN = 1, C_ACK = 2, C_GET = 3, C_ACKDATA = 4, C_ACKFIN = 5, C_FIN = 6,
            S_SYNACK = 7, S_DATA = 8, S_FIN = 9, S_LASTACK = 10,
            P_SYNACK = 11, P_SYN = 12, P_ACK = 13, P_GET = 14, P_DATA = 15, P_ACKDATA = 16, P_FIN = 17, P_FINACK = 18,
            P_LASTACK = 19;
    /** A SYN or SYN-ACK: 14 + 20 + 20 + 20 bytes of options. */
    static final int SYN_BYTES = 74;
    /** Headers of every other segment: 14 + 20 + 20 + 12 bytes of timestamp option. */
    static final int HEADER_BYTES = 66;
    /** TCP payload per segment at MTU 1500 with timestamps: 1500 - 20 - 20 - 12. */
    static final int MSS = 1448;
    /** The largest frame: a full segment. */
    static final int MAX_FRAME = HEADER_BYTES + MSS;

    private HttpExchange() {
    }

    /** @return {@code true} for the frames the proxy receives from a client */
    static boolean fromClient(int kind) {
        return kind >= C_SYN && kind <= C_FIN;
    }

    /** @return the length of a frame of {@code kind} carrying {@code payload} bytes */
    static int frameBytes(int kind, int payload) {
        return kind == C_SYN || kind == S_SYNACK || kind == P_SYNACK || kind == P_SYN ? SYN_BYTES : HEADER_BYTES + payload;
    }

    /** Fills {@code b} as a frame of connection {@code slot}/{@code serial}. */
    static void fill(Buffer b, int kind, int slot, long serial, long offset, int payload) {
        b.length(frameBytes(kind, payload));
        b.protocol(Buffer.PROTO_TCP);
        b.flags(kind);
        b.flow(slot);
        b.seq(serial);
        b.ack(offset);
    }

    /** @return TCP payload bytes of a frame */
    static int payload(Buffer b) {
        int kind = b.flags();
        return kind == C_SYN || kind == S_SYNACK || kind == P_SYNACK || kind == P_SYN ? 0 : b.length() - HEADER_BYTES;
    }
}
