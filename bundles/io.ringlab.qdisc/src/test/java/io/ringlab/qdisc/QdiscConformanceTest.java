package io.ringlab.qdisc;

import org.junit.jupiter.api.Nested;

import io.ringlab.conformance.QdiscContract;
import io.ringlab.queue.api.QdiscProvider;
import io.ringlab.sim.api.ElementFactory;

/** The qdisc contract for each kind of this bundle, with its element. */
class QdiscConformanceTest {

    @Nested
    class Pfifo extends QdiscContract {
        @Override protected QdiscProvider provider() { return new PfifoProvider(); }
        @Override protected String kind() { return "pfifo"; }
        @Override protected ElementFactory elementFactory() { return new PfifoFactory(); }
    }

    /** One band for the kit's packets (priority 0, TOS 0): first in, first out. */
    @Nested
    class PfifoFast extends QdiscContract {
        @Override protected QdiscProvider provider() { return new PfifoFastProvider(); }
        @Override protected String kind() { return "pfifo_fast"; }
        @Override protected ElementFactory elementFactory() { return new PfifoFastFactory(); }
    }

    /** Deficit round robin between flows: first in, first out within a flow. */
    @Nested
    class FqCodel extends QdiscContract {
        @Override protected QdiscProvider provider() { return new FqCodelProvider(); }
        @Override protected String kind() { return "fq_codel"; }
        @Override protected ElementFactory elementFactory() { return new FqCodelFactory(); }
        @Override protected Order order() { return Order.PER_FLOW; }
    }
}
