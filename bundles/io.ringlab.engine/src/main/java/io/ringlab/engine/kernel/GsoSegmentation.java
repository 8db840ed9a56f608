package io.ringlab.engine.kernel;

import io.ringlab.buffer.api.Buffer;
import io.ringlab.buffer.api.BufferDestructor;
import io.ringlab.buffer.api.BufferPool;

/**
 * Software GSO, {@code skb_gso_segment} (net/core/gso.c) with {@code tcp_gso_segment} (net/ipv4/tcp_offload.c): a GSO
 * buffer becomes one buffer per wire segment, each with its share of the payload, its packet id, sequence number,
 * page fragments and truesize. Allocation-free: the segments come from a pool in one bulk call.
 */
final class GsoSegmentation {
    private GsoSegmentation() {
    }

    /** A socket's page fragment (SKB_FRAG_PAGE_ORDER = get_order(32768), include/net/sock.h): see {@link #segment}. */
    static final int PAGE_FRAG_BYTES = 32768;

    /**
     * {@code skb_gso_segment}: see {@link io.ringlab.sim.api.ElementContext#segment}.
     *
     * @param core the core running the segmentation, which the pool's calls name
     * @param element the element segmenting, the segments' owner
     * @return the segments written, or 0 (nothing allocated)
     */
    static int segment(int core, int element, Buffer gso, BufferPool pool, Buffer[] dst) {
        int n = gso.segments();
        if (n < 1 || dst.length < n || gso.packetId() < 0 || pool.available() < n) {
            return 0;
        }
        int got = pool.allocBulk(core, element, dst, 0, n);
        if (got < n) { // a pool whose available() promised more than it gave: undo, as kmem_cache_alloc_bulk does
            pool.freeBulk(core, dst, 0, got);
            for (int k = 0; k < got; k++) {
                dst[k] = null;
            }
            return 0;
        }
        // the TCP header the model gave the GSO buffer (20 bytes + options), else the convention's 32
        int headers = gso.tcpHeaderBytes() > 0 ? 14 + 20 + gso.tcpHeaderBytes()
                : io.ringlab.sim.api.ElementContext.GSO_HEADER_BYTES;
        int payload = Math.max(0, gso.length() - headers);
        int gsoSize = (payload + n - 1) / n;
        long firstId = gso.packetId();
        long seq = gso.seq();
        int truesize = gso.truesize();
        long totalLength = gso.length();
        int given = 0;
        int left = payload;
        BufferDestructor d = gso.destructor();
        for (int k = 0; k < n; k++) {
            PacketBuffer seg = (PacketBuffer) dst[k];
            seg.copyMetadataFrom(gso);
            int p = k == n - 1 ? left : Math.min(gsoSize, left);
            int len = headers + p;
            seg.length(len);
            seg.segments(1);
            seg.packetId = firstId + k;
            seg.seq(seq);
            if (k < n - 1) { // tcp_gso_segment: FIN and PSH only on the last segment (th->fin = th->psh = 0 before it)
                seg.flags(gso.flags() & ~(Buffer.TCP_FIN | Buffer.TCP_PSH));
            }
            if (gso.fragments() > 0 && p > 0) {
                // skb_segment on a scatter-gather device: a segment references the page fragments its payload bytes lie
                // in; a socket fills 32 KB page fragments in stream order (SKB_FRAG_PAGE_ORDER, include/net/sock.h), so a
                // segment has one, or two where it crosses a 32 KB boundary of the stream
                seg.fragments((int) ((seq + p - 1) / PAGE_FRAG_BYTES - seq / PAGE_FRAG_BYTES + 1));
            } else {
                seg.fragments(0);
            }
            seq += p;
            left -= p;
            // tcp_gso_segment: each segment's share of the truesize, the last takes the rest (sum_truesize)
            int share = k == n - 1 ? truesize - given : (int) (truesize * (long) len / totalLength);
            seg.truesize(share);
            given += share;
            seg.destructor(d);
        }
        if (d != null) {
            d.segmented(gso, dst, n); // the protocol's gso_segment: tcp_gso_segment's sum_truesize
        }
        ((PacketBuffer) gso).packetId = -1;
        gso.truesize(0);
        gso.destructor(null);
        return n;
    }
}
