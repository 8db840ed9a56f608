package io.ringlab.packetdrill;

import io.ringlab.buffer.api.Buffer;
import io.ringlab.buffer.api.BufferPool;
import io.ringlab.sim.api.Element;
import io.ringlab.sim.api.ElementContext;
import io.ringlab.sim.api.ElementFactory;
import io.ringlab.sim.api.OutputPort;
import io.ringlab.sim.api.Timer;
import io.ringlab.sim.api.dto.ElementDescriptorDTO;
import io.ringlab.sim.api.dto.PortDescriptorDTO;
import io.ringlab.sim.api.dto.PropertyDescriptorDTO;
import java.util.List;
import java.util.Map;
import java.util.function.Consumer;
import java.util.function.ObjLongConsumer;

/**
 * A made-up stand-in for the model, for the executor's own tests (not a claim about Linux): a passive or active TCP
 * whose ISN is 1000 (so that sequence mapping is exercised), that answers a SYN with a SYN-ACK carrying MSS 1460 and,
 * when offered, sackOK, timestamps (TS val = milliseconds since the start, ecr = the peer's last TS val) and window scale
 * 8; that sends a write at once in segments of min(1460, peer MSS) bytes (PSH on the last) with window field 502;
 * resends the first unacknowledged segment 300 ms after its last send; ACKs a FIN at once; sends its own FIN on close.
 * It declares every property the executor may set, as text, and ignores them.
 */
final class FakeTcp implements Element, Stack {

	static final long ISN = 1000;
	static final long RESEND_PICOS = 300_000_000_000L;

	static ElementFactory factory(String type, Consumer<Stack> bind) {
		ElementDescriptorDTO d = new ElementDescriptorDTO();
		d.type = type;
		d.category = ElementDescriptorDTO.SOURCE;
		d.summary = "the executor tests' stand-in TCP";
		d.ports.add(PortDescriptorDTO.of("out", PortDescriptorDTO.Direction.OUT, PortDescriptorDTO.Mode.PUSH, true, "out"));
		d.ports.add(PortDescriptorDTO.of("in", PortDescriptorDTO.Direction.IN, PortDescriptorDTO.Mode.PUSH, true, "in"));
		for (String p : List.of("streams", "open", "app", "gso", "mss", "kernel", "tcpFlows", "sack", "dsack",
				"timestamps", "windowScaling", "frto", "earlyRetrans", "tcpRecovery", "fack", "reordering", "tcpRmem",
				"tcpWmem", "congestion", "hz", "slowStartAfterIdle")) {
			d.properties.add(PropertyDescriptorDTO.of(p, PropertyDescriptorDTO.Kind.STRING, "", null, null, p));
		}
		return new ElementFactory() {
			@Override
			public ElementDescriptorDTO descriptor() {
				return d;
			}

			@Override
			public Element create(ElementContext context) {
				FakeTcp t = new FakeTcp(context);
				bind.accept(t);
				return t;
			}
		};
	}

	private final ElementContext ctx;
	private final OutputPort out;
	private final BufferPool pool;
	private final Timer resend;
	private final int flow;
	private boolean listening, synReceived, established, sack, ts, ws;
	private int mss = 1460;
	private long una = ISN, nxt = ISN, end = ISN, rcvNxt, peerTsVal;

	private FakeTcp(ElementContext ctx) {
		this.ctx = ctx;
		this.out = ctx.output("out");
		this.pool = ctx.pool("fixed", "p", 256, 1600, Map.of());
		this.resend = ctx.timer(now -> resend());
		this.flow = io.ringlab.traffic.PacketdrillAdapter.flowBase(ctx.name());
	}

	@Override
	public void push(int inPort, Buffer b) {
		int flags = b.flags();
		if ((flags & Buffer.TCP_SYN) != 0 && listening) {
			sack = (b.tcpOptions() & Buffer.TCPOPT_SACK_PERM) != 0;
			ts = (b.tcpOptions() & Buffer.TCPOPT_TIMESTAMP) != 0;
			ws = (b.tcpOptions() & Buffer.TCPOPT_WSCALE) != 0;
			mss = (b.tcpOptions() & Buffer.TCPOPT_MSS) != 0 ? Math.min(1460, b.tcpMssOption()) : 536;
			peerTsVal = b.tsVal();
			rcvNxt = b.seq() + 1;
			synReceived = true;
			send(Buffer.TCP_SYN | Buffer.TCP_ACK, ISN, 0, true);
			nxt = end = ISN + 1;
		} else {
			if (ts) {
				peerTsVal = b.tsVal();
			}
			if ((flags & Buffer.TCP_ACK) != 0 && b.ack() > una) {
				una = b.ack();
				if (synReceived && una > ISN) {
					established = true;
				}
			}
			if ((flags & Buffer.TCP_FIN) != 0) {
				rcvNxt = b.seq() + 1;
				send(Buffer.TCP_ACK, nxt, 0, false);
			}
		}
		ctx.deliver(0, b);
	}

	private void send(int flags, long seq, int payload, boolean syn) {
		Buffer b = pool.alloc(0, ctx.index());
		int options = 0;
		int optBytes = 0;
		if (syn) {
			options |= Buffer.TCPOPT_MSS;
			b.tcpMssOption(1460);
			optBytes = 4 + (ts || sack ? (ts ? 12 : 4) : 0) + (ws ? 4 : 0);
			if (sack) {
				options |= Buffer.TCPOPT_SACK_PERM;
			}
			if (ws) {
				options |= Buffer.TCPOPT_WSCALE;
				b.tcpWscaleOption(8);
			}
		} else if (ts) {
			optBytes = 12;
		}
		if (ts) {
			options |= Buffer.TCPOPT_TIMESTAMP;
			b.tsVal(ctx.nowPicos() / 1_000_000_000L);
			b.tsEcr(peerTsVal);
		}
		b.tcpOptions(options);
		b.tcpHeaderBytes(20 + optBytes);
		b.length(Peer.L2_L3 + 20 + optBytes + payload);
		b.protocol(Buffer.PROTO_TCP);
		b.flow(flow);
		b.flags(flags);
		b.seq(seq);
		b.ack(rcvNxt);
		b.tcpWindow(syn ? 65535 : 502);
		b.segments(1);
		ctx.generated(b);
		out.push(b);
	}

	private void sendData(long from, long to) {
		for (long s = from; s < to; s += mss) {
			int len = (int) Math.min(mss, to - s);
			send(Buffer.TCP_ACK | (s + len == end ? Buffer.TCP_PSH : 0), s, len, false);
		}
		resend.after(RESEND_PICOS);
	}

	private void resend() {
		if (una < nxt) {
			sendData(una, Math.min(nxt, una + mss));
		}
	}

	@Override
	public void listen() {
		listening = true;
	}

	@Override
	public void connect() {
		throw new UnsupportedOperationException("the stand-in does not connect");
	}

	@Override
	public boolean established() {
		return established;
	}

	@Override
	public long write(long bytes) {
		long from = end;
		end += bytes;
		nxt = end;
		sendData(from, end);
		return bytes;
	}

	@Override
	public void close() {
		send(Buffer.TCP_FIN | Buffer.TCP_ACK, end, 0, false);
		nxt = end + 1;
	}

	@Override
	public void tcpInfo(ObjLongConsumer<String> info) {
		info.accept("tcpi_state", established ? 1 : listening ? 10 : 7);
		info.accept("tcpi_snd_cwnd", 10);
		info.accept("tcpi_unacked", (nxt - una + mss - 1) / mss);
	}

	@Override
	public int flow() {
		return flow;
	}
}
