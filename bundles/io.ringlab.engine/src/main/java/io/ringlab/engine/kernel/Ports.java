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
            ((PacketBuffer) buffer).owner = targetIndex;
            target.push(targetPort, buffer);
        }

        @Override
        public void pushBatch(Buffer[] buffers, int offset, int count) {
            if (target == null) {
                sim.unconnected(ownerIndex, name);
                return;
            }
            for (int i = offset, end = offset + count; i < end; i++) {
                ((PacketBuffer) buffers[i]).owner = targetIndex;
            }
            target.pushBatch(targetPort, buffers, offset, count);
        }

        @Override
        public void ready() {
            if (target != null) {
                target.ready(targetPort);
            }
        }
    }

    static final class In implements InputPort {
        final String name;
        final int ownerIndex;
        Element source;
        int sourcePort;

        In(int ownerIndex, String name) {
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
            Buffer b = source.pull(sourcePort);
            if (b != null) {
                ((PacketBuffer) b).owner = ownerIndex;
            }
            return b;
        }
    }
}
