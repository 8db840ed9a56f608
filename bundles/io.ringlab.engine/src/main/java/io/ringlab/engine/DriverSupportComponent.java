package io.ringlab.engine;

import java.util.function.IntSupplier;

import org.osgi.service.component.annotations.Component;

import io.ringlab.buffer.api.Buffer;
import io.ringlab.buffer.api.BufferVisitor;
import io.ringlab.driver.api.DescriptorRing;
import io.ringlab.driver.api.DriverSupport;
import io.ringlab.driver.api.Napi;
import io.ringlab.driver.api.NapiPoller;
import io.ringlab.driver.api.QdiscRun;
import io.ringlab.driver.api.StartXmit;
import io.ringlab.driver.api.SendRing;
import io.ringlab.driver.api.TxSegments;
import io.ringlab.engine.kernel.NapiImpl;
import io.ringlab.engine.kernel.QdiscRunImpl;
import io.ringlab.engine.kernel.SendRingImpl;
import io.ringlab.engine.kernel.TxSegmentsImpl;
import io.ringlab.sim.api.ElementContext;

/** Publishes the kernel machinery drivers share (NAPI, the qdisc run) as the {@link DriverSupport} service. */
@Component(service = DriverSupport.class, property = DriverSupport.KIND + "=" + DriverSupport.LINUX)
public class DriverSupportComponent implements DriverSupport {
    @Override
    public Napi napi(ElementContext context, int core, int weight, long pollCycles, NapiPoller poller) {
        return NapiImpl.of(context, core, weight, pollCycles, poller);
    }

    @Override
    public TxSegments txSegments(ElementContext context, int core, io.ringlab.sim.api.InputPort in,
            io.ringlab.buffer.api.BufferPool segmentPool) {
        return new TxSegmentsImpl(context, core, in, segmentPool);
    }

    @Override
    public SendRing sendRing(ElementContext context, int core, int size, io.ringlab.buffer.api.BufferPool wirePool) {
        return new SendRingImpl(context, core, size, wirePool);
    }

    @Override
    public QdiscRun qdiscRun(ElementContext context, int core, io.ringlab.sim.api.InputPort in,
            io.ringlab.buffer.api.BufferPool segmentPool, StartXmit driver) {
        return new QdiscRunImpl(context, core, new TxSegmentsImpl(context, core, in, segmentPool), driver);
    }

    @Override
    public DescriptorRing receiveRing(Buffer[] slots, IntSupplier used) {
        return new DescriptorRing() {
            @Override public int size() { return slots.length; }
            @Override public int used() { return used.getAsInt(); }

            @Override
            public void forEachHeld(BufferVisitor visitor) {
                for (Buffer b : slots) {
                    if (b != null) {
                        visitor.visit(b);
                    }
                }
            }
        };
    }
}
