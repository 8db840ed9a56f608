package io.ringlab.packetdrill;

import io.ringlab.buffer.api.Buffer;
import io.ringlab.packetdrill.Event.PacketEvent;
import java.util.List;

/** Conversions between a script's segments, the buffer's TCP fields and text for messages. */
final class Segments {

	private Segments() {
	}

	/** The flag bits of a script's flag column. */
	static int flagBits(TcpFlags f) {
		int bits = 0;
		bits |= f.fin() ? Buffer.TCP_FIN : 0;
		bits |= f.syn() ? Buffer.TCP_SYN : 0;
		bits |= f.rst() ? Buffer.TCP_RST : 0;
		bits |= f.psh() ? Buffer.TCP_PSH : 0;
		bits |= f.ack() ? Buffer.TCP_ACK : 0;
		bits |= f.urg() ? Buffer.TCP_URG : 0;
		bits |= f.ece() ? Buffer.TCP_ECE : 0;
		bits |= f.cwr() ? Buffer.TCP_CWR : 0;
		return bits;
	}

	/** Flag bits as packetdrill writes them ({@code S.}, {@code P.}, {@code F.}, {@code -} for none). */
	static String flagText(int bits) {
		StringBuilder sb = new StringBuilder();
		sb.append((bits & Buffer.TCP_FIN) != 0 ? "F" : "");
		sb.append((bits & Buffer.TCP_SYN) != 0 ? "S" : "");
		sb.append((bits & Buffer.TCP_RST) != 0 ? "R" : "");
		sb.append((bits & Buffer.TCP_PSH) != 0 ? "P" : "");
		sb.append((bits & Buffer.TCP_URG) != 0 ? "U" : "");
		sb.append((bits & Buffer.TCP_ECE) != 0 ? "E" : "");
		sb.append((bits & Buffer.TCP_CWR) != 0 ? "W" : "");
		sb.append((bits & Buffer.TCP_ACK) != 0 ? "." : "");
		return sb.isEmpty() ? "-" : sb.toString();
	}

	/** The bytes the options take on the wire (tcp_packet.c), rounded up to whole 32-bit words as doff counts them. */
	static int optionBytes(List<TcpOption> options) {
		int n = 0;
		for (TcpOption o : options) {
			n += switch (o) {
				case TcpOption.Nop x -> 1;
				case TcpOption.Eol x -> 1;
				case TcpOption.Mss x -> 4;
				case TcpOption.WindowScale x -> 3;
				case TcpOption.SackPermitted x -> 2;
				case TcpOption.Sack s -> 2 + 8 * s.blocks().size();
				case TcpOption.Timestamp x -> 10;
				case TcpOption.FastOpen f -> 2 + f.cookie().length() / 2 + (f.experimental() ? 2 : 0);
				case TcpOption.Md5 x -> 18;
			};
		}
		return (n + 3) & ~3;
	}

	/** A script segment as written (relative sequence numbers). */
	static String describe(PacketEvent p) {
		StringBuilder sb = new StringBuilder();
		sb.append(p.direction() == Event.Direction.INBOUND ? "< " : "> ").append(p.flags().text().isEmpty() ? "-"
				: p.flags().text()).append(' ').append(p.seqStart()).append(':').append(p.seqEnd()).append('(')
				.append(p.payloadBytes()).append(')');
		p.ack().ifPresent(a -> sb.append(" ack ").append(a));
		p.window().ifPresent(w -> sb.append(" win ").append(w));
		if (p.anyOptions()) {
			sb.append(" <...>");
		} else if (!p.options().isEmpty()) {
			StringBuilder o = new StringBuilder();
			for (TcpOption opt : p.options()) {
				o.append(o.isEmpty() ? "" : ",").append(switch (opt) {
					case TcpOption.Nop x -> "nop";
					case TcpOption.Eol x -> "eol";
					case TcpOption.Mss m -> "mss " + m.bytes();
					case TcpOption.WindowScale w -> "wscale " + w.shift();
					case TcpOption.SackPermitted x -> "sackOK";
					case TcpOption.Sack s -> sackText(s);
					case TcpOption.Timestamp t -> "TS val " + t.value() + " ecr " + t.echoReply();
					case TcpOption.FastOpen f -> "FO " + f.cookie();
					case TcpOption.Md5 m -> "md5 " + m.key();
				});
			}
			sb.append(" <").append(o).append('>');
		}
		return sb.toString();
	}

	static String sackText(TcpOption.Sack s) {
		StringBuilder sb = new StringBuilder("sack");
		for (TcpOption.SackBlock b : s.blocks()) {
			sb.append(' ').append(b.left()).append(':').append(b.right());
		}
		return sb.toString();
	}

	static String sackText(long[] blocks) {
		StringBuilder sb = new StringBuilder("sack");
		for (int i = 0; i < blocks.length; i += 2) {
			sb.append(' ').append(blocks[i]).append(':').append(blocks[i + 1]);
		}
		return sb.toString();
	}

	/** The options of a buffer's mask, in Linux's SYN order (tcp_options_write). */
	static String optionText(int mask, int mss, int wscale, long tsVal, long tsEcr, long[] sack, long sackOffset) {
		StringBuilder sb = new StringBuilder();
		if ((mask & Buffer.TCPOPT_MSS) != 0) {
			sb.append("mss ").append(mss);
		}
		if ((mask & Buffer.TCPOPT_SACK_PERM) != 0) {
			sb.append(sb.isEmpty() ? "" : ",").append("sackOK");
		}
		if ((mask & Buffer.TCPOPT_TIMESTAMP) != 0) {
			sb.append(sb.isEmpty() ? "" : ",").append("TS val ").append(tsVal).append(" ecr ").append(tsEcr);
		}
		if ((mask & Buffer.TCPOPT_WSCALE) != 0) {
			sb.append(sb.isEmpty() ? "" : ",").append("wscale ").append(wscale);
		}
		if (sack.length > 0) {
			sb.append(sb.isEmpty() ? "" : ",").append(sackText(sack));
		}
		return sb.toString();
	}

	static String optionNames(int mask) {
		StringBuilder sb = new StringBuilder();
		if ((mask & Buffer.TCPOPT_MSS) != 0) {
			sb.append("mss");
		}
		if ((mask & Buffer.TCPOPT_SACK_PERM) != 0) {
			sb.append(sb.isEmpty() ? "" : ",").append("sackOK");
		}
		if ((mask & Buffer.TCPOPT_TIMESTAMP) != 0) {
			sb.append(sb.isEmpty() ? "" : ",").append("TS");
		}
		if ((mask & Buffer.TCPOPT_WSCALE) != 0) {
			sb.append(sb.isEmpty() ? "" : ",").append("wscale");
		}
		return sb.toString();
	}

	/**
	 * run_packet.c verify_packet_fragments: a segment joins the previous one if its headers match (verify_tcp
	 * non-strict: FIN, PSH and CWR not compared, the sequence number continuing the previous payload).
	 *
	 * @return null when it joins, else what differs
	 */
	static String fragmentMismatch(Peer.Seg prev, Peer.Seg next) {
		int mask = Buffer.TCP_SYN | Buffer.TCP_RST | Buffer.TCP_ACK | Buffer.TCP_URG | Buffer.TCP_ECE;
		if (prev.headerBytes() != next.headerBytes()) {
			return "TCP header length " + prev.headerBytes() + " then " + next.headerBytes();
		}
		if ((prev.flags() & mask) != (next.flags() & mask)) {
			return "flags " + flagText(prev.flags()) + " then " + flagText(next.flags());
		}
		if (prev.seq() + prev.payload() != next.seq()) {
			return "sequence " + (prev.seq() + prev.payload()) + " expected next, got " + next.seq();
		}
		if (prev.ack() != next.ack()) {
			return "ack " + prev.ack() + " then " + next.ack();
		}
		if (prev.window() != next.window()) {
			return "window " + prev.window() + " then " + next.window();
		}
		return null;
	}
}
