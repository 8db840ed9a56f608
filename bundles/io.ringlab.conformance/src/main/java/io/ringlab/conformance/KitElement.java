package io.ringlab.conformance;

import java.util.function.Function;

import io.ringlab.sim.api.Element;
import io.ringlab.sim.api.ElementContext;
import io.ringlab.sim.api.ElementFactory;
import io.ringlab.sim.api.Timer;
import io.ringlab.sim.api.dto.ElementDescriptorDTO;

/**
 * An element type without ports whose elements a contract makes itself, to look at or drive what it checks from inside a
 * run, on the engine thread: the probe beside a driver, the bench a pool or a qdisc is exercised on. A check that fails
 * there is kept in a {@link Failure} and thrown by the test after the run, so that the report is the check's own.
 */
final class KitElement implements ElementFactory {
    /** The probe's type: {@link #probe}. */
    static final String PROBE = "conformance.probe";
    /** The bench's type: {@link #bench}. */
    static final String BENCH = "conformance.bench";

    private final ElementDescriptorDTO descriptor = new ElementDescriptorDTO();
    private final Function<ElementContext, Element> create;

    private KitElement(String type, Function<ElementContext, Element> create) {
        descriptor.type = type;
        descriptor.category = ElementDescriptorDTO.SINK;
        descriptor.summary = "Part of the conformance kit";
        descriptor.description = "Made by a contract of the conformance kit for one test";
        this.create = create;
    }

    @Override
    public ElementDescriptorDTO descriptor() {
        return descriptor;
    }

    @Override
    public Element create(ElementContext context) {
        return create.apply(context);
    }

    /** The first check that failed inside a run; engine thread, read after the run. */
    static final class Failure {
        private Throwable first;

        /** Runs a check; records what it throws, and runs nothing after the first failure. */
        void check(Runnable check) {
            if (first != null) {
                return;
            }
            try {
                check.run();
            } catch (Throwable t) { // AssertionError from the check: reported by the test, not as a failed run
                first = t;
            }
        }

        /** Throws the first failure, if any. */
        void rethrow() {
            if (first instanceof Error e) {
                throw e;
            }
            if (first instanceof RuntimeException e) {
                throw e;
            }
            if (first != null) {
                throw new AssertionError(first);
            }
        }
    }

    /** A check a probe makes at an instant of virtual time, between events. */
    @FunctionalInterface
    interface Check {
        /** @param nowPicos the instant */
        void at(long nowPicos);
    }

    /**
     * @param intervalPicos how often it looks, from time 0
     * @param check what it checks each time
     * @param failure where a failed check goes
     * @return the probe type: its element runs {@code check} every {@code intervalPicos}, from time 0, until one fails
     */
    static KitElement probe(long intervalPicos, Check check, Failure failure) {
        return new KitElement(PROBE, ctx -> {
            Timer[] timer = new Timer[1];
            timer[0] = ctx.timer(now -> {
                failure.check(() -> check.at(now));
                timer[0].after(intervalPicos);
            });
            return new Element() {
                @Override
                public void start() {
                    timer[0].at(0);
                }
            };
        });
    }

    /**
     * @param create makes the bench's element (its constructor may create pools and timers; its {@code start} runs the
     *            scenario)
     * @return the bench type
     */
    static KitElement bench(Function<ElementContext, Element> create) {
        return new KitElement(BENCH, create);
    }
}
