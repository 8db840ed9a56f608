package io.ringlab.packetdrill;

import io.ringlab.buffer.api.Buffer;
import io.ringlab.buffer.api.BufferPool;
import io.ringlab.packetdrill.Event.AssertEvent;
import io.ringlab.packetdrill.Event.Direction;
import io.ringlab.packetdrill.Event.PacketEvent;
import io.ringlab.packetdrill.Event.ShellEvent;
import io.ringlab.packetdrill.Event.SyscallEvent;
import io.ringlab.sim.api.Element;
import io.ringlab.sim.api.ElementContext;
import io.ringlab.sim.api.ElementFactory;
import io.ringlab.sim.api.OutputPort;
import io.ringlab.sim.api.Timer;
import io.ringlab.sim.api.dto.ElementDescriptorDTO;
import io.ringlab.sim.api.dto.PortDescriptorDTO;
import java.util.ArrayDeque;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.TreeMap;

/**
 * Element type {@code pdpeer}: packetdrill's side of the tun device, and packetdrill's interpreter, inside one run. It
 * walks the script's events in order on the engine thread, each at its time under packetdrill's rule (run.c
 * {@code adjust_relative_event_times}: a relative time counts from the live time at which the previous event completed,
 * or, between two injected segments, from the previous one's scripted time): it injects {@code <} segments on
 * {@code out} (buffers of its own pool with every TCP header field set), takes what the model sends on {@code in} into
 * a queue (the tun device's), matches the queue against each {@code >} event as run_packet.c
 * {@code do_outbound_script_packet} does (consecutive segments aggregated up to the script's payload unless
 * {@code --strict_segments}; flags, sequence, ack, window when written, options unless {@code <...>}; the time within
 * the tolerance of run.c {@code verify_time}), drives the model's socket ({@link Stack}) for system calls and evaluates
 * {@code %{ }%} blocks against its tcp_info at the block's time. The first mismatch ends the run with
 * {@code file:line: what the script expects, what the model did}.
 *
 * <p>Not modelled from packetdrill: payload contents (the model carries none), IP-level fields, option order and NOP
 * padding (the buffer carries a mask of options; their total length is checked as the TCP header length), checksums.
 * Engine thread only.
 */
final class Peer implements Element {

	/** packetdrill's sniff timeout: 2 s after the latest expected time (run_packet.c sniff_outbound_live_packet). */
	static final long SNIFF_TIMEOUT_US = 2_000_000;
	/** The wait for a {@code *} outbound segment, which packetdrill waits for without end: 600 s here. */
	static final long ANY_TIME_WAIT_US = 600_000_000;
	/** Ethernet and IPv4 header bytes in front of the TCP header. */
	static final int L2_L3 = 14 + 20;

	/** The type's factory; one per run, bound to the run's {@link Session}. */
	static final class Factory implements ElementFactory {
		static final String TYPE = "pdpeer";
		private static final ElementDescriptorDTO DESCRIPTOR = describe();
		private final Session session;

		Factory(Session session) {
			this.session = session;
		}

		private static ElementDescriptorDTO describe() {
			ElementDescriptorDTO d = new ElementDescriptorDTO();
			d.type = TYPE;
			d.category = ElementDescriptorDTO.SOURCE;
			d.summary = "packetdrill's tun device and interpreter (test code)";
			d.description = "Injects a script's inbound segments, matches what the model sends against its outbound ones";
			d.ports.add(PortDescriptorDTO.of("out", PortDescriptorDTO.Direction.OUT, PortDescriptorDTO.Mode.PUSH, true,
					"segments the script injects"));
			d.ports.add(PortDescriptorDTO.of("in", PortDescriptorDTO.Direction.IN, PortDescriptorDTO.Mode.PUSH, true,
					"segments the model sends"));
			return d;
		}

		@Override
		public ElementDescriptorDTO descriptor() {
			return DESCRIPTOR;
		}

		@Override
		public Element create(ElementContext context) {
			return new Peer(context, session);
		}
	}

	/** A script's mismatch or unsupported construct at a line. */
	static final class Fail extends RuntimeException {
		private static final long serialVersionUID = 1L;
		final int line;

		Fail(int line, String message) {
			super(message);
			this.line = line;
		}
	}

	/** One segment the model sent, as the peer saw it (live sequence numbers). */
	record Seg(long micros, int flags, long seq, long ack, int window, int headerBytes, int options, int mss,
			int wscale, long tsVal, long tsEcr, long[] sack, int payload, int flow) {

		String describe(long isnOffset) {
			StringBuilder sb = new StringBuilder();
			sb.append(Segments.flagText(flags)).append(' ').append(seq - isnOffset).append(':')
					.append(seq - isnOffset + payload).append('(').append(payload).append(')');
			if ((flags & Buffer.TCP_ACK) != 0) {
				sb.append(" ack ").append(ack);
			}
			sb.append(" win ").append(window);
			String opts = Segments.optionText(options, mss, wscale, tsVal, tsEcr, sack, 0);
			if (!opts.isEmpty()) {
				sb.append(" <").append(opts).append('>');
			}
			sb.append(" (TCP header ").append(headerBytes).append(" B)");
			return sb.toString();
		}
	}

	private final ElementContext ctx;
	private final Session session;
	private final OutputPort out;
	private final BufferPool pool;
	private final Timer timer;
	private final List<Event> events;
	private final ArrayDeque<Seg> received = new ArrayDeque<>();
	private final Map<Long, Long> tsValMap = new HashMap<>();
	private final PyEval py = new PyEval();
	private int index;
	private boolean adjusted;
	private long startUs, endUs;
	private long lastEventUs = Long.MIN_VALUE;
	private boolean inStep, waiting, finished;
	private long deadlineUs;
	/** The model's ISN, live and as the script writes it (0 until its SYN or SYN-ACK is seen). */
	private long localIsnLive, localIsnScript;
	private boolean isnKnown;
	private boolean firstTs;
	private long firstScriptTsVal, firstActualTsVal;

	Peer(ElementContext ctx, Session session) {
		this.ctx = ctx;
		this.session = session;
		this.out = ctx.output("out");
		this.pool = ctx.pool("fixed", "segments", 1024, 65_535 + L2_L3 + 60, Map.of());
		this.timer = ctx.timer(now -> onTimer());
		this.events = session.script.events();
		session.peer = this;
	}

	@Override
	public void start() {
		timer.at(0);
	}

	@Override
	public void push(int inPort, Buffer b) {
		if (finished) {
			ctx.deliver(0, b); // the run stops at the end of its chunk of events; the script has ended
			return;
		}
		if (b.protocol() != Buffer.PROTO_TCP) {
			String what = "protocol " + b.protocol() + ", " + b.length() + " B";
			ctx.deliver(0, b);
			fail(new Fail(currentLine(), "the model sent a frame that is not TCP (" + what + ")"));
			return;
		}
		long us = ctx.nowPicos() / 1_000_000;
		int segs = Math.max(1, b.segments());
		int payload = b.length() - L2_L3 - b.tcpHeaderBytes();
		long[] sack = new long[2 * b.sackBlocks()];
		for (int i = 0; i < b.sackBlocks(); i++) {
			sack[2 * i] = b.sackStart(i);
			sack[2 * i + 1] = b.sackEnd(i);
		}
		// a GSO buffer is one packet here, as packetdrill's tun device (IFF_VNET_HDR with TUNSETOFFLOAD TSO4/TSO6,
		// netdev.c) hands the sniffer the whole TSO packet with the header the kernel built for it
		received.add(new Seg(us, b.flags(), b.seq(), b.ack(), b.tcpWindow(), b.tcpHeaderBytes(), b.tcpOptions(),
				b.tcpMssOption(), b.tcpWscaleOption(), b.tsVal(), b.tsEcr(), sack, payload, b.flow()));
		ctx.deliver(0, b);
		session.trace("%.6f model sent %s", us / 1e6, received.peekLast().describe(isnOffset()));
		if (!inStep && waiting && !finished) {
			step();
		}
	}

	private long isnOffset() {
		return localIsnLive - localIsnScript;
	}

	private long nowUs() {
		return ctx.nowPicos() / 1_000_000;
	}

	private int currentLine() {
		return index < events.size() ? events.get(index).line() : events.get(events.size() - 1).line();
	}

	private void onTimer() {
		if (finished) {
			return;
		}
		if (waiting && nowUs() >= deadlineUs) {
			PacketEvent p = (PacketEvent) events.get(index);
			String got = received.isEmpty() ? "nothing" : received.size() + " segment(s) of "
					+ received.stream().mapToInt(Seg::payload).sum() + " payload bytes (first: "
					+ received.peekFirst().describe(isnOffset()) + ")";
			fail(new Fail(p.line(), "expected " + Segments.describe(p) + " at " + sec(startUs)
					+ (p.time().range() ? "~" + sec(endUs) : "") + " s; by " + sec(deadlineUs) + " s the model sent "
					+ got + Session.STATE_HINT));
			return;
		}
		step();
	}

	private void step() {
		inStep = true;
		try {
			while (!finished) {
				if (index == events.size()) {
					finish();
					return;
				}
				Event e = events.get(index);
				long now = nowUs();
				if (!adjusted) {
					adjust(e, now);
				}
				if (e instanceof PacketEvent p && p.direction() == Direction.OUTBOUND) {
					if (!outbound(p)) {
						waiting = true;
						deadlineUs = p.time().kind() == Time.Kind.ANY ? now + ANY_TIME_WAIT_US
								: Math.max(startUs, endUs) + SNIFF_TIMEOUT_US;
						timer.at(deadlineUs * 1_000_000);
						return;
					}
					waiting = false;
				} else {
					if (startUs > now) {
						timer.at(startUs * 1_000_000);
						return;
					}
					verifyTime(e, now, "event");
					run(e, now);
				}
				lastEventUs = startUs;
				index++;
				adjusted = false;
			}
		} catch (Fail f) {
			fail(f);
		} catch (UnsupportedOperationException | IllegalArgumentException | IllegalStateException ex) {
			fail(new Fail(currentLine(), ex.getMessage()));
		} finally {
			inStep = false;
		}
	}

	/** run.c adjust_relative_event_times, with the live time now. */
	private void adjust(Event e, long now) {
		Time t = e.time();
		if (t.kind() == Time.Kind.ABSOLUTE) {
			startUs = t.startMicros();
			endUs = t.endMicros();
		} else {
			boolean anchored = index > 0 && Script.isAnchored(events.get(index - 1)) && Script.isAnchored(e);
			long offset = anchored ? lastEventUs : now;
			startUs = offset + t.startMicros();
			endUs = offset + t.endMicros();
		}
		adjusted = true;
	}

	/** run.c verify_time: {@code liveUs} against the event's window, with the tolerance of the interval. */
	private void verifyTime(Event e, long liveUs, String what) {
		if (e.time().kind() == Time.Kind.ANY) {
			return;
		}
		long tolerance = session.toleranceUs;
		if (lastEventUs != Long.MIN_VALUE) {
			long dynamic = (long) (session.tolerancePercent / 100.0 * (startUs - lastEventUs));
			tolerance = Math.max(tolerance, dynamic);
		}
		if (liveUs < startUs - tolerance || liveUs > endUs + tolerance) {
			throw new Fail(e.line(), "timing error: expected " + what + " at " + sec(startUs)
					+ (e.time().range() ? "~" + sec(endUs) : "") + " s but happened at " + sec(liveUs)
					+ " s; tolerance " + sec(tolerance) + " s");
		}
	}

	static String sec(long us) {
		return String.format(java.util.Locale.ROOT, "%.6f", us / 1e6);
	}

	// ---- outbound segments ----

	/** @return false when the queue does not yet hold what {@code p} needs */
	private boolean outbound(PacketEvent p) {
		int need = p.payloadBytes();
		int have = 0;
		int n = 0;
		for (Seg s : received) {
			have += s.payload();
			n++;
			if (have >= need || session.strictSegments) {
				break;
			}
		}
		if (n == 0 || have < need && !session.strictSegments) {
			return false;
		}
		List<Seg> frags = new ArrayList<>(n);
		for (int i = 0; i < n; i++) {
			frags.add(received.poll());
		}
		Seg first = frags.get(0);
		for (int i = 1; i < frags.size(); i++) {
			String diff = Segments.fragmentMismatch(frags.get(i - 1), frags.get(i));
			if (diff != null) {
				throw new Fail(p.line(), "expected " + Segments.describe(p) + "; the model's segments do not join: "
						+ diff + "; segments: " + describeAll(frags));
			}
		}
		Seg last = frags.get(frags.size() - 1);
		Seg actual = new Seg(last.micros(), last.flags() & ~Buffer.TCP_CWR | first.flags() & Buffer.TCP_CWR,
				first.seq(), last.ack(), last.window(), last.headerBytes(), last.options(), last.mss(), last.wscale(),
				last.tsVal(), last.tsEcr(), last.sack(), have, last.flow());
		if (have != need) {
			throw new Fail(p.line(), "expected " + Segments.describe(p) + "; live packet payload: expected " + need
					+ " bytes vs actual " + have + " bytes: " + describeAll(frags));
		}
		if (p.flags().syn() && !isnKnown) {
			localIsnLive = actual.seq();
			localIsnScript = p.seqStart();
			isnKnown = true;
		}
		if (actual.flow() != session.stack().flow()) {
			throw new Fail(p.line(), "the model sent on flow " + actual.flow() + ", the connection's is "
					+ session.stack().flow());
		}
		String problem = verifyHeaders(p, actual);
		if (problem == null) {
			problem = verifyOptions(p, actual);
		}
		if (problem != null) {
			throw new Fail(p.line(), "expected " + Segments.describe(p) + " at " + sec(startUs) + " s; the model sent "
					+ actual.describe(isnOffset()) + " at " + sec(actual.micros()) + " s: " + problem);
		}
		try {
			verifyTime(p, actual.micros(), "outbound packet " + Segments.describe(p));
		} catch (Fail f) {
			throw new Fail(f.line, f.getMessage() + "; the model sent " + actual.describe(isnOffset()));
		}
		session.trace("line %d matched", p.line());
		return true;
	}

	private String describeAll(List<Seg> frags) {
		StringBuilder sb = new StringBuilder();
		for (Seg s : frags) {
			sb.append(sb.isEmpty() ? "" : "; ").append(s.describe(isnOffset())).append(" at ").append(sec(s.micros()));
		}
		return sb.toString();
	}

	/** run_packet.c verify_tcp (strict): doff, flags, seq, ack, window, urgent pointer. */
	private String verifyHeaders(PacketEvent p, Seg a) {
		int scriptHeader = 20 + Segments.optionBytes(p.options());
		if (!p.anyOptions() && scriptHeader != a.headerBytes()) {
			return "TCP header length: expected " + scriptHeader + " bytes (options " + Segments.optionBytes(p.options())
					+ ") vs actual " + a.headerBytes();
		}
		int expectedFlags = Segments.flagBits(p.flags());
		int mask = Buffer.TCP_FIN | Buffer.TCP_SYN | Buffer.TCP_RST | Buffer.TCP_PSH | Buffer.TCP_ACK | Buffer.TCP_URG
				| Buffer.TCP_ECE | Buffer.TCP_CWR;
		if ((expectedFlags & mask) != (a.flags() & mask)) {
			return "flags: expected " + Segments.flagText(expectedFlags) + " vs actual " + Segments.flagText(a.flags());
		}
		long seq = a.seq() - isnOffset();
		if (seq != p.seqStart()) {
			return "tcp_seq: expected " + p.seqStart() + " vs actual " + seq;
		}
		long ack = (a.flags() & Buffer.TCP_ACK) != 0 ? a.ack() : 0;
		if (ack != p.ack().orElse(0)) {
			return "tcp_ack_seq: expected " + p.ack().orElse(0) + " vs actual " + ack;
		}
		if (p.window().isPresent() && p.window().getAsInt() != a.window()) {
			return "tcp_window: expected " + p.window().getAsInt() + " vs actual " + a.window()
					+ " (the raw field, as sent)";
		}
		if (p.urgentPointer().orElse(0) != 0) {
			throw new Fail(p.line(), "urg " + p.urgentPointer().getAsInt() + ": the model has no urgent pointer");
		}
		return null;
	}

	/**
	 * run_packet.c verify_outbound_live_tcp_options: the same options with the same values; TS val only with
	 * {@code --tcp_ts_tick_usecs} (then within the tolerance), TS ecr not at all (packetdrill does not check it) unless
	 * Ringlab's {@code --tcp_ts_ecr_check}; records the script-to-live TS val mapping for inbound ecr values.
	 */
	private String verifyOptions(PacketEvent p, Seg a) {
		TcpOption.Timestamp ts = null;
		for (TcpOption o : p.options()) {
			if (o instanceof TcpOption.Timestamp t) {
				ts = t;
			}
		}
		if (ts != null && (a.options() & Buffer.TCPOPT_TIMESTAMP) != 0) {
			tsValMap.put(ts.value(), a.tsVal());
			if (!firstTs) {
				firstTs = true;
				firstScriptTsVal = ts.value();
				firstActualTsVal = a.tsVal();
			}
		}
		if (p.anyOptions()) {
			return null;
		}
		int expected = 0;
		TcpOption.Sack sack = null;
		for (TcpOption o : p.options()) {
			switch (o) {
				case TcpOption.Mss m -> {
					expected |= Buffer.TCPOPT_MSS;
					if ((a.options() & Buffer.TCPOPT_MSS) != 0 && m.bytes() != a.mss()) {
						return "bad value in outbound TCP option mss: expected " + m.bytes() + " actual " + a.mss();
					}
				}
				case TcpOption.WindowScale w -> {
					expected |= Buffer.TCPOPT_WSCALE;
					if ((a.options() & Buffer.TCPOPT_WSCALE) != 0 && w.shift() != a.wscale()) {
						return "bad value in outbound TCP option wscale: expected " + w.shift() + " actual " + a.wscale();
					}
				}
				case TcpOption.SackPermitted s -> expected |= Buffer.TCPOPT_SACK_PERM;
				case TcpOption.Timestamp t -> expected |= Buffer.TCPOPT_TIMESTAMP;
				case TcpOption.Sack s -> sack = s;
				case TcpOption.Nop n -> {
				}
				case TcpOption.Eol n -> {
				}
				case TcpOption.FastOpen f -> throw new Fail(p.line(), "TCP Fast Open options are not modelled");
				case TcpOption.Md5 m -> throw new Fail(p.line(), "TCP MD5 signatures are not modelled");
			}
		}
		if (expected != a.options()) {
			return "bad outbound TCP options: expected <" + Segments.optionNames(expected) + "> actual <"
					+ Segments.optionNames(a.options()) + ">";
		}
		int blocks = sack == null ? 0 : sack.blocks().size();
		if (blocks != a.sack().length / 2) {
			return "bad outbound TCP options: expected " + blocks + " SACK blocks, actual " + a.sack().length / 2;
		}
		for (int i = 0; i < blocks; i++) {
			TcpOption.SackBlock sb = sack.blocks().get(i);
			// the model's SACK blocks are of the peer's sequence space: no offset (packetdrill's remote offset is 0)
			if (sb.left() != a.sack()[2 * i] || sb.right() != a.sack()[2 * i + 1]) {
				return "bad value in outbound TCP option sack: expected " + Segments.sackText(sack) + " actual "
						+ Segments.sackText(a.sack());
			}
		}
		if (ts != null) {
			if (session.tsTickUs > 0) {
				long mapped = firstScriptTsVal + (a.tsVal() - firstActualTsVal);
				long tolerance = Math.max(session.toleranceUs,
						(long) (session.tolerancePercent / 100.0 * startUs));
				if (Math.abs(mapped - ts.value()) * session.tsTickUs > tolerance) {
					return "bad outbound TCP timestamp value, tolerance " + tolerance + ": expected TS val "
							+ ts.value() + ", actual " + mapped + " (live " + a.tsVal() + ")";
				}
			}
			if (session.tsEcrCheck && (a.flags() & Buffer.TCP_ACK) != 0 && ts.echoReply() != a.tsEcr()) {
				return "TS ecr (--tcp_ts_ecr_check): expected " + ts.echoReply() + " actual " + a.tsEcr();
			}
		}
		return null;
	}

	// ---- inbound segments, system calls, shell commands, code blocks ----

	private void run(Event e, long now) {
		switch (e) {
			case PacketEvent p -> inject(p);
			case SyscallEvent s -> Syscalls.run(s, session);
			case ShellEvent s -> session.timedShell(s);
			case AssertEvent a -> {
				Map<String, Long> info = new TreeMap<>();
				session.stack().tcpInfo(info::put);
				try {
					py.run(new PyEval.AssertBlock(a), info);
				} catch (PyEval.Failure f) {
					throw new Fail(f.line, f.getMessage() + " (at " + sec(now) + " s)");
				}
				session.trace("%.6f line %d: tcp_info %s", now / 1e6, a.line(), info);
			}
		}
	}

	/** run_packet.c do_inbound_script_packet and map_inbound_packet: the script's segment into the model. */
	private void inject(PacketEvent p) {
		Stack stack = session.stack();
		Buffer b = pool.alloc(0, ctx.index());
		if (b == null) {
			throw new Fail(p.line(), "the peer's pool of 1024 segments is empty: the model holds them all");
		}
		int optionBytes = Segments.optionBytes(p.options());
		int headerBytes = 20 + optionBytes;
		if (headerBytes > 60) {
			ctx.recycle(b, 0);
			throw new Fail(p.line(), "TCP options of " + optionBytes + " bytes: at most 40 fit");
		}
		b.length(L2_L3 + headerBytes + p.payloadBytes());
		b.protocol(Buffer.PROTO_TCP);
		b.flow(stack.flow());
		b.flags(Segments.flagBits(p.flags()));
		b.seq(p.seqStart());
		long ackOffset = isnOffset();
		b.ack(p.flags().ack() ? p.ack().orElse(0) + ackOffset : 0);
		b.tcpHeaderBytes(headerBytes);
		b.tcpWindow(p.window().orElseThrow(() -> new Fail(p.line(), "window must be specified for inbound packets")));
		b.segments(1);
		int mask = 0;
		int blocks = 0;
		for (TcpOption o : p.options()) {
			switch (o) {
				case TcpOption.Mss m -> {
					mask |= Buffer.TCPOPT_MSS;
					b.tcpMssOption(m.bytes());
				}
				case TcpOption.WindowScale w -> {
					if (w.shift() > 14) {
						// RFC 7323 2.3: a receiver takes 14; the buffer field holds 0 to 14
						session.trace("line %d: wscale %d taken as 14 (RFC 7323 section 2.3)", p.line(), w.shift());
					}
					mask |= Buffer.TCPOPT_WSCALE;
					b.tcpWscaleOption(Math.min(14, w.shift()));
				}
				case TcpOption.SackPermitted s -> mask |= Buffer.TCPOPT_SACK_PERM;
				case TcpOption.Timestamp t -> {
					mask |= Buffer.TCPOPT_TIMESTAMP;
					b.tsVal(t.value());
					b.tsEcr(p.flags().ack() ? liveEcr(p, t.echoReply()) : t.echoReply());
				}
				case TcpOption.Sack s -> {
					if (s.blocks().size() > Buffer.MAX_SACK_BLOCKS) {
						ctx.recycle(b, 0);
						throw new Fail(p.line(), s.blocks().size() + " SACK blocks: at most " + Buffer.MAX_SACK_BLOCKS);
					}
					for (TcpOption.SackBlock sb : s.blocks()) {
						b.sackBlock(blocks++, sb.left() + ackOffset, sb.right() + ackOffset);
					}
				}
				case TcpOption.Nop n -> {
				}
				case TcpOption.Eol n -> {
				}
				case TcpOption.FastOpen f -> {
					ctx.recycle(b, 0);
					throw new Fail(p.line(), "TCP Fast Open options are not modelled");
				}
				case TcpOption.Md5 m -> {
					ctx.recycle(b, 0);
					throw new Fail(p.line(), "TCP MD5 signatures are not modelled");
				}
			}
		}
		b.tcpOptions(mask);
		b.sackBlocks(blocks);
		ctx.generated(b);
		session.trace("%.6f line %d: inject %s", nowUs() / 1e6, p.line(), Segments.describe(p));
		out.push(b);
	}

	/** run_packet.c map_inbound_packet: a script TS ecr names an earlier outbound TS val of the script. */
	private long liveEcr(PacketEvent p, long scriptEcr) {
		Long live = tsValMap.get(scriptEcr);
		if (live != null) {
			return live;
		}
		if (session.tsEcrScaled && firstTs) {
			return (scriptEcr - firstScriptTsVal + firstActualTsVal) & 0xFFFF_FFFFL;
		}
		throw new Fail(p.line(), "unable to infer live TS ecr for script TS ecr " + scriptEcr
				+ "; no matching or preceding outbound TS val");
	}

	private void finish() {
		finished = true;
		waiting = false;
		timer.cancel();
		if (!received.isEmpty()) {
			// packetdrill does not look at segments after the last event either; say so rather than pass silently
			session.note("after the last event the model had sent " + received.size()
					+ " segment(s) no line expected, first " + received.peekFirst().describe(isnOffset()) + " at "
					+ sec(received.peekFirst().micros()) + " s (packetdrill ignores these too)");
		}
		session.done(null);
	}

	private void fail(Fail f) {
		if (finished) {
			return;
		}
		finished = true;
		timer.cancel();
		session.done(f);
	}
}
