package io.ringlab.engine.kernel;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertNull;

import java.util.ArrayList;
import java.util.List;

import org.junit.jupiter.api.Test;

import io.ringlab.buffer.api.Buffer;
import io.ringlab.buffer.api.BufferDestructor;

/** skb->destructor: called once when the buffer is freed, never on a refused double free, cleared by allocation. */
class DestructorTest {
    private final Simulation sim = new Simulation(new TestRegistry(), new TestRegistry().profile("generic-x86-4ghz"), 1);

    @Test
    void theDestructorRunsOnceWithTheMetadataStillThere() {
        FixedPool pool = new FixedPool(sim, "p", 2, 1500);
        List<Long> freed = new ArrayList<>();
        BufferDestructor d = b -> freed.add((long) b.length());
        Buffer b = pool.alloc(0, -1);
        b.length(1514);
        b.destructor(d);
        Buffer copy = pool.alloc(0, -1);
        copy.copyMetadataFrom(b);
        assertNull(copy.destructor(), "a copy is orphaned");
        pool.free(0, b);
        pool.free(0, b); // a double free: refused, the destructor does not run again
        assertEquals(List.of(1514L), freed);
        Buffer again = pool.alloc(0, -1);
        assertNull(again.destructor(), "allocation clears the destructor");
    }
}
