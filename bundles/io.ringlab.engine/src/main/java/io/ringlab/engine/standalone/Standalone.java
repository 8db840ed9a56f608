package io.ringlab.engine.standalone;

import java.util.List;

import io.ringlab.buffer.api.BufferPoolProvider;
import io.ringlab.driver.api.DriverSupport;
import io.ringlab.engine.DriverSupportComponent;
import io.ringlab.engine.FixedPoolProvider;
import io.ringlab.engine.kernel.ClassPathRegistry;
import io.ringlab.engine.kernel.FixedPool;
import io.ringlab.engine.kernel.PipelineBuilder;
import io.ringlab.pipeline.format.PipelineReader;
import io.ringlab.sim.api.ElementFactory;
import io.ringlab.sim.api.PipelineException;
import io.ringlab.sim.api.SimulationRun;
import io.ringlab.sim.api.Simulator;
import io.ringlab.sim.api.dto.ElementDescriptorDTO;
import io.ringlab.sim.api.dto.PipelineDTO;
import io.ringlab.sim.api.dto.RunOptionsDTO;
import io.ringlab.sim.api.dto.RunResultDTO;

/**
 * The engine as a plain Java object: a {@link Simulator} that runs pipelines on a class path, without an OSGi framework
 * and its service registry, for tests of element factories, pool kinds and qdiscs under JUnit.
 * <p>
 * What it finds by itself: the Declarative Services components of every bundle on the class path (a jar, or a
 * {@code target/classes} folder, with the manifest and {@code OSGI-INF} descriptions bnd writes) that provide a service
 * and need nothing from a framework: element factories, pool kinds, queue limits ({@code dql}), qdisc kinds, the
 * engine's {@code DriverSupport} and pool kind {@code fixed}; and the cost profiles they ship
 * ({@code profiles/NAME.profile}). So a test that has {@code io.ringlab.traffic} and {@code io.ringlab.link} on its class
 * path can use {@code source}, {@code sink}, {@code link} and the rest in its pipelines, and registers only what it
 * tests:
 *
 * <pre>
 * Standalone sim = Standalone.builder().element(new MyNicFactory()).build();
 * RunOptionsDTO o = new RunOptionsDTO();
 * o.seed = 1L;
 * RunResultDTO r = sim.run("""
 *         duration = 10ms
 *         element src : source { rate = 1Gbit }
 *         element q : pfifo
 *         element eth0 : mynic
 *         element wire : link
 *         element sink : sink
 *         src -&gt; q -&gt; eth0 -&gt; wire -&gt; sink
 *         """, o);
 * </pre>
 *
 * What is registered by hand comes before what is found, so a test can replace a built-in (a recording
 * {@code QueueLimitsProvider} under kind {@code dql}). A component that needs a framework (a mandatory reference, an
 * activate method, a required configuration) is not created: register it by hand. Results name the bundle and version of
 * every discovered implementation a run used; what is registered by hand runs as {@code TYPE@unversioned}.
 * <p>
 * Runs are the engine's own, with the same results, invariants and hot swaps as under OSGi. Thread-safe once built;
 * runs may execute in parallel.
 */
public final class Standalone implements Simulator {

    private final ClassPathRegistry registry;

    private Standalone(ClassPathRegistry registry) {
        this.registry = registry;
    }

    /** @return a builder that discovers the bundles on the thread's context class loader (or this class's loader) */
    public static Builder builder() {
        return new Builder();
    }

    @Override
    public List<ElementDescriptorDTO> elementTypes() {
        return registry.types();
    }

    @Override
    public List<String> poolKinds() {
        return registry.poolKinds();
    }

    @Override
    public String poolKindDescription(String kind) {
        return registry.poolDescription(kind);
    }

    @Override
    public SimulationRun prepare(PipelineDTO pipeline, RunOptionsDTO options) throws PipelineException {
        return new PipelineBuilder(registry).build(pipeline, options);
    }

    /**
     * Reads a pipeline's text and prepares its run.
     *
     * @param text the pipeline in the file format ({@code docs/pipeline-format.md}); errors name {@code <text>} as the file
     * @param options duration, seed, overrides, swaps; must not be {@code null}
     * @return a run in state {@code READY}
     * @throws PipelineException listing every problem of the text, with line and column
     */
    public SimulationRun prepare(String text, RunOptionsDTO options) throws PipelineException {
        return prepare(PipelineReader.read("<text>", text), options);
    }

    /**
     * Reads a pipeline's text and runs it to its end on the calling thread.
     *
     * @param text the pipeline in the file format
     * @param options duration, seed, overrides, swaps; must not be {@code null}
     * @return the result: finished, or failed with the element named; never {@code null}
     * @throws PipelineException listing every problem of the text
     */
    public RunResultDTO run(String text, RunOptionsDTO options) throws PipelineException {
        return prepare(text, options).run();
    }

    /**
     * @param type an element type id
     * @return the factory a pipeline gets for it, or {@code null} when there is none
     */
    public ElementFactory factory(String type) {
        return registry.factory(type);
    }

    /**
     * @param kind a pool kind
     * @return the provider a pool of that kind comes from, or {@code null} when there is none
     */
    public BufferPoolProvider poolProvider(String kind) {
        return registry.poolProvider(kind);
    }

    /**
     * Looks a provider service up as an element does ({@code ElementContext.provider}).
     *
     * @param type the service interface, for example {@code QueueLimitsProvider.class}
     * @param kindProperty the service property that names the kind, for example {@code QueueLimitsProvider.KIND}
     * @param kind the kind, for example {@code "dql"}
     * @param <S> the service type
     * @return the provider, or {@code null} when there is none
     */
    public <S> S provider(Class<S> type, String kindProperty, String kind) {
        return registry.provider(type, kindProperty, kind);
    }

    /**
     * Collects what a {@link Standalone} offers besides what it discovers. Not thread-safe; each {@link #build()} gives an
     * independent simulator.
     */
    public static final class Builder {
        private ClassLoader loader;
        private boolean discover = true;
        /** What was added by hand, applied in order over what is discovered. */
        private final List<java.util.function.Consumer<ClassPathRegistry>> steps = new java.util.ArrayList<>();

        private Builder() {
        }

        /**
         * Adds an element factory, which serves its descriptor's type before any factory of that type on the class path.
         *
         * @param factory the factory; must not be {@code null}
         * @return this builder
         */
        public Builder element(ElementFactory factory) {
            java.util.Objects.requireNonNull(factory, "factory");
            steps.add(r -> r.element(factory));
            return this;
        }

        /**
         * Adds a pool kind, before any provider of that kind on the class path.
         *
         * @param kind the kind pools ask for
         * @param provider the provider; must not be {@code null}
         * @return this builder
         */
        public Builder pool(String kind, BufferPoolProvider provider) {
            return provider(BufferPoolProvider.class, kind, provider);
        }

        /**
         * Adds a provider service of a kind (queue limits, a qdisc kind, driver support, a third party's own), which serves
         * lookups of {@code type} and {@code kind} before any on the class path.
         *
         * @param type the service interface
         * @param kind the kind it serves, whatever the service property a lookup names
         * @param provider the service; must not be {@code null}
         * @param <S> the service type
         * @return this builder
         */
        public <S> Builder provider(Class<S> type, String kind, S provider) {
            java.util.Objects.requireNonNull(provider, "provider");
            steps.add(r -> r.provider(type, kind, provider));
            return this;
        }

        /**
         * Adds a cost profile, which pipelines name with {@code profile = NAME}, before any {@code profiles/NAME.profile}
         * on the class path.
         *
         * @param name the profile's name
         * @param text its text: {@code KEY = VALUE | source: TEXT} lines ({@code docs/engine.md}, "Cost profiles")
         * @return this builder
         */
        public Builder profile(String name, String text) {
            steps.add(r -> r.profile(name, text));
            return this;
        }

        /**
         * Where to discover bundles and profiles; by default the thread's context class loader, or this class's.
         *
         * @param classLoader the loader, or {@code null} to discover nothing: the simulator then has the engine's own
         *            pool kind {@code fixed} and {@code DriverSupport}, and what is added by hand
         * @return this builder
         */
        public Builder classPath(ClassLoader classLoader) {
            this.loader = classLoader;
            this.discover = classLoader != null;
            return this;
        }

        /**
         * @return the simulator
         * @throws IllegalStateException if a bundle's manifest or component description on the class path cannot be read
         */
        public Standalone build() {
            ClassLoader l = loader;
            if (discover && l == null) {
                l = Thread.currentThread().getContextClassLoader();
                if (l == null) {
                    l = Standalone.class.getClassLoader();
                }
            }
            ClassPathRegistry r = new ClassPathRegistry(discover ? l : null);
            // the engine's own services, found on the class path too where its manifest is
            if (r.poolProvider(FixedPool.KIND) == null) {
                r.provider(BufferPoolProvider.class, FixedPool.KIND, new FixedPoolProvider());
            }
            if (r.provider(DriverSupport.class, DriverSupport.KIND, DriverSupport.LINUX) == null) {
                r.provider(DriverSupport.class, DriverSupport.LINUX, new DriverSupportComponent());
            }
            for (var step : steps) {
                step.accept(r);
            }
            return new Standalone(r);
        }
    }
}
