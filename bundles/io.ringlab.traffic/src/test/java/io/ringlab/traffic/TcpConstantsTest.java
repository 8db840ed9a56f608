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
    void aGsoSkbIsChargedOneHeadPlusThePayloadOfTheOtherSegments() {
        assertEquals(io.ringlab.sim.api.ElementContext.GSO_HEADER_BYTES, Tcp.HEADERS, "segment() splits with these headers");
        assertEquals(2304, Tcp.gsoTruesize(1448, 1));
        assertEquals(2304 + 9 * 1448, Tcp.gsoTruesize(1448, 10));
        assertEquals(45, (Tcp.GSO_MAX_SIZE - 1 - Tcp.MAX_TCP_HEADER) / 1448, "tcp_tso_autosize's cap at an MSS of 1448");
    }
}
