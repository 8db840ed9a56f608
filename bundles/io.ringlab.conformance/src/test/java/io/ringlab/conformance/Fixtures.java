package io.ringlab.conformance;

import io.ringlab.buffer.api.BufferPoolProvider;
import io.ringlab.queue.api.QdiscProvider;
import io.ringlab.sim.api.ElementFactory;

/**
 * The contracts as third parties extend them, for the fixtures: {@link FixturesFailTheContractsTest} runs each with the
 * JUnit Platform launcher. Nested classes of a class whose name is no test's, so that surefire does not run them itself.
 */
final class Fixtures {
    private Fixtures() {
    }

    static class CorrectNic extends DriverContract {
        @Override protected ElementFactory factory() { return new FixtureNic(FixtureNic.Fault.NONE); }
    }

    static class NicSkippingBqlCompletion extends DriverContract {
        @Override protected ElementFactory factory() { return new FixtureNic(FixtureNic.Fault.SKIPS_BQL_COMPLETION); }
    }

    static class NicLosingARingBuffer extends DriverContract {
        @Override protected ElementFactory factory() { return new FixtureNic(FixtureNic.Fault.LOSES_A_RING_BUFFER); }
    }

    static class NicWhoseWalkMissesItsRing extends DriverContract {
        @Override protected ElementFactory factory() { return new FixtureNic(FixtureNic.Fault.WALK_MISSES_THE_RING); }
    }

    static class NicOnTheWallClock extends DriverContract {
        @Override protected ElementFactory factory() { return new FixtureNic(FixtureNic.Fault.WALL_CLOCK); }
    }

    static class NicWithAnUnseededRandom extends DriverContract {
        @Override protected ElementFactory factory() { return new FixtureNic(FixtureNic.Fault.UNSEEDED_RANDOM); }
    }

    static class NicDroppingItsRingInAHandover extends DriverContract {
        @Override protected ElementFactory factory() { return new FixtureNic(FixtureNic.Fault.HANDOVER_DROPS_RING); }
    }

    static class NicWithAnUndeclaredMetric extends DriverContract {
        @Override protected ElementFactory factory() { return new FixtureNic(FixtureNic.Fault.UNDECLARED_METRIC); }
    }

    static class NicDeclaringAnUnregisteredMetric extends DriverContract {
        @Override protected ElementFactory factory() { return new FixtureNic(FixtureNic.Fault.UNREGISTERED_METRIC); }
    }

    static class CorrectPool extends PoolContract {
        @Override protected BufferPoolProvider provider() { return new FixturePool(FixturePool.Fault.NONE); }
        @Override protected String kind() { return FixturePool.KIND; }
    }

    static class LeakingPool extends PoolContract {
        @Override protected BufferPoolProvider provider() { return new FixturePool(FixturePool.Fault.LEAKS); }
        @Override protected String kind() { return FixturePool.KIND; }
    }

    static class PoolTakingADoubleFreeBack extends PoolContract {
        @Override protected BufferPoolProvider provider() { return new FixturePool(FixturePool.Fault.ACCEPTS_DOUBLE_FREE); }
        @Override protected String kind() { return FixturePool.KIND; }
    }

    static class CorrectQdisc extends QdiscContract {
        @Override protected QdiscProvider provider() { return new FixtureQdisc(FixtureQdisc.Fault.NONE); }
        @Override protected String kind() { return FixtureQdisc.KIND; }
    }

    static class LifoQdisc extends CorrectQdisc {
        @Override protected QdiscProvider provider() { return new FixtureQdisc(FixtureQdisc.Fault.LIFO); }
    }

    static class QdiscForgettingRequeuedBytes extends CorrectQdisc {
        @Override protected QdiscProvider provider() { return new FixtureQdisc(FixtureQdisc.Fault.REQUEUE_FORGETS_BYTES); }
    }
}
