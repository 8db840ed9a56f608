package io.ringlab.traffic;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

import org.junit.jupiter.api.Test;

/** The receiver's out-of-order record: sorted, disjoint, merged ranges; the left edge moves over what is contiguous. */
class SeqRangesTest {

    private static String show(SeqRanges r) {
        StringBuilder sb = new StringBuilder();
        for (int i = 0; i < r.count(); i++) {
            sb.append('[').append(r.start(i)).append(',').append(r.end(i)).append(')');
        }
        return sb.toString();
    }

    @Test
    void rangesAreKeptSortedAndMergedWhenTheyTouchOrOverlap() {
        SeqRanges r = new SeqRanges(8);
        r.add(300, 400);
        r.add(100, 200);
        r.add(500, 600);
        assertEquals("[100,200)[300,400)[500,600)", show(r));
        r.add(200, 300); // touches both neighbours
        assertEquals("[100,400)[500,600)", show(r));
        r.add(350, 550); // overlaps both
        assertEquals("[100,600)", show(r));
        r.add(150, 160); // inside
        assertEquals("[100,600)", show(r));
    }

    @Test
    void advanceMovesTheEdgeOverContiguousRangesOnly() {
        SeqRanges r = new SeqRanges(8);
        r.add(200, 300);
        r.add(400, 500);
        assertEquals(100, r.advance(100), "a hole at 100: nothing moves");
        assertEquals(300, r.advance(200));
        assertEquals("[400,500)", show(r));
        assertEquals(500, r.advance(450), "an edge inside a range takes the range");
        assertTrue(r.isEmpty());
    }

    @Test
    void aFullRecordRefusesANewRangeButStillMerges() {
        SeqRanges r = new SeqRanges(2);
        assertTrue(r.add(100, 200));
        assertTrue(r.add(300, 400));
        assertFalse(r.add(500, 600));
        assertEquals("[100,200)[300,400)", show(r));
        assertTrue(r.add(400, 450), "adjacent: merges without a new slot");
        assertEquals("[100,200)[300,450)", show(r));
    }

    @Test
    void aSmallRecordGrowsUpToItsMaximumAndThenRefuses() {
        SeqRanges r = new SeqRanges(2, 5);
        for (int k = 0; k < 5; k++) {
            assertTrue(r.add(10 * k, 10 * k + 5), "hole " + k);
        }
        assertEquals(5, r.count());
        assertFalse(r.add(100, 105), "a sixth separate range is over the maximum");
        assertTrue(r.add(5, 10), "merging needs no new place");
        assertEquals(4, r.count());
        assertEquals(0, r.start(0));
        assertEquals(15, r.end(0));
    }
}
