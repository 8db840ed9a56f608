package io.ringlab.results;

import java.util.List;

import io.ringlab.sim.api.SimulationRun;
import io.ringlab.sim.api.Simulator;
import io.ringlab.sim.api.dto.ElementDescriptorDTO;
import io.ringlab.sim.api.dto.PipelineDTO;
import io.ringlab.sim.api.dto.RunOptionsDTO;

/**
 * A {@link Simulator} that only lists element types, for the units of metrics and the kinds of sweep parameters; it runs
 * nothing ({@link #prepare} and {@link #poolKinds} throw). Immutable and thread-safe.
 */
final class FakeSimulator implements Simulator {
    private final List<ElementDescriptorDTO> types;

    /** @param types what {@link #elementTypes()} lists */
    FakeSimulator(List<ElementDescriptorDTO> types) {
        this.types = List.copyOf(types);
    }

    @Override
    public List<ElementDescriptorDTO> elementTypes() {
        return types;
    }

    @Override
    public List<String> poolKinds() {
        throw new UnsupportedOperationException("the results tests list element types only");
    }

    @Override
    public SimulationRun prepare(PipelineDTO pipeline, RunOptionsDTO options) {
        throw new UnsupportedOperationException("the results tests run nothing");
    }
}
