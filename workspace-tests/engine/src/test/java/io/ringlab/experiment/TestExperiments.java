package io.ringlab.experiment;

import io.ringlab.experiment.api.ExperimentService;
import io.ringlab.sim.api.Simulator;

/** The experiment service over a simulator without a framework, as its own unit tests make it (for the fuzzer). */
public final class TestExperiments {
    private TestExperiments() {
    }

    /** @return the real service, running its experiments on {@code simulator} */
    public static ExperimentService of(Simulator simulator) {
        ExperimentComponent c = new ExperimentComponent();
        c.simulator = simulator;
        return c;
    }
}
