package io.ringlab.packetdrill;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

import org.junit.jupiter.api.Test;

/**
 * The executor's own logic against {@link FakeTcp}, a made-up stand-in with known behaviour: each check passes when the
 * stand-in does what the script says and fails, at the right line and with what was expected and what happened, when
 * it does not.
 */
class ExecutorTest {

	/** The handshake, a write, the stand-in's resend at 300 ms and a close; line numbers are referred to below. */
	static final String BASE = """
			`../common/defaults.sh`
			    0 socket(..., SOCK_STREAM, IPPROTO_TCP) = 3
			   +0 setsockopt(3, SOL_SOCKET, SO_REUSEADDR, [1], 4) = 0
			   +0 bind(3, ..., ...) = 0
			   +0 listen(3, 1) = 0
			  +.1 < S 0:0(0) win 32792 <mss 1000,sackOK,nop,nop,nop,wscale 7>
			   +0 > S. 0:0(0) ack 1 <mss 1460,nop,nop,sackOK,nop,wscale 8>
			  +.1 < . 1:1(0) ack 1 win 320
			   +0 accept(3, ..., ...) = 4
			   +0 write(4, ..., 3000) = 3000
			   +0 > P. 1:3001(3000) ack 1
			  +.3 > . 1:1001(1000) ack 1 win 502
			 +.01 < . 1:1(0) ack 3001 win 320
			   +0 %{ assert tcpi_unacked == 0, tcpi_unacked }%
			   +0 close(4) = 0
			   +0 > F. 3001:3001(0) ack 1
			  +.1 < F. 1:1(0) ack 3002 win 320
			   +0 > . 3002:3002(0) ack 2
			""";

	static Executor.Result run(String text) {
		return Executor.run("t.pkt", text, bind -> FakeTcp.factory("tcp", bind));
	}

	static String replaceLine(String text, int line, String with) {
		String[] lines = text.split("\n", -1);
		lines[line - 1] = with;
		return String.join("\n", lines);
	}

	static void assertFailsAt(String text, int line, String... fragments) {
		Executor.Result r = run(text);
		assertFalse(r.passed(), () -> "passed: " + String.join("\n", r.trace()));
		assertEquals(line, r.line(), r::failure);
		for (String f : fragments) {
			assertTrue(r.message().contains(f), () -> "'" + f + "' not in " + r.failure());
		}
	}

	@Test
	void aScriptTheStandInFollowsPasses() {
		Executor.Result r = run(BASE);
		assertTrue(r.passed(), () -> r.failure() + "\n" + String.join("\n", r.trace()));
		assertTrue(r.pipeline().contains("tcpRmem = \"4096 540000 15728640\""), r::pipeline);
		assertTrue(r.pipeline().contains("kernel = current"), r::pipeline);
	}

	@Test
	void aWrongSequenceNumberFailsAtItsLineWithBothValues() {
		assertFailsAt(replaceLine(BASE, 12, "  +.3 > . 1001:2001(1000) ack 1 win 502"), 12, "tcp_seq: expected 1001 vs actual 1");
	}

	@Test
	void flagsAckAndWindowAreChecked() {
		assertFailsAt(replaceLine(BASE, 12, "  +.3 > P. 1:1001(1000) ack 1"), 12, "flags: expected P. vs actual .");
		assertFailsAt(replaceLine(BASE, 12, "  +.3 > . 1:1001(1000) ack 2"), 12, "tcp_ack_seq: expected 2 vs actual 1");
		assertFailsAt(replaceLine(BASE, 12, "  +.3 > . 1:1001(1000) ack 1 win 501"), 12, "tcp_window: expected 501 vs actual 502");
	}

	@Test
	void optionsAreCheckedByKindValueAndLength() {
		assertFailsAt(replaceLine(BASE, 7, "   +0 > S. 0:0(0) ack 1 <mss 1400,nop,nop,sackOK,nop,wscale 8>"), 7,
				"mss: expected 1400 actual 1460");
		assertFailsAt(replaceLine(BASE, 7, "   +0 > S. 0:0(0) ack 1 <mss 1460,nop,wscale 8>"), 7, "TCP header length");
		assertFailsAt(replaceLine(BASE, 7, "   +0 > S. 0:0(0) ack 1 <mss 1460,nop,nop,sackOK,nop,wscale 7>"), 7,
				"wscale: expected 7 actual 8");
		assertTrue(run(replaceLine(BASE, 7, "   +0 > S. 0:0(0) ack 1 <...>")).passed());
	}

	@Test
	void aLateOrEarlySegmentIsATimingErrorWithTheTolerance() {
		// the resend comes 300 ms after the write; the tolerance is max(4 ms, 12.5 % of the interval)
		assertFailsAt(replaceLine(BASE, 12, "  +.2 > . 1:1001(1000) ack 1"), 12, "timing error", "0.400000", "0.500000");
		assertTrue(run(replaceLine(BASE, 12, "  +.33 > . 1:1001(1000) ack 1")).passed(), "12.5 % of 330 ms is 41 ms");
		// a range's tolerance is 12.5 % of its start's interval: 25 ms after +.2, 31 ms after +.25
		assertFailsAt(replaceLine(BASE, 12, "+.2~+.25 > . 1:1001(1000) ack 1"), 12, "timing error");
		assertTrue(run(replaceLine(BASE, 12, "+.25~+.29 > . 1:1001(1000) ack 1")).passed());
		assertTrue(run(replaceLine(BASE, 12, "   * > . 1:1001(1000) ack 1")).passed());
	}

	@Test
	void aSegmentThatNeverComesFailsAfterPacketdrillsSniffTimeout() {
		String text = String.join("\n", java.util.Arrays.copyOf(BASE.split("\n"), 14)) + "\n  +.01 > . 3001:4001(1000) ack 1\n";
		assertFailsAt(text, 15, "at 0.520000 s; by 2.520000 s the model sent nothing");
	}

	@Test
	void consecutiveSegmentsJoinUnlessStrict() {
		assertFailsAt("--strict_segments\n" + BASE, 12, "payload: expected 3000 bytes vs actual 1000");
		assertFailsAt(replaceLine(BASE, 11, "   +0 > P. 1:2001(2000) ack 1"), 11, "flags: expected P. vs actual .");
	}

	@Test
	void assertsReadTcpInfoAndNameTheValues() {
		assertFailsAt(replaceLine(BASE, 14, "   +0 %{ assert tcpi_unacked == 1, tcpi_unacked }%"), 14,
				"assert tcpi_unacked == 1 failed: the model has tcpi_unacked = 0");
		assertFailsAt(replaceLine(BASE, 14, "   +0 %{ assert tcpi_rtt > 0 }%"), 14, "does not provide tcpi_rtt");
		assertTrue(run(replaceLine(BASE, 14, "   +0 %{ x = tcpi_snd_cwnd // 3; assert x == 3 and tcpi_state == TCP_ESTABLISHED }%")).passed());
	}

	@Test
	void unmappedConstructsAreRefusedAtTheirLine() {
		assertFailsAt(replaceLine(BASE, 3, "   +0 setsockopt(3, SOL_SOCKET, SO_SNDBUF, [1000], 4) = 0"), 3, "setsockopt()");
		assertFailsAt(replaceLine(BASE, 15, "   +0 shutdown(4, SHUT_WR) = 0"), 15, "shutdown(): not mapped");
		assertFailsAt(replaceLine(BASE, 1, "`sysctl -q net.ipv4.tcp_mtu_probing=1`"), 1, "tcp_mtu_probing has no counterpart");
		assertFailsAt(replaceLine(BASE, 1, "`sysctl -q net.ipv4.tcp_ecn=1`"), 1, "behaves as 0");
		assertFailsAt(replaceLine(BASE, 1, "`echo hi`"), 1, "only sysctl assignments");
		assertFailsAt("--mss=1000\n" + BASE, 1, "--mss: not mapped");
		assertFailsAt(replaceLine(BASE, 10, "   +0 write(4, ..., 3000) = 2000"), 10, "write() = 2000 expected, the model returned 3000");
		assertFailsAt(replaceLine(BASE, 9, "   +0...0.1 accept(3, ..., ...) = 4"), 9, "blocking calls");
		assertFailsAt(replaceLine(BASE, 13, " +.01 < . 1:1(0) ack 3001 win 320 <nop,nop,TS val 5 ecr 7>"), 13,
				"unable to infer live TS ecr for script TS ecr 7");
		assertFailsAt(BASE + "  +.1 `sysctl -q net.ipv4.tcp_sack=0`\n", 19, "fixed when the run starts");
	}

	@Test
	void anAcceptBeforeTheHandshakeEndsFails() {
		String text = replaceLine(BASE, 8, "  +.1 < . 1:1(0) ack 0 win 320");
		assertFailsAt(text, 9, "not established");
	}

	@Test
	void theSyscallsAndSysctlsTheScriptsUseAreMapped() {
		// the model's properties come from the ONE table; a timed sysctl before the connection folds into them
		String text = "0 `sysctl -q net.ipv4.tcp_sack=0 net.ipv4.tcp_rmem=\"4096 87380 6291456\"`\n" + BASE.replace("`../common/defaults.sh`\n", "");
		Executor.Result r = Executor.run("t.pkt", "// ringlab: kernel = v4.6\n" + text, bind -> FakeTcp.factory("tcp", bind));
		assertTrue(r.pipeline().contains("sack = false"), r::pipeline);
		assertTrue(r.pipeline().contains("tcpRmem = \"4096 87380 6291456\""), r::pipeline);
		assertTrue(r.pipeline().contains("kernel = v4.6"), r::pipeline);
		assertTrue(r.passed(), r::failure);
	}
}
