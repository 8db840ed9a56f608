package io.ringlab.engine.kernel;

import io.ringlab.sim.api.ElementFactory;

/**
 * The registry of the class path (every bundle the test module depends on: the reference elements, the providers, the
 * driver models and their profiles), with factories a test adds. Subclassed where a test needs another version of a type.
 */
class TestRegistry extends ClassPathRegistry {
    TestRegistry() {
        super(TestRegistry.class.getClassLoader());
    }

    TestRegistry with(ElementFactory f) {
        element(f);
        return this;
    }
}
