package io.ringlab.engine.kernel;

import io.ringlab.buffer.api.Buffer;
import io.ringlab.sim.api.Element;
import io.ringlab.sim.api.InputPort;
import io.ringlab.sim.api.OutputPort;

/** Port implementations. Binding happens after every element of a run exists; a push is one owner store and one call. */
final class Ports {
    private Ports() {
    }

    static final class Out implements OutputPort {
        final String name;
        final Simulation sim;
        final int ownerIndex;
        Element target;
        int targetIndex = -1;
        int targetPort;
        /** The target input's name (a hot swap finds the new type's index by it). */
        String targetPortName;
        /** The pipeline's connection from this output, for messages; null for a port a hot swap added. */
        io.ringlab.sim.api.dto.ConnectionDTO connection;
        /** The capture that watches the packets pushed here ({@code --pcap}), or null. */
        Captures.Point tap;

        Out(Simulation sim, int ownerIndex, String name) {
            this.sim = sim;
            this.ownerIndex = ownerIndex;
            this.name = name;
        }

        @Override public String name() { return name; }
        @Override public boolean connected() { return target != null; }

        @Override
        public void push(Buffer buffer) {
            if (target == null) {
                sim.unconnected(ownerIndex, name);
                return;
            }
            if (tap != null) {
                sim.captures.passes(tap, buffer); // before the target sees it: it may free or change the buffer
            }
            ((PacketBuffer) buffer).owner = targetIndex;
            int depth = enter();
            try {
                target.push(targetPort, buffer);
            } catch (RuntimeException | Error e) {
                sim.faultAt(targetIndex); // costs nothing unless thrown: names the innermost failing element
                throw e;
            } finally {
                sim.pushDepth = depth;
            }
        }

        /** Counts one more push nested in the current call, refusing one past the limit; @return the depth before it */
        private int enter() {
            int depth = sim.pushDepth;
            if (depth == Simulation.MAX_PUSH_DEPTH) {
                throw sim.pushTooDeep(this);
            }
            sim.pushPath[depth] = this;
            sim.pushDepth = depth + 1;
            return depth;
        }

        /** @return {@code owner.port -> target (line N)} */
        String describe() {
            String s = sim.contexts.get(ownerIndex).name + "." + name + " -> "
                    + (targetIndex < 0 ? "nothing" : sim.contexts.get(targetIndex).name);
            return connection == null ? s : s + " (line " + connection.line + ")";
        }

        @Override
        public void pushBatch(Buffer[] buffers, int offset, int count) {
            if (target == null) {
                sim.unconnected(ownerIndex, name);
                return;
            }
            for (int i = offset, end = offset + count; i < end; i++) {
                if (tap != null) {
                    sim.captures.passes(tap, buffers[i]);
                }
                ((PacketBuffer) buffers[i]).owner = targetIndex;
            }
            int depth = enter();
            try {
                target.pushBatch(targetPort, buffers, offset, count);
            } catch (RuntimeException | Error e) {
                sim.faultAt(targetIndex); // costs nothing unless thrown: names the innermost failing element
                throw e;
            } finally {
                sim.pushDepth = depth;
            }
        }

        @Override
        public void ready() {
            if (target != null) {
                try {
                    target.ready(targetPort);
                } catch (RuntimeException | Error e) {
                    sim.faultAt(targetIndex); // costs nothing unless thrown: names the innermost failing element
                    throw e;
                }
            }
        }
    }

    static final class In implements InputPort {
        final String name;
        final Simulation sim;
        final int ownerIndex;
        Element source;
        int sourceIndex = -1;
        int sourcePort;
        /** The source output's name. */
        String sourcePortName;
        /** The capture that watches the packets pulled here ({@code --pcap}), or null. */
        Captures.Point tap;

        In(Simulation sim, int ownerIndex, String name) {
            this.sim = sim;
            this.ownerIndex = ownerIndex;
            this.name = name;
        }

        @Override public String name() { return name; }
        @Override public boolean connected() { return source != null; }

        @Override
        public Buffer pull() {
            if (source == null) {
                return null;
            }
            Buffer b;
            try {
                b = source.pull(sourcePort);
            } catch (RuntimeException | Error e) {
                sim.faultAt(sourceIndex); // costs nothing unless thrown: names the innermost failing element
                throw e;
            }
            if (b != null) {
                if (tap != null) {
                    sim.captures.passes(tap, b);
                }
                ((PacketBuffer) b).owner = ownerIndex;
            }
            return b;
        }
    }

    /**
     * @param path the outputs of the pushes nested in the call, outermost first; {@code path.length} of them
     * @param next the output that would have gone one deeper
     * @return what went wrong, in words: a cycle of pushes with no time in it (naming its outputs), or a chain longer
     *         than the engine's limit
     */
    static String tooDeep(Out[] path, Out next) {
        int max = path.length;
        int first = -1;
        for (int i = 0; i < max && first < 0; i++) {
            first = path[i] == next ? i : -1;
        }
        String message;
        if (first >= 0) {
            StringBuilder cycle = new StringBuilder();
            for (int i = first; i < max && (i == first || path[i] != next); i++) {
                cycle.append(i == first ? "" : ", ").append(path[i].describe());
            }
            message = "a cycle of pushes with no time in it: " + cycle + "; a packet went round it within one call until "
                    + String.format("%,d", max) + " pushes were nested. Put an element that takes time in the cycle (a link, or a"
                    + " qdisc that a driver drains)";
        } else {
            String limit = String.format("%,d", max);
            message = limit + " pushes nested within one call, from " + path[0].describe() + " to "
                    + next.describe() + ": a chain of more than " + limit + " elements that push on at once is"
                    + " beyond the engine's limit; shorten it, or split it with an element that takes time (a link)";
        }
        return message;
    }
}
