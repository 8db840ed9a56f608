package io.ringlab.traffic;

import static io.ringlab.sim.api.dto.MetricDescriptorDTO.COUNTER;
import static io.ringlab.sim.api.dto.MetricDescriptorDTO.GAUGE;
import static io.ringlab.sim.api.dto.MetricDescriptorDTO.HISTOGRAM;

import java.util.List;

import org.osgi.service.component.annotations.Component;

import io.ringlab.sim.api.Element;
import io.ringlab.sim.api.ElementContext;
import io.ringlab.sim.api.ElementFactory;
import io.ringlab.sim.api.dto.ElementDescriptorDTO;
import io.ringlab.sim.api.dto.MetricDescriptorDTO;
import io.ringlab.sim.api.dto.PortDescriptorDTO;
import io.ringlab.sim.api.dto.PortDescriptorDTO.Direction;
import io.ringlab.sim.api.dto.PortDescriptorDTO.Mode;
import io.ringlab.sim.api.dto.PropertyDescriptorDTO;
import io.ringlab.sim.api.dto.PropertyDescriptorDTO.Kind;

/** Element type {@code http-load}: see {@link HttpLoadElement} and docs/models/haproxy.md. */
@Component(service = ElementFactory.class, property = ElementFactory.TYPE + "=http-load")
public class HttpLoadFactory implements ElementFactory {
    // The element's metrics, each declared once: the descriptor lists them and the element registers by them.
    static final MetricDescriptorDTO CONNECTIONS = new MetricDescriptorDTO(COUNTER, "connections",
            "connections completed (response received)");
    static final MetricDescriptorDTO FAILED_CONNECTIONS = new MetricDescriptorDTO(COUNTER, "failedConnections",
            "connections that failed (timed out)");
    static final MetricDescriptorDTO CONN_PER_SECOND = new MetricDescriptorDTO(GAUGE, "connPerSecond",
            "connections completed after the warm-up per second since");
    static final MetricDescriptorDTO GOODPUT_MBIT_PER_SECOND = new MetricDescriptorDTO(GAUGE, "goodputMbitPerSecond",
            "response bodies after the warm-up, in megabits per second");
    static final MetricDescriptorDTO OPEN = new MetricDescriptorDTO(GAUGE, "open", "connections in progress now");
    static final MetricDescriptorDTO FRAMES_SENT = new MetricDescriptorDTO(COUNTER, "framesSent",
            "frames sent by the clients");
    static final MetricDescriptorDTO FRAMES_RECEIVED = new MetricDescriptorDTO(COUNTER, "framesReceived",
            "frames received by the clients");
    static final MetricDescriptorDTO STALE_FRAMES = new MetricDescriptorDTO(COUNTER, "staleFrames",
            "frames for a connection that no longer exists");
    static final MetricDescriptorDTO RESPONSE_BYTES = new MetricDescriptorDTO(COUNTER, "responseBytes",
            "response body bytes received");
    static final MetricDescriptorDTO ALLOC_FAILURES = new MetricDescriptorDTO(COUNTER, "allocFailures",
            "frames not sent because the clients' pool was empty (their connections time out)");
    /** Every metric the element registers, in the order {@code ringlab elements} lists them. */
    static final List<MetricDescriptorDTO> METRICS = List.of(CONNECTIONS, FAILED_CONNECTIONS, CONN_PER_SECOND,
            GOODPUT_MBIT_PER_SECOND, OPEN, FRAMES_SENT, FRAMES_RECEIVED, STALE_FRAMES, RESPONSE_BYTES, ALLOC_FAILURES,
            new MetricDescriptorDTO(HISTOGRAM, "connectionTimeCount", "connection times recorded"),
            new MetricDescriptorDTO(HISTOGRAM, "connectionTimeP50Micros",
                    "median time from SYN to the end of the response"),
            new MetricDescriptorDTO(HISTOGRAM, "connectionTimeP90Micros", "90th percentile of the connection time"),
            new MetricDescriptorDTO(HISTOGRAM, "connectionTimeP99Micros", "99th percentile of the connection time"),
            new MetricDescriptorDTO(HISTOGRAM, "connectionTimeMinMicros", "shortest connection time"),
            new MetricDescriptorDTO(HISTOGRAM, "connectionTimeMaxMicros", "longest connection time"),
            new MetricDescriptorDTO(HISTOGRAM, "connectionTimeMeanMicros", "mean connection time"));

    private static final ElementDescriptorDTO DESCRIPTOR = describe();

    private static ElementDescriptorDTO describe() {
        ElementDescriptorDTO d = new ElementDescriptorDTO();
        d.type = "http-load";
        d.category = ElementDescriptorDTO.SOURCE;
        d.summary = "HTTP clients and a server beyond a proxy's port: short HTTP/1.0 connections in a closed loop";
        d.description = "Keeps 'concurrency' connections open through an HTTP proxy ('haproxy'), each a handshake, a GET, a"
                + " response of 'responseHeaderBytes' plus 'responseBytes' from the server, and the close; a new connection"
                + " starts as soon as one ends. Plays the server too (the proxy forwards to it through the same port). Frames"
                + " leave on 'out' (pulled by a link) and come back on 'in'. A connection without progress for 'timeout' is"
                + " counted as failed and replaced. The clients and the server are fast: no CPU model.";
        d.ports.add(PortDescriptorDTO.of("out", Direction.OUT, Mode.PULL, true, "frames towards the proxy's port"));
        d.ports.add(PortDescriptorDTO.of("in", Direction.IN, Mode.PUSH, true, "frames from the proxy's port"));
        d.properties.add(PropertyDescriptorDTO.of("concurrency", Kind.INTEGER, "64", "1", "65536",
                "connections kept open at once (each slot opens a new one when its connection ends)"));
        d.properties.add(PropertyDescriptorDTO.of("requestBytes", Kind.SIZE, "100B", "1B", "1448B",
                "the client's GET request (one segment)"));
        d.properties.add(PropertyDescriptorDTO.of("responseHeaderBytes", Kind.SIZE, "150B", "1B", "1448B",
                "the server's response headers"));
        d.properties.add(PropertyDescriptorDTO.of("responseBytes", Kind.SIZE, "0B", "0B", "1073741824B",
                "the response body: 0 for an empty file"));
        d.properties.add(PropertyDescriptorDTO.of("window", Kind.SIZE, "65536B", "2896B", "16777216B",
                "the server's send window: unacknowledged response bytes at most (rounded down to an even number of"
                        + " 1448-byte segments)"));
        d.properties.add(PropertyDescriptorDTO.of("timeout", Kind.DURATION, "200ms", "1ms", "60s",
                "a connection without progress for this long is counted as failed (a lost frame: no retransmission is"
                        + " modelled; 200 ms = TCP_RTO_MIN)"));
        d.properties.add(PropertyDescriptorDTO.of("startJitter", Kind.DURATION, "10us", "0s", "1s",
                "each new connection starts after a random delay up to this (uniform, from the run's seed)"));
        d.properties.add(PropertyDescriptorDTO.of("warmup", Kind.DURATION, "100ms", "0s", "3600s",
                "connections completed before this are not counted in connPerSecond and goodputMbitPerSecond"));
        d.metricDescriptors.addAll(METRICS);
        d.modelPage = "docs/models/haproxy.md";
        return d;
    }

    @Override
    public ElementDescriptorDTO descriptor() {
        return DESCRIPTOR;
    }

    @Override
    public Element create(ElementContext context) {
        return new HttpLoadElement(context);
    }
}
