package io.ringlab.engine.kernel;

import java.util.ArrayList;
import java.util.HashMap;
import java.util.LinkedHashMap;
import java.util.LinkedHashSet;
import java.util.List;
import java.util.Map;
import java.util.Set;

import io.ringlab.pipeline.format.MetricNames;
import io.ringlab.pipeline.format.Overrides;
import io.ringlab.pipeline.format.PipelineCopy;
import io.ringlab.pipeline.format.Syntax;
import io.ringlab.pipeline.format.Units;
import io.ringlab.sim.api.CostProfile;
import io.ringlab.sim.api.Element;
import io.ringlab.sim.api.ElementFactory;
import io.ringlab.sim.api.PipelineException;
import io.ringlab.sim.api.dto.ConnectionDTO;
import io.ringlab.sim.api.dto.ElementDescriptorDTO;
import io.ringlab.sim.api.dto.ElementSpecDTO;
import io.ringlab.sim.api.dto.PipelineDTO;
import io.ringlab.sim.api.dto.PortDescriptorDTO;
import io.ringlab.sim.api.dto.PortDescriptorDTO.Direction;
import io.ringlab.sim.api.dto.PortDescriptorDTO.Mode;
import io.ringlab.sim.api.dto.ProblemDTO;
import io.ringlab.sim.api.dto.PropertyDescriptorDTO;
import io.ringlab.sim.api.dto.RunOptionsDTO;
import io.ringlab.sim.api.dto.ValueDTO;

/**
 * Turns a pipeline description into a ready run: finds each type's factory, validates and converts properties against
 * the factory's descriptor, checks connections (direction, push/pull mode, fan-in of pull inputs, fan-out of outputs,
 * required ports), creates the elements and binds their ports. Every problem found is reported with its file position;
 * nothing is created unless the whole pipeline is valid.
 */
public final class PipelineBuilder {
    /** Profile used when a pipeline names none. */
    public static final String DEFAULT_PROFILE = "generic-x86-4ghz";
    /** Duration used when neither the options nor the pipeline give one: one second. */
    public static final long DEFAULT_DURATION_PICOS = 1_000_000_000_000L;

    private final Registry registry;

    /** @param registry where factories and providers come from */
    public PipelineBuilder(Registry registry) {
        this.registry = registry;
    }

    /**
     * @param original the pipeline; not modified (overrides in {@code options} apply to a copy)
     * @param options run options
     * @return the prepared run
     * @throws PipelineException listing every problem
     */
    public RunImpl build(PipelineDTO original, RunOptionsDTO options) throws PipelineException {
        PipelineDTO pipeline = PipelineCopy.of(original); // overrides apply to the run's own copy, never to the caller's pipeline
        String file = pipeline.file == null ? "<input>" : pipeline.file;
        List<ProblemDTO> problems = new ArrayList<>();
        if (!options.overrides.isEmpty()) {
            Overrides.apply(pipeline, options.overrides);
        }
        List<Captures.Tap> taps = Captures.splice(file, pipeline, problems); // before the types: a tap is no element
        Settings settings = settings(file, pipeline, options, problems);
        Types t = types(file, pipeline, problems);
        Graph g = connect(file, pipeline, t, problems);
        pushCycles(file, pipeline, t.descriptors(), g.outToIn(), g.connectionOf(), problems);
        requiredPorts(file, pipeline, t, g, problems);
        headlineElement(file, pipeline, t.specs().keySet(), problems);
        List<SwapRequest> swaps = swaps(file, options, settings.duration(), t.specs().keySet(), problems);
        if (!problems.isEmpty()) {
            throw new PipelineException(problems);
        }
        Simulation sim = create(file, pipeline, settings, t, problems);
        checkPlot(file, pipeline, sim.seriesNames(), options.overrides, sim);
        wire(pipeline, sim, g);
        sim.captures = Captures.attach(file, sim, options, taps, problems);
        if (!problems.isEmpty()) {
            throw new PipelineException(problems);
        }
        Map<String, Set<String>> metricNames = sim.metricNames(); // read once: the headline's check and the run's names
        checkHeadlineMetric(file, pipeline, metricNames);
        headlineSeries(pipeline, sim);
        canvasSeries(sim);
        Set<String> types = new LinkedHashSet<>();
        for (ElementSpecDTO spec : pipeline.elements) {
            types.add(spec.type);
        }
        return new RunImpl(sim, pipeline, options, settings.duration(), types, swaps, metricNames);
    }

    /**
     * Samples the headline in the series when the element does not already (a rate, a gauge: the console's headline chart
     * draws that column; a histogram's P50 and P99 are columns already).
     */
    private static void headlineSeries(PipelineDTO pipeline, Simulation sim) {
        if (pipeline.headline == null) {
            return;
        }
        String h = MetricNames.current(pipeline.headline.text);
        int dot = h.lastIndexOf('.');
        for (ElementContextImpl c : sim.contexts) {
            if (c.name.equals(h.substring(0, dot))) {
                c.metrics.sampleAsSeries(h.substring(dot + 1));
            }
        }
    }

    /**
     * Samples in the series every metric an element's type gives a canvas role, and its capacity when that is a metric,
     * so that the console's time slider can show the canvas at any sampled time (a property's capacity is in the
     * result's properties).
     */
    private static void canvasSeries(Simulation sim) {
        for (ElementContextImpl c : sim.contexts) {
            if (c.descriptor == null || c.descriptor.metricDescriptors == null) {
                continue;
            }
            for (io.ringlab.sim.api.dto.MetricDescriptorDTO m : c.descriptor.metricDescriptors) {
                if (m.canvas != null) {
                    c.metrics.sampleAsSeries(m.name); // false: not registered by this instance (an optional metric)
                    if (m.capacity != null) {
                        c.metrics.sampleAsSeries(m.capacity); // false: a property, not a metric
                    }
                }
            }
        }
    }

    /** The run's seed, duration and cost profile, as the options and the pipeline's header give them. */
    private record Settings(long seed, long duration, CostProfile profile) {
    }

    /** Reads the seed, the duration, the warm-up, the fork and the profile; what is wrong goes to {@code problems}. */
    private Settings settings(String file, PipelineDTO pipeline, RunOptionsDTO options, List<ProblemDTO> problems) {
        long seed = 1;
        if (options.seed != null) {
            seed = options.seed;
        } else if (pipeline.seed != null) {
            try {
                seed = Units.parseInteger(pipeline.seed.text);
            } catch (IllegalArgumentException e) {
                problems.add(problem(file, pipeline.seed, "seed: " + e.getMessage()));
            }
        }
        long duration = DEFAULT_DURATION_PICOS;
        if (options.durationPicos > 0) {
            duration = options.durationPicos;
        } else if (pipeline.duration != null) {
            try {
                duration = Units.parsePicos(pipeline.duration.text);
                if (duration <= 0) {
                    problems.add(problem(file, pipeline.duration, "duration must be more than 0"));
                }
            } catch (IllegalArgumentException e) {
                problems.add(problem(file, pipeline.duration, "duration: " + e.getMessage()));
            }
        }
        if (options.warmupPicos < 0 || options.warmupPicos >= duration) {
            problems.add(new ProblemDTO(file, 0, 0, "warmup=" + Units.formatPicos(options.warmupPicos) + " must be at least 0s"
                    + " and less than the run's duration, " + Units.formatPicos(duration)));
        }
        CostProfile profile = null;
        String profileName = pipeline.profile == null ? DEFAULT_PROFILE : pipeline.profile.text;
        try {
            profile = registry.profile(profileName);
        } catch (IllegalArgumentException e) {
            problems.add(pipeline.profile == null ? new ProblemDTO(file, 0, 0, e.getMessage())
                    : problem(file, pipeline.profile, e.getMessage()));
        }
        if (options.forkAtPicos < 0 || (options.forkAtPicos > 0 && options.forkAtPicos >= duration)) {
            problems.add(new ProblemDTO(file, 0, 0, "fork=" + Units.formatPicos(options.forkAtPicos) + " must be more than 0s"
                    + " and less than the run's duration, " + Units.formatPicos(duration)));
        }
        return new Settings(seed, duration, profile);
    }

    /** Each element's spec, factory, descriptor and configuration, by element name. */
    private record Types(Map<String, ElementSpecDTO> specs, Map<String, ElementFactory> factories,
            Map<String, ElementDescriptorDTO> descriptors, Map<String, ConfigurationImpl> configs) {
    }

    /** Finds each element's factory and checks its properties; an unknown type or a bad value goes to {@code problems}. */
    private Types types(String file, PipelineDTO pipeline, List<ProblemDTO> problems) {
        Map<String, ElementSpecDTO> specs = new LinkedHashMap<>();
        Map<String, ElementFactory> factories = new HashMap<>();
        Map<String, ElementDescriptorDTO> descriptors = new HashMap<>();
        Map<String, ConfigurationImpl> configs = new HashMap<>();
        for (ElementSpecDTO spec : pipeline.elements) {
            specs.put(spec.name, spec);
            ElementFactory f = registry.factory(spec.type);
            if (f == null) {
                List<String> types = new ArrayList<>();
                for (ElementDescriptorDTO d : registry.types()) {
                    types.add(d.type);
                }
                problems.add(new ProblemDTO(file, spec.line, spec.column, "unknown element type '" + spec.type + "'"
                        + Syntax.didYouMean(spec.type, types) + " for element " + spec.name + "; installed types: "
                        + String.join(", ", types)));
                continue;
            }
            ElementDescriptorDTO d = f.descriptor();
            factories.put(spec.name, f);
            descriptors.put(spec.name, d);
            ConfigurationImpl config = configure(file, spec, spec.type, d, registry.installationDefaults(spec.type), problems,
                    null);
            if (config != null) {
                configs.put(spec.name, config);
            }
        }
        return new Types(specs, factories, descriptors, configs);
    }

    /** The connections: each output's input, the connection that joined them, and each input's outputs. */
    private record Graph(Map<End, End> outToIn, Map<End, ConnectionDTO> connectionOf, Map<End, List<End>> inFrom) {
    }

    /** Checks and records the connections; a bad one goes to {@code problems}. */
    private Graph connect(String file, PipelineDTO pipeline, Types t, List<ProblemDTO> problems) {
        Map<String, ElementSpecDTO> specs = t.specs();
        Map<String, ElementDescriptorDTO> descriptors = t.descriptors();
        Map<End, End> outToIn = new HashMap<>();
        Map<End, ConnectionDTO> connectionOf = new HashMap<>();
        Map<End, List<End>> inFrom = new HashMap<>();
        for (ConnectionDTO c : pipeline.connections) {
            ElementDescriptorDTO from = descriptors.get(c.from);
            ElementDescriptorDTO to = descriptors.get(c.to);
            if (!specs.containsKey(c.from) || !specs.containsKey(c.to)) {
                String missing = specs.containsKey(c.from) ? c.to : c.from;
                problems.add(new ProblemDTO(file, c.line, c.column, "connection names undeclared element " + missing
                        + Syntax.didYouMean(missing, specs.keySet()) + "; elements: " + String.join(", ", specs.keySet())));
                continue;
            }
            if (from == null || to == null) {
                // an unknown type, already reported: its neighbour's port counts as connected, so that one misspelt type
                // gives one error, not one more for every element next to it
                if (from != null && portIndex(from, Direction.OUT, c.fromPort) >= 0) {
                    outToIn.putIfAbsent(new End(c.from, portIndex(from, Direction.OUT, c.fromPort)), new End(c.to, -1));
                }
                if (to != null && portIndex(to, Direction.IN, c.toPort) >= 0) {
                    inFrom.computeIfAbsent(new End(c.to, portIndex(to, Direction.IN, c.toPort)), k -> new ArrayList<>())
                            .add(new End(c.from, -1));
                }
                continue;
            }
            int out = portIndex(from, Direction.OUT, c.fromPort);
            int in = portIndex(to, Direction.IN, c.toPort);
            if (out < 0) {
                problems.add(new ProblemDTO(file, c.line, c.column, c.from + " (type " + from.type + ") has "
                        + (c.fromPort == null ? "no output" : "no output '" + c.fromPort + "'") + "; outputs: "
                        + portNames(from, Direction.OUT)));
                continue;
            }
            if (in < 0) {
                problems.add(new ProblemDTO(file, c.line, c.column, c.to + " (type " + to.type + ") has "
                        + (c.toPort == null ? "no input" : "no input '" + c.toPort + "'") + "; inputs: "
                        + portNames(to, Direction.IN)));
                continue;
            }
            PortDescriptorDTO op = port(from, Direction.OUT, out);
            PortDescriptorDTO ip = port(to, Direction.IN, in);
            if (op.mode != ip.mode) {
                problems.add(new ProblemDTO(file, c.line, c.column, "cannot connect " + c.from + "." + op.name + " ("
                        + op.mode.name().toLowerCase() + " output) to " + c.to + "." + ip.name + " (" + ip.mode.name().toLowerCase()
                        + " input): a connection joins ports of the same mode"));
                continue;
            }
            End o = new End(c.from, out);
            End i = new End(c.to, in);
            if (outToIn.containsKey(o)) {
                problems.add(new ProblemDTO(file, c.line, c.column, "output " + c.from + "." + op.name
                        + " is already connected; an output feeds exactly one input (use a tee element to copy)"));
                continue;
            }
            List<End> sources = inFrom.computeIfAbsent(i, k -> new ArrayList<>());
            if (ip.mode == Mode.PULL && !sources.isEmpty()) {
                problems.add(new ProblemDTO(file, c.line, c.column, "pull input " + c.to + "." + ip.name
                        + " is already connected; a pull input has exactly one upstream"));
                continue;
            }
            outToIn.put(o, i);
            connectionOf.put(o, c);
            sources.add(o);
        }
        return new Graph(outToIn, connectionOf, inFrom);
    }

    /** Every required port must be connected. */
    private void requiredPorts(String file, PipelineDTO pipeline, Types t, Graph g, List<ProblemDTO> problems) {
        Map<String, ElementDescriptorDTO> descriptors = t.descriptors();
        Map<End, End> outToIn = g.outToIn();
        Map<End, List<End>> inFrom = g.inFrom();
        for (ElementSpecDTO spec : pipeline.elements) {
            ElementDescriptorDTO d = descriptors.get(spec.name);
            if (d == null) {
                continue;
            }
            int[] idx = new int[2];
            for (PortDescriptorDTO p : d.ports) {
                int k = p.direction == Direction.OUT ? idx[1]++ : idx[0]++;
                if (!p.required) {
                    continue;
                }
                End e = new End(spec.name, k);
                boolean connected = p.direction == Direction.OUT ? outToIn.containsKey(e) : inFrom.containsKey(e);
                if (!connected) {
                    problems.add(new ProblemDTO(file, spec.line, spec.column, "element " + spec.name + ": required "
                            + (p.direction == Direction.OUT ? "output" : "input") + " '" + p.name + "' is not connected"));
                }
            }
        }
    }

    /** The headline must name ELEMENT.METRIC of a declared element, one of its pools, a core or the L3. */
    private void headlineElement(String file, PipelineDTO pipeline, Set<String> elements, List<ProblemDTO> problems) {
        if (pipeline.headline != null) {
            String h = pipeline.headline.text;
            int dot = h.lastIndexOf('.');
            String owner = dot <= 0 ? "" : h.substring(0, dot);
            // an element, one of its pools (pool:ELEMENT.SUFFIX), a core (cpuN) or the shared L3 (l3)
            String element = owner.startsWith("pool:") && owner.indexOf('.') > 5 ? owner.substring(5, owner.indexOf('.'))
                    : owner;
            if (dot <= 0 || dot == h.length() - 1) {
                problems.add(problem(file, pipeline.headline, "headline '" + h + "': expected ELEMENT.METRIC"));
            } else if (!elements.contains(element) && !owner.matches("cpu[0-9]+|l3")) {
                problems.add(problem(file, pipeline.headline, "headline names undeclared element " + element
                        + Syntax.didYouMean(element, elements) + "; elements: " + String.join(", ", elements)
                        + " (or pool:ELEMENT.POOL, cpuN, l3)"));
            }
        }
    }

    /** Parses the options' {@code --swap}s against the run's elements and duration. */
    private List<SwapRequest> swaps(String file, RunOptionsDTO options, long duration, Set<String> elements,
            List<ProblemDTO> problems) {
        List<SwapRequest> swaps = new ArrayList<>();
        for (String text : options.swaps) {
            try {
                swaps.add(SwapRequest.parse(text, duration, elements, registry));
            } catch (IllegalArgumentException e) {
                problems.add(new ProblemDTO(file, 0, 0, "--swap " + text + ": " + e.getMessage()));
            }
        }
        return swaps;
    }

    /** Makes the simulation and every element through its factory; a factory that fails goes to {@code problems}. */
    private Simulation create(String file, PipelineDTO pipeline, Settings settings, Types t, List<ProblemDTO> problems)
            throws PipelineException {
        long seed = settings.seed();
        Map<String, ElementSpecDTO> specs = t.specs();
        Map<String, ElementFactory> factories = t.factories();
        Map<String, ElementDescriptorDTO> descriptors = t.descriptors();
        Map<String, ConfigurationImpl> configs = t.configs();
        Simulation sim = new Simulation(registry, settings.profile(), seed);
        List<ElementContextImpl> ctxs = new ArrayList<>();
        for (ElementSpecDTO spec : pipeline.elements) {
            ElementContextImpl c = new ElementContextImpl(sim, ctxs.size(), spec.name, spec.type, descriptors.get(spec.name),
                    configs.get(spec.name), seed);
            c.implementation = Registry.implementation(spec.type, registry.version(spec.type));
            ctxs.add(sim.addContext(c));
        }
        Element[] elements = new Element[ctxs.size()];
        for (ElementContextImpl c : ctxs) {
            ElementSpecDTO spec = specs.get(c.name);
            try {
                elements[c.index] = factories.get(c.name).create(c);
                if (elements[c.index] == null) {
                    problems.add(new ProblemDTO(file, spec.line, spec.column, "factory of type " + spec.type
                            + " returned no element" + bundleNote(spec.type)));
                }
            } catch (IllegalArgumentException e) {
                problems.add(new ProblemDTO(file, spec.line, spec.column, "element " + spec.name + ": " + e.getMessage()));
            } catch (RuntimeException | LinkageError e) {
                problems.add(new ProblemDTO(file, spec.line, spec.column, "element " + spec.name + " (type " + spec.type + ")"
                        + bundleNote(spec.type) + " failed to initialise: " + e));
            }
        }
        if (!problems.isEmpty()) {
            throw new PipelineException(problems);
        }
        sim.elements = elements;
        return sim;
    }

    /** Joins each connected output to its input, both ways. */
    private static void wire(PipelineDTO pipeline, Simulation sim, Graph g) {
        List<ElementContextImpl> ctxs = sim.contexts;
        Element[] elements = sim.elements;
        Map<End, ConnectionDTO> connectionOf = g.connectionOf();
        for (Map.Entry<End, End> e : g.outToIn().entrySet()) {
            ElementContextImpl from = ctxs.get(indexOf(pipeline, e.getKey().element()));
            ElementContextImpl to = ctxs.get(indexOf(pipeline, e.getValue().element()));
            Ports.Out out = from.outputs.get(port(from.descriptor, Direction.OUT, e.getKey().port()).name);
            Ports.In in = to.inputs.get(port(to.descriptor, Direction.IN, e.getValue().port()).name);
            out.target = elements[to.index];
            out.targetIndex = to.index;
            out.connection = connectionOf.get(e.getKey());
            out.targetPort = e.getValue().port();
            out.targetPortName = in.name;
            if (in.source == null) {
                in.source = elements[from.index];
                in.sourceIndex = from.index;
                in.sourcePort = e.getKey().port();
                in.sourcePortName = out.name;
            }
        }
    }

    /**
     * The headline must name a metric the built pipeline reports: names such as {@code stream0Cwnd}, {@code pool:NAME.*}
     * and {@code cpuN.*} exist only once the elements are created, so this runs after them.
     *
     * @throws PipelineException naming the headline's position, the element's metrics and the closest name
     */
    private static void checkHeadlineMetric(String file, PipelineDTO pipeline, Map<String, Set<String>> names)
            throws PipelineException {
        if (pipeline.headline == null) {
            return;
        }
        String h = MetricNames.current(pipeline.headline.text); // an old name reads today's metric (RunImpl.headline)
        String problem = MetricNames.unknown(h, names, "");
        if (problem != null) {
            throw new PipelineException(List.of(problem(file, pipeline.headline, "headline " + h + ": " + problem)));
        }
    }

    /**
     * Validates and converts an element's properties for a type: the file's values, else the installation defaults
     * (ConfigAdmin), else the type's defaults.
     *
     * @param file the pipeline file, for problems
     * @param spec the element as the file declares it
     * @param type the type to configure for (the spec's own, or a hot swap's target)
     * @param d that type's descriptor
     * @param installed the installation defaults of that type
     * @param problems where problems go
     * @param ignored null to report a property the type does not know as a problem; otherwise where its name goes (a hot
     *        swap to another type leaves out the properties the new type does not have)
     * @return the configuration, or null when a problem was found
     */
    static ConfigurationImpl configure(String file, ElementSpecDTO spec, String type, ElementDescriptorDTO d,
            Map<String, String> installed, List<ProblemDTO> problems, List<String> ignored) {
        Map<String, PropertyDescriptorDTO> byName = new LinkedHashMap<>();
        for (PropertyDescriptorDTO p : d.properties) {
            byName.put(p.name, p);
        }
        Map<String, Object> values = new LinkedHashMap<>();
        Map<String, String> texts = new LinkedHashMap<>();
        Set<String> given = new LinkedHashSet<>();
        boolean ok = true;
        for (Map.Entry<String, ValueDTO> e : spec.properties.entrySet()) {
            PropertyDescriptorDTO p = byName.get(e.getKey());
            if (p == null) {
                if (ignored != null) {
                    ignored.add(e.getKey());
                    continue;
                }
                problems.add(problem(file, e.getValue(), "unknown property '" + e.getKey() + "'"
                        + Syntax.didYouMean(e.getKey(), byName.keySet()) + " of element " + spec.name + " (type " + type
                        + "); properties: " + String.join(", ", byName.keySet())));
                ok = false;
                continue;
            }
            given.add(p.name);
            texts.put(p.name, e.getValue().text);
            try {
                values.put(p.name, Units.convert(p, e.getValue().text));
            } catch (IllegalArgumentException ex) {
                problems.add(problem(file, e.getValue(), "element " + spec.name + ": " + ex.getMessage()));
                ok = false;
            }
        }
        for (PropertyDescriptorDTO p : d.properties) {
            if (!values.containsKey(p.name) && !spec.properties.containsKey(p.name)) {
                String text = installed.getOrDefault(p.name, p.defaultValue);
                texts.put(p.name, text);
                try {
                    values.put(p.name, Units.convert(p, text));
                } catch (IllegalArgumentException ex) {
                    String where = installed.containsKey(p.name)
                            ? "the installation default (ConfigAdmin PID ringlab.element." + type + ")"
                            : "the default of type " + type;
                    problems.add(new ProblemDTO(file, spec.line, spec.column, "element " + spec.name + ": " + where
                            + " is invalid: " + ex.getMessage()));
                    ok = false;
                }
            }
        }
        for (String key : installed.keySet()) {
            if (!byName.containsKey(key)) {
                problems.add(new ProblemDTO(file, spec.line, spec.column, "ConfigAdmin PID ringlab.element." + type
                        + " sets unknown property '" + key + "'; properties: " + String.join(", ", byName.keySet())));
                ok = false;
            }
        }
        Map<String, String> ordered = new LinkedHashMap<>();
        for (PropertyDescriptorDTO p : d.properties) {
            if (texts.containsKey(p.name)) {
                ordered.put(p.name, texts.get(p.name));
            }
        }
        return ok ? new ConfigurationImpl(spec.name, values, byName, given, ordered) : null;
    }

    private String bundleNote(String type) {
        String b = registry.bundleOf(type);
        return b == null ? "" : " (bundle " + b + ")";
    }

    private static int indexOf(PipelineDTO p, String name) {
        for (int i = 0; i < p.elements.size(); i++) {
            if (p.elements.get(i).name.equals(name)) {
                return i;
            }
        }
        throw new IllegalStateException(name);
    }

    /**
     * The pipeline's {@code plot} must name series the run has, which exist only once the elements are created (their
     * series, histograms and pools). As the file is written, an unknown name is an error; a run with overrides may
     * lose series the file's own settings have ({@code --set eth0.bql=false} leaves no {@code eth0.limit}), so there it
     * is a warning of the run, and plots leave the name out.
     *
     * @throws PipelineException without overrides: naming each unknown series at its position, with the element's
     *         series and all of the run's
     */
    private static void checkPlot(String file, PipelineDTO pipeline, List<String> names, List<String> overrides,
            Simulation sim) throws PipelineException {
        List<ProblemDTO> problems = new ArrayList<>();
        List<String> missing = new ArrayList<>();
        for (ValueDTO v : pipeline.plot) {
            if (!names.contains(v.text)) {
                missing.add(v.text);
                int dot = v.text.lastIndexOf('.');
                String owner = dot < 0 ? v.text : v.text.substring(0, dot + 1);
                List<String> own = names.stream().filter(n -> n.startsWith(owner)).toList();
                problems.add(problem(file, v, "plot names no series '" + v.text + "'" + Syntax.didYouMean(v.text, names)
                        + " of this run"
                        + (own.isEmpty() ? "" : "; " + owner.substring(0, owner.length() - 1) + " has " + String.join(", ", own))
                        + "; the run's series: " + String.join(", ", names)));
            }
        }
        if (missing.isEmpty()) {
            return;
        }
        if (overrides.isEmpty()) {
            throw new PipelineException(problems);
        }
        sim.warn("plot: " + String.join(", ", missing) + (missing.size() == 1 ? " is no series" : " are no series")
                + " of this run with its overrides (" + String.join(", ", overrides) + "); plots leave "
                + (missing.size() == 1 ? "it" : "them") + " out");
    }

    /** One end of a connection: an element and the index of one of its ports among those of the port's direction. */
    private record End(String element, int port) {
    }

    /**
     * Refuses cycles of pushes with no time in them: connections from an output to an input whose packets the element
     * may push on out of an output within the same call ({@code PortDescriptorDTO.pushesInCall}), round to where they
     * started, so that a packet would go round within one call until the stack overflows ({@code d.other -> d} on a
     * demux). Each cycle is reported at the connection that closes it. Iterative: a chain of thousands of elements is
     * walked without recursion.
     */
    private static void pushCycles(String file, PipelineDTO pipeline, Map<String, ElementDescriptorDTO> descriptors,
            Map<End, End> outToIn, Map<End, ConnectionDTO> connectionOf, List<ProblemDTO> problems) {
        Map<End, Integer> state = new HashMap<>(); // absent: not seen; 1: on the path; 2: done
        List<End> path = new ArrayList<>();
        List<java.util.Iterator<End>> pending = new ArrayList<>(); // per node on the path: the outputs still to follow
        for (ElementSpecDTO spec : pipeline.elements) {
            ElementDescriptorDTO d = descriptors.get(spec.name);
            if (d == null) {
                continue;
            }
            int k = 0;
            for (PortDescriptorDTO p : d.ports) {
                if (p.direction != Direction.IN) {
                    continue;
                }
                End start = new End(spec.name, k++);
                if (p.mode != Mode.PUSH || p.pushesInCall.isEmpty() || state.containsKey(start)) {
                    continue;
                }
                state.put(start, 1);
                path.add(start);
                pending.add(forwards(descriptors, start).iterator());
                while (!path.isEmpty()) {
                    java.util.Iterator<End> it = pending.get(pending.size() - 1);
                    if (!it.hasNext()) {
                        state.put(path.remove(path.size() - 1), 2);
                        pending.remove(pending.size() - 1);
                        continue;
                    }
                    End out = it.next();
                    End next = outToIn.get(out);
                    if (next == null || next.port() < 0) {
                        continue;
                    }
                    Integer seen = state.get(next);
                    if (seen == null) {
                        state.put(next, 1);
                        path.add(next);
                        pending.add(forwards(descriptors, next).iterator());
                    } else if (seen == 1) {
                        ConnectionDTO c = connectionOf.get(out);
                        StringBuilder cycle = new StringBuilder();
                        for (End e : path.subList(path.indexOf(next), path.size())) {
                            cycle.append(e.element()).append(" -> ");
                        }
                        cycle.append(next.element());
                        problems.add(new ProblemDTO(file, c.line, c.column, "connection " + portName(descriptors, out,
                                Direction.OUT) + " -> " + portName(descriptors, next, Direction.IN) + " closes a cycle of"
                                + " pushes with no time in it (" + cycle + "): a packet would go round within one call"
                                + " without end; put an element that takes time in the cycle (a link, or a qdisc that a"
                                + " driver drains)"));
                    }
                }
            }
        }
    }

    /** @return the outputs, as ends, that packets arriving at input {@code in} may leave by within the same call */
    private static List<End> forwards(Map<String, ElementDescriptorDTO> descriptors, End in) {
        ElementDescriptorDTO d = descriptors.get(in.element());
        List<End> out = new ArrayList<>();
        for (String name : port(d, Direction.IN, in.port()).pushesInCall) {
            int k = portIndex(d, Direction.OUT, name);
            if (k >= 0) {
                out.add(new End(in.element(), k));
            }
        }
        return out;
    }

    private static String portName(Map<String, ElementDescriptorDTO> descriptors, End e, Direction dir) {
        return e.element() + "." + port(descriptors.get(e.element()), dir, e.port()).name;
    }

    private static ProblemDTO problem(String file, ValueDTO v, String message) {
        return new ProblemDTO(file, v.line, v.column, message);
    }

    static int portIndex(ElementDescriptorDTO d, Direction dir, String name) {
        int k = 0;
        for (PortDescriptorDTO p : d.ports) {
            if (p.direction != dir) {
                continue;
            }
            if (name == null || p.name.equals(name)) {
                return k;
            }
            k++;
        }
        return -1;
    }

    static PortDescriptorDTO port(ElementDescriptorDTO d, Direction dir, int index) {
        int k = 0;
        for (PortDescriptorDTO p : d.ports) {
            if (p.direction == dir && k++ == index) {
                return p;
            }
        }
        throw new IllegalStateException();
    }

    private static String portNames(ElementDescriptorDTO d, Direction dir) {
        List<String> names = new ArrayList<>();
        for (PortDescriptorDTO p : d.ports) {
            if (p.direction == dir) {
                names.add(p.name);
            }
        }
        return names.isEmpty() ? "none" : String.join(", ", names);
    }
}
