package io.ringlab.packetdrill;

import java.util.List;

/**
 * One TCP option of a segment's {@code <...>} list (parser.y's {@code tcp_option}). {@link FastOpen} and {@link Md5}
 * are read so that the executor can refuse them naming the line; AccECN ({@code ECN e0b ...}) is refused here.
 */
sealed interface TcpOption {

	/** {@code nop}. */
	record Nop() implements TcpOption {
	}

	/** {@code eol}. */
	record Eol() implements TcpOption {
	}

	/** {@code mss N}, N in bytes (0..65535). */
	record Mss(int bytes) implements TcpOption {
	}

	/** {@code wscale N}, the shift count (0..255 as packetdrill accepts it). */
	record WindowScale(int shift) implements TcpOption {
	}

	/** {@code sackOK}. */
	record SackPermitted() implements TcpOption {
	}

	/** {@code sack A:B C:D ...}: one or more blocks, in the order written. */
	record Sack(List<SackBlock> blocks) implements TcpOption {
		public Sack {
			blocks = List.copyOf(blocks);
		}
	}

	/** One SACK block {@code left:right}, sequence numbers as written (relative). */
	record SackBlock(long left, long right) {
	}

	/** {@code TS val N ecr M}. */
	record Timestamp(long value, long echoReply) implements TcpOption {
	}

	/** {@code FO [cookie]} or, {@code experimental}, {@code FOEXP [cookie]}; cookie empty when not written. */
	record FastOpen(String cookie, boolean experimental) implements TcpOption {
	}

	/** {@code md5 key}. */
	record Md5(String key) implements TcpOption {
	}
}
