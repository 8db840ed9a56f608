package io.ringlab.results;

import io.ringlab.experiment.api.ResultsService;
import io.ringlab.sim.api.Simulator;

/** The results service over a simulator without a framework (DuckDB from the class path), for the fuzzer's ab runs. */
public final class TestResults {
    private TestResults() {
    }

    /** @return the real service, taking units and kinds from {@code simulator}'s element types */
    public static ResultsService of(Simulator simulator) {
        ResultsComponent c = new ResultsComponent();
        c.simulator = simulator;
        return c;
    }
}
