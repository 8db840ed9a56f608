package io.ringlab.engine.kernel;

import java.io.IOException;
import java.io.UncheckedIOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.HashSet;
import java.util.Iterator;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Set;

import io.ringlab.buffer.api.Buffer;
import io.ringlab.capture.Frames;
import io.ringlab.capture.PcapngFile;
import io.ringlab.pipeline.format.Syntax;
import io.ringlab.pipeline.format.Units;
import io.ringlab.sim.api.dto.ConnectionDTO;
import io.ringlab.sim.api.dto.ElementSpecDTO;
import io.ringlab.sim.api.dto.PipelineDTO;
import io.ringlab.sim.api.dto.PortDescriptorDTO;
import io.ringlab.sim.api.dto.PortDescriptorDTO.Direction;
import io.ringlab.sim.api.dto.ProblemDTO;
import io.ringlab.sim.api.dto.RunOptionsDTO;
import io.ringlab.sim.api.dto.ValueDTO;

/**
 * The packet captures of a run ({@code RunOptionsDTO.captures}, {@code --pcap ELEMENT[.PORT]=FILE}): a capture is a field
 * of the ports it watches, not an element, so it has no event, no metric, no runtime row and no series, and it changes
 * nothing a model sees. Each watched port writes the frames that pass it to one pcapng file ({@link PcapngFile}: formatted
 * on the engine's thread into a preallocated ring, written by a thread of its own), timestamped with virtual time.
 * <p>
 * Addresses. A packet carries a flow number, not addresses, so the capture names the two ends of each flow after the
 * element that started it: the element whose {@code ElementContext.generated} first counted a packet of the flow (every
 * built-in element sets the flow before; a flow first seen at a watched port is the sender's of that packet) is its
 * initiator; at index i it is {@code 10.H.L.1} with MAC {@code 02:00:0a:H:L:01} (H.L = i as two bytes), the flow's other
 * end {@code 10.H.L.2}; a packet allocated by the initiator goes from .1 to .2, any other packet of the flow (an ACK, an
 * echo reply) from .2 to .1. TCP and UDP ports: the initiator's side is 32768 plus the flow's low 15 bits, the other side
 * 5001 for TCP (iperf's) and 9 for UDP (discard, pktgen's); an ICMP echo's identifier is the flow's two halves XORed.
 * This is an assumption of the capture, not of any model: docs/pcap.md.
 * <p>
 * Engine thread only, besides {@link #close}'s writer threads.
 */
final class Captures {
    /** iperf's default TCP port (iperf 2: {@code -p 5001}). */
    static final int TCP_SERVER_PORT = 5001;
    /** The discard port (RFC 863), where pktgen and plain UDP floods send by default. */
    static final int UDP_SERVER_PORT = 9;
    private static final int CLIENT_PORT_BASE = 32768; // the start of Linux's ip_local_port_range
    /** Blocks each capture's ring holds before the engine's thread waits for its writer (fewer for a large snap length). */
    private static final int RING_SLOTS = 4096;
    /** The most bytes a capture's ring takes: 4,096 blocks of the default snap length fit; tcpdump's 262,144 gets 32. */
    private static final int RING_BYTES = 8 << 20;
    private static final int EMPTY = Integer.MIN_VALUE;
    /** tcpdump's largest snap length (MAXIMUM_SNAPLEN, netdissect.h). */
    private static final int MAX_SNAPLEN = 262_144;

    /** One capture: a file and the ports that write to it. */
    static final class Point {
        final String spec;
        final Path file;
        final String interfaceName;
        final int snaplen;
        PcapngFile pcap;
        long frames;

        Point(String spec, Path file, String interfaceName, int snaplen) {
            this.spec = spec;
            this.file = file;
            this.interfaceName = interfaceName;
            this.snaplen = snaplen;
        }
    }

    /**
     * A {@code tap} element of the pipeline file ({@link ElementSpecDTO#TAP}), taken out of the pipeline: its capture
     * watches the connection that took its place.
     */
    record Tap(ElementSpecDTO spec, ConnectionDTO connection, Path file, int snaplen) {
    }

    private final Simulation sim;
    final List<Point> points;
    // flow -> the element that started it: open addressing, grown (rarely) when half full
    private int[] flows = new int[256];
    private int[] initiators = new int[256];
    private int size;

    private Captures(Simulation sim, List<Point> points) {
        this.sim = sim;
        this.points = points;
        Arrays.fill(flows, EMPTY);
    }

    /**
     * Takes the {@code tap} elements out of a run's copy of its pipeline: each, on one connection {@code a -> tap -> b},
     * becomes the connection {@code a -> b}, which its capture will watch.
     *
     * @param file the pipeline file, for problems
     * @param pipeline the run's own copy, changed
     * @param problems where what is wrong goes, at the tap's line
     * @return the taps taken out, in file order
     */
    static List<Tap> splice(String file, PipelineDTO pipeline, List<ProblemDTO> problems) {
        List<Tap> taps = new ArrayList<>();
        Set<String> names = new HashSet<>();
        for (ElementSpecDTO e : pipeline.elements) {
            if (ElementSpecDTO.TAP.equals(e.type)) {
                names.add(e.name);
            }
        }
        for (Iterator<ElementSpecDTO> it = pipeline.elements.iterator(); it.hasNext();) {
            ElementSpecDTO e = it.next();
            if (!ElementSpecDTO.TAP.equals(e.type)) {
                continue;
            }
            it.remove();
            pipeline.layout.remove(e.name);
            List<ConnectionDTO> in = new ArrayList<>();
            List<ConnectionDTO> out = new ArrayList<>();
            for (Iterator<ConnectionDTO> c = pipeline.connections.iterator(); c.hasNext();) {
                ConnectionDTO x = c.next();
                if (e.name.equals(x.to) || e.name.equals(x.from)) {
                    (e.name.equals(x.to) ? in : out).add(x);
                    c.remove();
                }
            }
            String problem = tapProblem(e, in, out, names);
            Path path = null;
            int snaplen = PcapngFile.DEFAULT_SNAPLEN;
            if (problem == null) {
                ValueDTO f = e.properties.get(ElementSpecDTO.TAP_FILE);
                path = Path.of(f.text).toAbsolutePath().normalize();
                problem = fileProblem(path);
                ValueDTO n = e.properties.get(ElementSpecDTO.TAP_SNAPLEN);
                if (problem == null && n != null) {
                    try {
                        snaplen = (int) Math.min(Integer.MAX_VALUE, Units.parseBytes(n.text));
                        problem = snaplenProblem(snaplen);
                    } catch (IllegalArgumentException x) {
                        problem = x.getMessage();
                    }
                    problem = problem == null ? null : ElementSpecDTO.TAP_SNAPLEN + ": " + problem;
                }
            }
            if (problem != null) {
                problems.add(new ProblemDTO(file, e.line, e.column, "tap " + e.name + ": " + problem));
            }
            if (in.size() != 1 || out.size() != 1) {
                continue;
            }
            ConnectionDTO c = new ConnectionDTO(); // also for a refused tap: its neighbours are not left unconnected
            c.from = in.get(0).from;
            c.fromPort = in.get(0).fromPort;
            c.to = out.get(0).to;
            c.toPort = out.get(0).toPort;
            c.line = in.get(0).line;
            c.column = in.get(0).column;
            pipeline.connections.add(c);
            if (problem == null) {
                taps.add(new Tap(e, c, path, snaplen));
            }
        }
        return taps;
    }

    /** @return what is wrong with a tap's place and properties, or null */
    private static String tapProblem(ElementSpecDTO e, List<ConnectionDTO> in, List<ConnectionDTO> out, Set<String> taps) {
        if (in.size() != 1 || out.size() != 1) {
            return "a tap sits on one connection, 'a -> " + e.name + " -> b': it has " + in.size() + " connection(s) in and "
                    + out.size() + " out";
        }
        if ((in.get(0).toPort != null && !in.get(0).toPort.equals("in"))
                || (out.get(0).fromPort != null && !out.get(0).fromPort.equals("out"))) {
            return "a tap's ports are 'in' and 'out'";
        }
        if (taps.contains(in.get(0).from) || taps.contains(out.get(0).to)) {
            return "two taps in a row capture the same frames: keep one";
        }
        for (String key : e.properties.keySet()) {
            if (!key.equals(ElementSpecDTO.TAP_FILE) && !key.equals(ElementSpecDTO.TAP_SNAPLEN)) {
                return "no property '" + key + "'" + Syntax.didYouMean(key, List.of(ElementSpecDTO.TAP_FILE,
                        ElementSpecDTO.TAP_SNAPLEN)) + "; a tap has " + ElementSpecDTO.TAP_FILE + " (the pcapng file, required)"
                        + " and " + ElementSpecDTO.TAP_SNAPLEN + " (bytes kept of each frame, default "
                        + PcapngFile.DEFAULT_SNAPLEN + "B)";
            }
        }
        if (!e.properties.containsKey(ElementSpecDTO.TAP_FILE)) {
            return "property " + ElementSpecDTO.TAP_FILE + " is required: the pcapng file to write, e.g. "
                    + ElementSpecDTO.TAP_FILE + " = \"" + e.name + ".pcapng\"";
        }
        return null;
    }

    /** @return what is wrong with a snap length, or null */
    private static String snaplenProblem(long snaplen) {
        return snaplen < Frames.ETHERNET || snaplen > MAX_SNAPLEN ? snaplen + " bytes: a snap length is " + Frames.ETHERNET
                + " to " + MAX_SNAPLEN + " bytes (tcpdump's largest)" : null;
    }

    /** @return what is wrong with a capture's file, or null */
    private static String fileProblem(Path path) {
        Path dir = path.getParent();
        if (Files.isDirectory(path)) {
            return path + " is a directory; name a file";
        }
        if (dir == null || !Files.isDirectory(dir)) {
            return "the directory " + dir + " does not exist";
        }
        if (!Files.isWritable(dir)) {
            return "the directory " + dir + " is not writable";
        }
        return null;
    }

    /**
     * Reads the run's captures ({@code --pcap} options and the pipeline's taps) and attaches them to the ports they watch.
     *
     * @param file the pipeline file, for problems
     * @param options the run's options
     * @param taps the pipeline's taps ({@link #splice})
     * @param problems where what is wrong goes: each names the {@code --pcap} option or the tap and what is allowed
     * @return the captures, or null when there are none or something is wrong
     */
    static Captures attach(String file, Simulation sim, RunOptionsDTO options, List<Tap> taps, List<ProblemDTO> problems) {
        if ((options.captures == null || options.captures.isEmpty()) && taps.isEmpty()) {
            return null;
        }
        int snaplen = options.captureSnaplen == 0 ? PcapngFile.DEFAULT_SNAPLEN : options.captureSnaplen;
        String bad = snaplenProblem(snaplen);
        if (bad != null) {
            problems.add(new ProblemDTO(file, 0, 0, "--pcap-snaplen " + bad));
            return null;
        }
        Map<Object, Point> watched = new LinkedHashMap<>(); // port -> its capture, for ports two captures name
        Map<Path, String> files = new LinkedHashMap<>();
        List<Point> points = new ArrayList<>();
        int wanted = taps.size();
        for (Tap tap : taps) {
            String problem = attachTap(sim, tap, watched, files, points);
            if (problem != null) {
                problems.add(new ProblemDTO(file, tap.spec().line, tap.spec().column, "tap " + tap.spec().name + ": "
                        + problem));
            }
        }
        for (String spec : options.captures) {
            wanted++;
            String problem = attachOne(sim, spec, snaplen, watched, files, points);
            if (problem != null) {
                problems.add(new ProblemDTO(file, 0, 0, "--pcap " + spec + ": " + problem));
            }
        }
        // a refused capture refuses the run (PipelineBuilder throws), so ports already attached never run
        return points.size() == wanted ? new Captures(sim, points) : null;
    }

    /** @return what is wrong with a tap, or null when it is attached to the connection that took its place */
    private static String attachTap(Simulation sim, Tap tap, Map<Object, Point> watched, Map<Path, String> files,
            List<Point> points) {
        String other = files.putIfAbsent(tap.file(), "tap " + tap.spec().name);
        if (other != null) {
            return other + " writes " + tap.file() + " already; give each capture a file of its own";
        }
        for (ElementContextImpl ctx : sim.contexts) {
            for (Ports.Out out : ctx.outputs.values()) {
                if (out.connection == tap.connection()) {
                    Point point = new Point("tap " + tap.spec().name, tap.file(), tap.spec().name, tap.snaplen());
                    String problem = watch(sim, ctx, out.name, point, watched);
                    if (problem == null) {
                        points.add(point);
                    }
                    return problem;
                }
            }
        }
        throw new IllegalStateException("tap " + tap.spec().name + ": its connection was not wired"); // a bug of ours
    }

    /** @return what is wrong with one option, or null when it is attached */
    private static String attachOne(Simulation sim, String spec, int snaplen, Map<Object, Point> watched,
            Map<Path, String> files, List<Point> points) {
        int eq = spec.indexOf('=');
        if (eq <= 0 || eq == spec.length() - 1) {
            return "expected ELEMENT=FILE or ELEMENT.PORT=FILE (for example eth0=eth0.pcapng)";
        }
        String where = spec.substring(0, eq).trim();
        Path path = Path.of(spec.substring(eq + 1).trim()).toAbsolutePath().normalize();
        int dot = where.indexOf('.');
        String elementName = dot < 0 ? where : where.substring(0, dot);
        String portName = dot < 0 ? null : where.substring(dot + 1);
        ElementContextImpl ctx = null;
        List<String> names = new ArrayList<>();
        for (ElementContextImpl c : sim.contexts) {
            names.add(c.name);
            if (c.name.equals(elementName)) {
                ctx = c;
            }
        }
        if (ctx == null) {
            return "no element '" + elementName + "' in the pipeline" + Syntax.didYouMean(elementName, names)
                    + "; its elements: " + String.join(", ", names);
        }
        String wrong = fileProblem(path);
        if (wrong != null) {
            return wrong;
        }
        String other = files.putIfAbsent(path, "--pcap " + spec);
        if (other != null) {
            return other + " writes " + path + " already; give each capture a file of its own";
        }
        List<String> ports = new ArrayList<>();
        if (portName != null) {
            PortDescriptorDTO p = portOf(ctx, portName);
            if (p == null) {
                return ctx.name + " (" + ctx.descriptor.type + ") has no port '" + portName + "'"
                        + Syntax.didYouMean(portName, portNames(ctx)) + "; its ports: " + String.join(", ", portNames(ctx));
            }
            ports.add(p.name);
        } else if (isDriver(ctx)) {
            ports.add("wire"); // a driver: what tcpdump -i shows, what it sends to the link and what arrives from it
            ports.add("rx");
        } else {
            ports.addAll(portNames(ctx));
        }
        Point point = new Point("--pcap " + spec, path, where, snaplen);
        int attached = 0;
        for (String port : ports) {
            if (ends(sim, ctx, port).isEmpty()) {
                continue;
            }
            String problem = watch(sim, ctx, port, point, watched);
            if (problem != null) {
                return problem;
            }
            attached++;
        }
        if (attached == 0) {
            return portName != null ? "port " + ctx.name + "." + portName + " is not connected: nothing passes it"
                    : ctx.name + " has no connected port: nothing passes it";
        }
        points.add(point);
        return null;
    }

    /** Attaches a capture to the port objects of {@code ctx.port}; @return what is wrong, or null */
    private static String watch(Simulation sim, ElementContextImpl ctx, String port, Point point, Map<Object, Point> watched) {
        for (Object end : ends(sim, ctx, port)) {
            Point before = watched.putIfAbsent(end, point);
            if (before != null && before != point) {
                return "port " + ctx.name + "." + port + " is captured by " + before.spec + " already";
            }
            if (end instanceof Ports.Out o) {
                o.tap = point;
            } else {
                ((Ports.In) end).tap = point;
            }
        }
        return null;
    }

    /** @return whether the element has a driver's ports: a {@code wire} output to the link, an {@code rx} input from it */
    private static boolean isDriver(ElementContextImpl ctx) {
        PortDescriptorDTO wire = portOf(ctx, "wire");
        PortDescriptorDTO rx = portOf(ctx, "rx");
        return wire != null && wire.direction == Direction.OUT && rx != null && rx.direction == Direction.IN;
    }

        private static PortDescriptorDTO portOf(ElementContextImpl ctx, String name) {
        for (PortDescriptorDTO p : ctx.descriptor.ports) {
            if (p.name.equals(name)) {
                return p;
            }
        }
        return null;
    }

    private static List<String> portNames(ElementContextImpl ctx) {
        List<String> names = new ArrayList<>();
        for (PortDescriptorDTO p : ctx.descriptor.ports) {
            names.add(p.name);
        }
        return names;
    }

    /**
     * @return the port objects a packet through {@code ctx.port} passes: for an output, the output (pushes) and the input
     *         that pulls from it; for an input, every output that pushes to it and the input (pulls)
     */
    private static List<Object> ends(Simulation sim, ElementContextImpl ctx, String port) {
        List<Object> ends = new ArrayList<>();
        Ports.Out out = ctx.outputs.get(port);
        if (out != null && out.target != null) {
            ends.add(out);
            for (ElementContextImpl c : sim.contexts) {
                for (Ports.In in : c.inputs.values()) {
                    if (in.sourceIndex == ctx.index && port.equals(in.sourcePortName)) {
                        ends.add(in);
                    }
                }
            }
        }
        Ports.In in = ctx.inputs.get(port);
        if (in != null) {
            for (ElementContextImpl c : sim.contexts) {
                for (Ports.Out o : c.outputs.values()) {
                    if (o.targetIndex == ctx.index && port.equals(o.targetPortName)) {
                        ends.add(o);
                    }
                }
            }
            if (in.source != null) {
                ends.add(in);
            }
        }
        return ends;
    }

    /**
     * Opens the files ({@code FILE.partial} until {@link #close}).
     *
     * @throws IOException naming the file that cannot be created; those opened before it are removed
     */
    void open() throws IOException {
        for (Point p : points) {
            try {
                int slots = Math.max(2, Math.min(RING_SLOTS, RING_BYTES / (p.snaplen + 32)));
                p.pcap = new PcapngFile(p.file, p.snaplen, p.interfaceName, slots);
            } catch (IOException e) {
                discard();
                throw new IOException("pcap " + p.file + ": cannot be created: " + e.getMessage(), e);
            }
        }
    }

    /** Removes the files of a run that did not start. */
    private void discard() {
        for (Point p : points) {
            if (p.pcap != null) {
                try {
                    p.pcap.close();
                    Files.deleteIfExists(p.file);
                } catch (IOException ignored) {
                    // nothing was captured
                }
                p.pcap = null;
            }
        }
    }

    /**
     * Writes what is left and gives every file its name.
     *
     * @return what went wrong, naming each file not written, or null
     */
    String close() {
        StringBuilder problems = new StringBuilder();
        for (Point p : points) {
            PcapngFile f = p.pcap;
            if (f != null) {
                p.pcap = null; // a packet that passes later (an element's stop) is not captured
                p.frames = f.frames();
                try {
                    f.close();
                } catch (IOException e) {
                    problems.append(problems.isEmpty() ? "" : "; ").append(e.getMessage());
                }
            }
        }
        return problems.isEmpty() ? null : problems.toString();
    }

    /** @return the frames written to each file so far, by file */
    Map<Path, Long> frames() {
        Map<Path, Long> m = new LinkedHashMap<>();
        for (Point p : points) {
            m.put(p.file, p.pcap == null ? p.frames : p.pcap.frames());
        }
        return m;
    }

    /** A packet is generated: the first of its flow names the flow's initiator. Allocates nothing but when the table grows. */
    void generated(PacketBuffer b) {
        initiator(b.flow(), b.origin);
    }

    /** A packet passes a watched port: writes its frame. Allocates nothing. */
    void passes(Point tap, Buffer buffer) {
        if (tap.pcap == null) {
            return; // the run has ended its captures (an element's stop)
        }
        PacketBuffer b = (PacketBuffer) buffer;
        int initiator = initiator(b.flow(), b.origin);
        int flow = b.flow();
        boolean reply = b.origin != initiator;
        int i = Math.max(initiator, 0);
        int ip = 0x0A000000 | ((i & 0xffff) << 8) | 1;
        int peer = ip + 1;
        int client = CLIENT_PORT_BASE + (flow & 0x7fff);
        int server;
        switch (b.protocol()) {
            case Buffer.PROTO_TCP -> server = TCP_SERVER_PORT;
            case Buffer.PROTO_ICMP -> {
                client = (flow ^ (flow >>> 16)) & 0xffff; // the echo identifier, the same both ways (ping: its pid)
                server = client;
            }
            default -> server = UDP_SERVER_PORT;
        }
        try {
            if (reply) {
                tap.pcap.write(sim.now / 1000, b, mac(peer), mac(ip), peer, ip, server, client);
            } else {
                tap.pcap.write(sim.now / 1000, b, mac(ip), mac(peer), ip, peer, client, server);
            }
        } catch (UncheckedIOException e) {
            throw new IllegalStateException(e.getMessage(), e); // the run fails, naming the file
        }
    }

    /** @return the locally administered MAC address 02:00 followed by the IPv4 address */
    private static long mac(int ip) {
        return 0x0200_0000_0000L | (ip & 0xffff_ffffL);
    }

    /** @return the element that started {@code flow}: {@code origin} when the flow is new */
    private int initiator(int flow, int origin) {
        int mask = flows.length - 1;
        int k = mix(flow) & mask;
        while (flows[k] != EMPTY) {
            if (flows[k] == flow) {
                return initiators[k];
            }
            k = (k + 1) & mask;
        }
        flows[k] = flow;
        initiators[k] = origin;
        if (++size * 2 > flows.length) {
            grow();
        }
        return origin;
    }

    private void grow() {
        int[] oldFlows = flows;
        int[] oldInitiators = initiators;
        flows = new int[oldFlows.length * 2];
        initiators = new int[oldFlows.length * 2];
        Arrays.fill(flows, EMPTY);
        int mask = flows.length - 1;
        for (int j = 0; j < oldFlows.length; j++) {
            if (oldFlows[j] != EMPTY) {
                int k = mix(oldFlows[j]) & mask;
                while (flows[k] != EMPTY) {
                    k = (k + 1) & mask;
                }
                flows[k] = oldFlows[j];
                initiators[k] = oldInitiators[j];
            }
        }
    }

    private static int mix(int x) {
        x *= 0x9E3779B9;
        return x ^ (x >>> 16);
    }
}
