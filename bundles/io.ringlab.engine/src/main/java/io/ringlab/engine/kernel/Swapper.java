package io.ringlab.engine.kernel;

import java.util.ArrayList;
import java.util.HashSet;
import java.util.IdentityHashMap;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Set;

import io.ringlab.buffer.api.Buffer;
import io.ringlab.buffer.api.BufferDestructor;
import io.ringlab.sim.api.Core;
import io.ringlab.sim.api.CpuTask;
import io.ringlab.sim.api.Element;
import io.ringlab.sim.api.ElementFactory;
import io.ringlab.sim.api.Handover;
import io.ringlab.sim.api.dto.ElementDescriptorDTO;
import io.ringlab.sim.api.dto.ElementSpecDTO;
import io.ringlab.sim.api.dto.PipelineDTO;
import io.ringlab.sim.api.dto.PortDescriptorDTO;
import io.ringlab.sim.api.dto.PortDescriptorDTO.Direction;
import io.ringlab.sim.api.dto.ProblemDTO;
import io.ringlab.sim.api.dto.SwapDTO;

/**
 * Hot swap: replaces the instance behind an element at a safe point (between two events, no CPU task running), following
 * the {@link Handover} contract (docs/hot-swap.md).
 * <p>
 * The new instance is created with the element's own context in a staging mode: its CPU tasks and timers carry a new
 * token, its metric registrations go aside, and pools it asks for with the same name, kind and sizes are the old
 * instance's. Then the old instance exports and the new one imports. On success the old instance is retired (its queued
 * tasks and its timers cancelled, its gauges gone, the ports pointing to the new instance); buffers the new instance did
 * not take over are dropped as {@code swap-drain}. When either side cannot hand over, the old instance is drained (every
 * packet it held dropped as {@code swap-drain}, its buffers freed) and the new one starts afresh. When the new instance
 * throws, everything staged is undone and the old instance goes on.
 * <p>
 * Engine thread only.
 */
final class Swapper {
    /** The drop reason of packets a swap could not hand over. */
    static final String DRAIN_REASON = "swap-drain";

    /** What to swap to: the factory, its type, {@code type@version}, the descriptor and configuration for the element. */
    record Target(ElementFactory factory, String type, String implementation, ElementDescriptorDTO descriptor,
            ConfigurationImpl config, String note) {
    }

    /**
     * The old instance's side of a swap taken ahead of it, while its bundle is still active (an update or uninstall
     * deactivates the old component before a replacement exists).
     *
     * @param state what it exported, or null when it could not
     * @param why why it could not, or null
     * @param held the buffers it held then
     */
    record Exported(ElementStateImpl state, String why, List<Buffer> held) {
    }

    /**
     * What the new instance's import asked to take over in the engine: the places of the old instance's queued tasks
     * ({@link ElementStateImpl#requeue}, {@link NapiImpl#takeOver}) and the destructors on buffers elsewhere
     * ({@link ElementStateImpl#replaceDestructors}). Applied when the swap commits with a handover, forgotten otherwise.
     */
    static final class Staging {
        /** A new task for an old one's places; with no place found it is queued on {@code fallback}, if any. */
        private record Requeue(CpuTask old, CpuTask neu, Core fallback, int workClass) {
        }

        private final List<Requeue> requeues = new ArrayList<>();
        /** Old destructor to new, by identity. */
        final Map<BufferDestructor, BufferDestructor> destructors = new IdentityHashMap<>();

        /**
         * @param old the old instance's task
         * @param neu the new instance's task
         * @param fallback where to queue {@code neu} if {@code old} waits nowhere at the commit, or null for nowhere
         * @param workClass the work class for {@code fallback}
         */
        void requeue(CpuTask old, CpuTask neu, Core fallback, int workClass) {
            requeues.add(new Requeue(old, neu, fallback, workClass));
        }

        private void applyRequeues(Simulation sim, int token) {
            for (Requeue r : requeues) {
                int places = 0;
                for (CoreImpl c : sim.cores) {
                    places += c.replaceQueued(r.old, r.neu, token);
                }
                if (places == 0 && r.fallback != null) {
                    r.fallback.submit(r.workClass, r.neu);
                }
            }
        }
    }

    /** @return the record of a swap of {@code element} that was not applied, now, and why */
    static SwapDTO notApplied(Simulation sim, String element, String why) {
        SwapDTO d = new SwapDTO();
        d.element = element;
        d.atSimulatedSeconds = sim.now / 1e12;
        d.message = why;
        return d;
    }

    /** What a swap of an element goes to, configured from the pipeline's properties; or, without one, why not. */
    record Resolution(Target target, String problem) {
    }

    /**
     * Finds the factory of {@code type} (at {@code version}, or the newest) and configures it from the element's
     * properties in the pipeline; properties the new type does not have are left out and named in the swap's message.
     */
    static Resolution resolve(Simulation sim, PipelineDTO pipeline, String element, String type, String version) {
        ElementFactory f = sim.registry.factory(type, version);
        if (f == null) {
            return new Resolution(null, version == null ? "type " + type + " is not installed"
                    : "type " + type + " has no bundle of version " + version + "; installed: " + sim.registry.versions(type));
        }
        ElementSpecDTO spec = null;
        for (ElementSpecDTO e : pipeline.elements) {
            if (e.name.equals(element)) {
                spec = e;
            }
        }
        List<ProblemDTO> problems = new ArrayList<>();
        List<String> ignored = new ArrayList<>();
        ElementDescriptorDTO d = f.descriptor();
        ConfigurationImpl config = PipelineBuilder.configure(pipeline.file == null ? "<input>" : pipeline.file, spec, type, d,
                sim.registry.installationDefaults(type), problems, ignored);
        if (config == null) {
            return new Resolution(null, problems.get(0).message);
        }
        String v = version != null ? version : sim.registry.version(type);
        return new Resolution(new Target(f, type, Registry.implementation(type, v), d, config,
                ignored.isEmpty() ? null : "properties " + type + " does not have were left out: " + String.join(", ", ignored)),
                null);
    }

    private Swapper() {
    }

    /** Takes the old instance's side of a swap now (see {@link Exported}); no event may run between this and the swap. */
    static Exported export(Simulation sim, int index) {
        ElementContextImpl ctx = sim.contexts.get(index);
        Element old = sim.elements[index];
        List<Buffer> held = new ArrayList<>();
        old.forEachHeld(held::add);
        if (!(old instanceof Handover ho)) {
            return new Exported(null, ctx.implementation + " does not implement the handover contract (Handover)", held);
        }
        ElementStateImpl state = new ElementStateImpl(ctx.implementation, ctx.type, old.getClass().getClassLoader(), sim,
                new Staging());
        try {
            return ho.exportState(state) ? new Exported(state, null, held)
                    : new Exported(null, ctx.implementation + " cannot export its state", held);
        } catch (RuntimeException | LinkageError e) {
            return new Exported(null, ctx.implementation + " failed to export its state: " + Faults.describe(e), held);
        }
    }

    /**
     * Swaps now; the caller ensures a safe point.
     *
     * @param sim the run
     * @param index the element's index
     * @param target what to swap to
     * @return the swap's record, also added to {@code sim.swaps}
     */
    static SwapDTO swap(Simulation sim, int index, Target target) {
        return swap(sim, index, target, null);
    }

    /**
     * Swaps now with the old instance's side taken earlier ({@link #export}), or now when {@code exported} is null.
     *
     * @return the swap's record, also added to {@code sim.swaps}
     */
    static SwapDTO swap(Simulation sim, int index, Target target, Exported exported) {
        long wallStart = System.nanoTime();
        ElementContextImpl ctx = sim.contexts.get(index);
        Element old = sim.elements[index];
        SwapDTO d = new SwapDTO();
        d.atSimulatedSeconds = sim.now / 1e12;
        d.element = ctx.name;
        d.from = ctx.implementation;
        d.to = target.implementation;
        d.stateHash = sim.stateHash();
        try {
            swap(sim, ctx, old, target, d, exported);
        } finally {
            d.pauseWallMillis = (System.nanoTime() - wallStart) / 1e6;
            sim.swaps.add(d);
        }
        return d;
    }

    private static void swap(Simulation sim, ElementContextImpl ctx, Element old, Target target, SwapDTO d,
            Exported exported) {
        String portProblem = portProblem(ctx, target.descriptor);
        if (portProblem != null) {
            refuse(d, ctx, portProblem);
            return;
        }
        // the old instance's side, before anything changes
        if (exported == null) {
            exported = export(sim, ctx.index);
        }
        List<Buffer> oldHeld = exported.held;

        Prior prior = Prior.stage(sim, ctx, target);
        int oldToken = prior.token;
        List<TimerImpl> oldTimers = prior.timers;
        String oldImplementation = prior.implementation;
        Simulation.Mark mark = sim.mark();
        int newToken = ctx.token;
        Element neu;
        boolean handover = false;
        ElementStateImpl state = exported.state;
        Staging staging = state != null ? state.staging() : new Staging();
        sim.staging = staging;
        String fallback = null;
        try {
            neu = target.factory.create(ctx);
            if (neu == null) {
                throw new IllegalStateException("factory of type " + target.type + " returned no element");
            }
            if (state == null) {
                fallback = exported.why;
            } else if (!(neu instanceof Handover hn)) {
                fallback = target.implementation + " does not implement the handover contract (Handover)";
            } else {
                handover = hn.importState(state);
                if (!handover) {
                    fallback = target.implementation + " cannot import the state of " + oldImplementation;
                }
            }
        } catch (RuntimeException | LinkageError e) {
            // failed activation: undo the staging, the old instance goes on
            sim.staging = null;
            for (CoreImpl core : sim.cores) {
                core.cancelOwned(newToken);
            }
            for (TimerImpl t : ctx.timers) {
                t.cancel();
            }
            prior.restore(ctx);
            sim.rewind(mark);
            String why = e instanceof IllegalArgumentException ? e.getMessage() : Faults.describe(e);
            refuse(d, ctx, target.implementation + " failed to initialise, " + oldImplementation + " keeps running: " + why);
            return;
        }
        ctx.swapPools = null;
        sim.staging = null;

        // commit: the new instance's tasks take the places it asked for, the old instance is retired
        if (handover) {
            staging.applyRequeues(sim, newToken);
        }
        for (CoreImpl core : sim.cores) {
            core.cancelOwned(oldToken);
        }
        for (TimerImpl t : oldTimers) {
            t.cancel();
        }
        ctx.metrics.commit();
        sim.elements[ctx.index] = neu;
        rebind(sim, old, neu, ctx);
        replaceDestructors(sim, old, handover ? staging.destructors : Map.of());

        int drained = accountBuffers(sim, ctx, neu, handover, oldHeld, d);
        d.handover = handover;
        d.applied = true;
        if (target.note != null) {
            fallback = fallback == null ? target.note : fallback + "; " + target.note;
        }
        if (handover && drained > 0) {
            fallback = (fallback == null ? "" : fallback + "; ") + target.implementation + " did not take over "
                    + drained + " packet(s) of " + oldImplementation + ", dropped as " + DRAIN_REASON;
        }
        d.message = fallback;
        if (!handover) {
            neu.start(); // drain-and-restart: the new instance starts afresh
        }
    }

    /**
     * What the element's context held for the old instance, while the new one is staged in it: a failed activation puts
     * it back ({@link #restore}).
     */
    private record Prior(int token, List<TimerImpl> timers, String type, String implementation,
            ElementDescriptorDTO descriptor, ConfigurationImpl config, Map<String, Ports.Out> outputs,
            Map<String, Ports.In> inputs) {

        /**
         * Stages the new instance: a new token, no timers, the target's type, descriptor and configuration, its ports
         * (the old instance's where a name is kept, so connections stay) and the pools it may take over by name.
         *
         * @return what the context held before
         */
        static Prior stage(Simulation sim, ElementContextImpl ctx, Target target) {
            Prior prior = new Prior(ctx.token, ctx.timers, ctx.type, ctx.implementation, ctx.descriptor, ctx.config,
                    ctx.outputs, ctx.inputs);
            ctx.token = sim.newToken();
            ctx.timers = new ArrayList<>();
            ctx.type = target.type;
            ctx.implementation = target.implementation;
            ctx.descriptor = target.descriptor;
            ctx.config = target.config;
            ctx.outputs = new LinkedHashMap<>();
            ctx.inputs = new LinkedHashMap<>();
            for (PortDescriptorDTO p : target.descriptor.ports) {
                if (p.direction == Direction.OUT) {
                    Ports.Out o = prior.outputs.get(p.name);
                    ctx.outputs.put(p.name, o != null ? o : new Ports.Out(sim, ctx.index, p.name));
                } else {
                    Ports.In i = prior.inputs.get(p.name);
                    ctx.inputs.put(p.name, i != null ? i : new Ports.In(sim, ctx.index, p.name));
                }
            }
            ctx.swapPools = new LinkedHashMap<>();
            for (Map.Entry<String, Simulation.PoolSpec> e : sim.poolSpecs.entrySet()) {
                if (e.getKey().startsWith(ctx.name + ".")) {
                    ctx.swapPools.put(e.getKey(), e.getValue());
                }
            }
            ctx.metrics.stage();
            return prior;
        }

        /** The rollback: the context holds the old instance's again, as if the swap had not been tried. */
        void restore(ElementContextImpl ctx) {
            ctx.metrics.rollback();
            ctx.token = token;
            ctx.timers = timers;
            ctx.type = type;
            ctx.implementation = implementation;
            ctx.descriptor = descriptor;
            ctx.config = config;
            ctx.outputs = outputs;
            ctx.inputs = inputs;
            ctx.swapPools = null;
        }
    }

    /**
     * Accounts for the old instance's buffers once the new one runs: those it took over count as transferred, the rest
     * are drained (their packets dropped as {@value #DRAIN_REASON}, a packet's further buffers freed uncounted).
     *
     * @return the packets drained
     */
    private static int accountBuffers(Simulation sim, ElementContextImpl ctx, Element neu, boolean handover,
            List<Buffer> oldHeld, SwapDTO d) {
        Set<Buffer> newHeld = java.util.Collections.newSetFromMap(new IdentityHashMap<>());
        if (handover) {
            neu.forEachHeld(newHeld::add);
        }
        int reason = sim.dropReason(DRAIN_REASON);
        Set<Long> dropped = new HashSet<>();
        Set<Long> transferred = new HashSet<>();
        long buffersTransferred = 0;
        int core = sim.currentCore >= 0 ? sim.currentCore : 0;
        for (Buffer b : oldHeld) {
            if (newHeld.contains(b)) {
                buffersTransferred++;
                for (int k = 0; b.packetId() >= 0 && k < b.segments(); k++) {
                    transferred.add(b.packetId() + k);
                }
                continue;
            }
            if (!b.allocated()) {
                continue; // the new instance freed it (or dropped its packet) itself
            }
            PacketBuffer pb = (PacketBuffer) b;
            if (pb.packetId >= 0 && dropped.add(pb.packetId)) {
                for (int k = 1; k < b.segments(); k++) {
                    dropped.add(pb.packetId + k);
                }
                sim.dropped(ctx.index, core, b, reason);
            } else {
                pb.packetId = -1; // a second buffer of a packet counted already: free it without counting again
                b.pool().free(core, b);
            }
        }
        d.packetsTransferred = transferred.size();
        d.buffersTransferred = buffersTransferred;
        d.packetsDropped = dropped.size();
        return dropped.size();
    }

    /**
     * Gives the buffers of the run the new instance's destructors where its import asked for them, and takes the old
     * instance itself off the others (a destructor that is the old element, such as TCP's {@code tcp_wfree}, would
     * call it again).
     */
    private static void replaceDestructors(Simulation sim, Element old, Map<BufferDestructor, BufferDestructor> map) {
        for (PacketBuffer b : sim.buffers) {
            BufferDestructor d = b.destructor();
            if (d == null || !b.allocated()) {
                continue;
            }
            BufferDestructor r = map.get(d);
            if (r != null) {
                b.destructor(r);
            } else if (d == (Object) old) {
                b.destructor(null);
            }
        }
    }

    private static void refuse(SwapDTO d, ElementContextImpl ctx, String why) {
        d.applied = false;
        d.handover = false;
        d.to = ctx.implementation;
        d.message = why;
    }

    /** @return why the new type cannot take the element's connected ports, or null */
    private static String portProblem(ElementContextImpl ctx, ElementDescriptorDTO target) {
        List<String> missing = new ArrayList<>();
        for (Ports.Out o : ctx.outputs.values()) {
            if (o.target != null && !hasPort(ctx.descriptor, target, o.name, Direction.OUT)) {
                missing.add("output " + o.name);
            }
        }
        for (Ports.In i : ctx.inputs.values()) {
            if (i.source != null && !hasPort(ctx.descriptor, target, i.name, Direction.IN)) {
                missing.add("input " + i.name);
            }
        }
        return missing.isEmpty() ? null : "type " + target.type + " has no " + String.join(", ", missing)
                + " of the same mode, which element " + ctx.name + " has connected";
    }

    private static boolean hasPort(ElementDescriptorDTO from, ElementDescriptorDTO to, String name, Direction dir) {
        PortDescriptorDTO a = null, b = null;
        for (PortDescriptorDTO p : from.ports) {
            if (p.direction == dir && p.name.equals(name)) {
                a = p;
            }
        }
        for (PortDescriptorDTO p : to.ports) {
            if (p.direction == dir && p.name.equals(name)) {
                b = p;
            }
        }
        return a != null && b != null && a.mode == b.mode;
    }

    /** Points every port that reached the old instance to the new one, with the new type's port indices. */
    private static void rebind(Simulation sim, Element old, Element neu, ElementContextImpl ctx) {
        for (ElementContextImpl c : sim.contexts) {
            for (Ports.Out o : c.outputs.values()) {
                if (o.target == old) {
                    o.target = neu;
                    o.targetPort = PipelineBuilder.portIndex(ctx.descriptor, Direction.IN, o.targetPortName);
                }
            }
            for (Ports.In i : c.inputs.values()) {
                if (i.source == old) {
                    i.source = neu;
                    i.sourcePort = PipelineBuilder.portIndex(ctx.descriptor, Direction.OUT, i.sourcePortName);
                }
            }
        }
    }
}
