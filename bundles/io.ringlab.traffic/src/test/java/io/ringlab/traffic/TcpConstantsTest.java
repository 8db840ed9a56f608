package io.ringlab.traffic;

import static org.junit.jupiter.api.Assertions.assertEquals;

import org.junit.jupiter.api.Test;

/** Segment sizes and the truesize charged to sk_wmem_alloc. */
class TcpConstantsTest {

    @Test
    void aFullSizedSegmentIsA1514ByteFrameOf2304BytesTruesize() {
        assertEquals(1514, 1448 + Tcp.HEADERS, "MSS 1448 with timestamps fills a 1500-byte MTU");
        assertEquals(2304, Tcp.truesize(1514), "a kmalloc-2048 head plus struct sk_buff");
        assertEquals(2304, Tcp.truesize(66), "a short segment still takes the 2 KB head");
    }

    @Test
    void aJumboSegmentIsChargedItsRoundedLengthAndBothOverheads() {
        assertEquals(9024 + 320 + 256, Tcp.truesize(9014));
    }

    @Test
    void aGsoSkbIsChargedItsHeadPlusThePayloadBeyondTheLinearPart() {
        assertEquals(io.ringlab.sim.api.ElementContext.GSO_HEADER_BYTES, Tcp.HEADERS, "segment() splits with these headers");
        assertEquals(1568, Tcp.LINEAR_PAYLOAD, "select_size: SKB_WITH_OVERHEAD(2048 - MAX_TCP_HEADER)");
        assertEquals(2304, Tcp.gsoTruesize(1448, 1), "one MSS fits the linear part");
        assertEquals(2304 + 10 * 1448 - 1568, Tcp.gsoTruesize(1448, 10));
        assertEquals(45, (Tcp.GSO_MAX_SIZE - 1 - Tcp.MAX_TCP_HEADER) / 1448, "tcp_tso_autosize's cap at an MSS of 1448");
    }

    @Test
    void onlyThePayloadBeyondTheLinearPartLiesInPageFragments() {
        assertEquals(0, Tcp.skbFrags(0, 1448), "a one-MSS skb is linear: one descriptor");
        assertEquals(1, Tcp.skbFrags(0, 10 * 1448));
        assertEquals(2, Tcp.skbFrags(32768 - 2000, 10 * 1448), "its fragment bytes cross a 32 KB page fragment");
    }

    @Test
    void kmallocRoundsUpToItsSizeClasses() {
        assertEquals(96, Tcp.kmallocSize(65));
        assertEquals(128, Tcp.kmallocSize(97));
        assertEquals(192, Tcp.kmallocSize(160));
        assertEquals(512, Tcp.kmallocSize(512));
        assertEquals(1024, Tcp.kmallocSize(640));
        assertEquals(2048, Tcp.kmallocSize(1984));
        assertEquals(16384, Tcp.kmallocSize(9000), "a page allocation above kmalloc-8k");
    }

    @Test
    void skbSegmentGivesEachSegmentItsOwnHeadAndFragmentBytes() {
        assertEquals(2304, Tcp.segmentTruesize(1448, 0), "all linear: 1448 + 160 -> 1664 + 320 = 1984 -> kmalloc-2048");
        assertEquals(1024 + 256 + 1328, Tcp.segmentTruesize(120, 1328), "120 linear bytes: a kmalloc-1024 head");
        assertEquals(512 + 256 + 1448, Tcp.segmentTruesize(0, 1448), "headers only: 160 -> 192 + 320 = 512");
    }
}
