package io.ringlab.packetdrill;

/**
 * A segment's flag column as written: packetdrill's tcpdump-style letters, {@code .} for ACK, {@code -} written for
 * none (then {@link #text()} is empty). Letters allowed by this reader: {@code . F S R P U E W} (tcp_packet.c's
 * {@code valid_tcp_flags} without the AccECN ones, {@code A} and the ACE digits, which are refused).
 *
 * @param text the letters, in the order written
 */
record TcpFlags(String text) {

	/** The letters this reader accepts. */
	static final String ALLOWED = ".FSRPUEW";

	TcpFlags {
		for (int i = 0; i < text.length(); i++) {
			if (ALLOWED.indexOf(text.charAt(i)) < 0) {
				throw new IllegalArgumentException("flag=" + text.charAt(i) + ", allowed=" + ALLOWED);
			}
		}
	}

	boolean syn() {
		return has('S');
	}

	boolean fin() {
		return has('F');
	}

	boolean rst() {
		return has('R');
	}

	boolean psh() {
		return has('P');
	}

	boolean ack() {
		return has('.');
	}

	boolean urg() {
		return has('U');
	}

	boolean ece() {
		return has('E');
	}

	boolean cwr() {
		return has('W');
	}

	private boolean has(char c) {
		return text.indexOf(c) >= 0;
	}
}
