package io.ringlab.sim.api;

import java.util.List;

import org.osgi.annotation.versioning.ProviderType;

import io.ringlab.sim.api.dto.ElementDescriptorDTO;
import io.ringlab.sim.api.dto.PipelineDTO;
import io.ringlab.sim.api.dto.RunOptionsDTO;

/**
 * The engine's service: lists element types and prepares runs. The command line, the Gogo shell and the console reach the
 * engine only through this service.
 * <p>
 * Thread-safe; runs prepared here are independent and may execute in parallel.
 */
@ProviderType
public interface Simulator {

    /** @return the element types installed now, sorted by category and type id; never {@code null}, may be empty. */
    List<ElementDescriptorDTO> elementTypes();

    /** @return the buffer pool kinds installed now, sorted; never {@code null}. */
    List<String> poolKinds();

    /**
     * @param kind a pool kind, as {@link #poolKinds()} lists it
     * @return what the kind models and where from, as its provider describes it; {@code ""} for a kind that says
     *         nothing or is not installed (the default)
     * @since 1.4
     */
    default String poolKindDescription(String kind) {
        return "";
    }

    /**
     * Builds a run from a pipeline: finds each element's factory, validates and converts its properties, creates the
     * elements and checks the connections.
     *
     * @param pipeline the pipeline, usually read by {@code io.ringlab.pipeline.format}; must not be {@code null}
     * @param options duration, seed, overrides; must not be {@code null}
     * @return a run in state {@link RunState#READY}
     * @throws PipelineException listing every problem found, each with its file position
     */
    SimulationRun prepare(PipelineDTO pipeline, RunOptionsDTO options) throws PipelineException;
}
