package io.ringlab.packetdrill;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.util.stream.Stream;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.Arguments;
import org.junit.jupiter.params.provider.MethodSource;

/**
 * Every construct outside the supported grammar fails with {@code file:line:column: found ...; allowed ...}, at the
 * offending token, never by skipping it.
 */
class ScriptErrorTest {

	private static final String HEAD = "0 socket(..., SOCK_STREAM, IPPROTO_TCP) = 3\n";

	static Stream<Arguments> errors() {
		return Stream.of(
				// segments
				Arguments.of(HEAD + "+0 < X. 1:1(0) win 10\n", 2, 6, "TCP flag 'X'"),
				Arguments.of(HEAD + "+0 < SA 0:0(0) win 10\n", 2, 6, "AccECN flag 'A'"),
				Arguments.of(HEAD + "+0 < S.2 0:0(0) win 10\n", 2, 7, "AccECN ACE"),
				Arguments.of(HEAD + "+0 < udp (100)\n", 2, 6, "udp packets are not supported"),
				Arguments.of(HEAD + "+0 < icmp unreachable frag_needed mtu 1000\n", 2, 6, "icmp packets are not supported"),
				Arguments.of(HEAD + "+0 < [ect0] S 0:0(0) win 10\n", 2, 6, "IP-level fields"),
				Arguments.of(HEAD + "+0 < ipv4 1.2.3.4 > 5.6.7.8: S 0:0(0)\n", 2, 6, "encapsulation"),
				Arguments.of(HEAD + "+0 < 80>90 S 0:0(0)\n", 2, 6, "explicit ports"),
				Arguments.of(HEAD + "+0 < . 1:1001(999) ack 1\n", 2, 8, "inconsistent TCP sequence numbers"),
				Arguments.of(HEAD + "+0 < . 1:x(0)\n", 2, 10, "TCP end sequence number"),
				Arguments.of(HEAD + "+0 < . 4294967296:4294967296(0)\n", 2, 8, "out of range; allowed 0 to 4294967295"),
				Arguments.of(HEAD + "+0 < S 0:0(0) win 70000\n", 2, "70000", "TCP window value out of range"),
				Arguments.of(HEAD + "+0 < S 0:0(0) win 10 <mss 70000>\n", 2, "70000", "mss value out of range"),
				Arguments.of(HEAD + "+0 < S 0:0(0) win 10 <mss 1000,timestamp 1>\n", 2, "timestamp", "expected a TCP option"),
				Arguments.of(HEAD + "+0 < S 0:0(0) win 10 <TS 1 ecr 2>\n", 2, "1 ecr", "expected 'val'"),
				Arguments.of(HEAD + "+0 < S 0:0(0) win 10 <ECN e0b 1>\n", 2, "ECN", "AccECN option"),
				Arguments.of(HEAD + "+0 < S 0:0(0) win 10 <...>\n", 2, "<...>", "<...> for TCP options can only be used with outbound"),
				Arguments.of(HEAD + "+0 < S 0:0(0) win 10 <mss 1000\n+0 close(3) = 0\n", 3, 1, "expected '>'"),
				Arguments.of(HEAD + "+0 > . 1:1(0) ack 1 wn 257\n", 2, 21, "expected the end of the event"),
				// times
				Arguments.of(HEAD + "* write(3, ..., 1) = 1\n", 2, 1, "event time * can only be used with outbound"),
				Arguments.of(HEAD + "+0~+.1 < . 1:1(0) win 10\n", 2, 1, "time range can only be used with outbound"),
				Arguments.of(HEAD + "+.2~+.1 > . 1:1(0) ack 1\n", 2, 4, "time range is backwards"),
				Arguments.of(HEAD + "+.1~.2 > . 1:1(0) ack 1\n", 2, 5, "a relative range is +START~+END"),
				Arguments.of(HEAD + "+-1 close(3) = 0\n", 2, 2, "negative time"),
				Arguments.of(HEAD + "close(3) = 0\n", 2, "close", "expected the end of the event: the next event's time column"),
				Arguments.of("0.1 close(3) = 0\n", 1, 1, "the first event must be at time 0"),
				Arguments.of("// nothing\n", 2, 1, "a script needs at least one event"),
				// structure
				Arguments.of(HEAD + "`echo x`\n+0 close(3) = 0\n", 2, 1, "a shell command without a time"),
				Arguments.of(HEAD + "--tolerance_usecs=5\n", 2, 1, "--options are allowed only at the top"),
				Arguments.of(HEAD + "+0 foo\n", 2, 4, "expected the event after the time"),
				Arguments.of(HEAD + "/* open\n+0 close(3) = 0\n", 2, 1, "without its closing '*/'"),
				Arguments.of(HEAD + "+0 %{ assert tcpi_snd_cwnd == 1\n", 2, 4, "without its closing '}%'"),
				Arguments.of(HEAD + "+0 write(3, \"abc, 3) = 3\n", 2, 13, "without its closing \""),
				Arguments.of(HEAD + "+0 `sysctl -q x=1\n", 2, 4, "without its closing `"),
				Arguments.of("--define=X\n" + HEAD, 1, 1, "--define=SYMBOL=VALUE"),
				// system calls
				Arguments.of(HEAD + "+0 close(3) 0\n", 2, 13, "expected '='"),
				Arguments.of(HEAD + "+0 connect(3, ..., ...) = -1 EINPROGRESS\n+0 close(3) = 0\n", 3, 1,
						"expected the errno's (description)"),
				Arguments.of(HEAD + "+0 close(3) = -1 EBADF (Bad, file)\n", 2, ",", "a (description) holds words only"),
				Arguments.of(HEAD + "+0 write(3, ..., ;) = 1\n", 2, 18, "expected a value"),
				Arguments.of(HEAD + "+0 write(3, [1, 2) = 1\n", 2, 18, "expected ']'"),
				Arguments.of(HEAD + "+0 write(3, 99999999999999999999) = 1\n", 2, 13, "integer out of range"),
				// python
				Arguments.of(HEAD + "+0 %{ import os }%\n", 2, 7, "unsupported Python"),
				Arguments.of(HEAD + "+0 %{\nassert tcpi_snd_cwnd == 10\nos.system('x')\n}%\n", 4, 1, "unsupported Python"),
				Arguments.of(HEAD + "+0 %{ assert tcpi_snd_cwnd == cwnd }%\n", 2, 31, "unknown name 'cwnd'"),
				Arguments.of(HEAD + "+0 %{ tcpi_snd_cwnd = 3 }%\n", 2, 7, "cannot be assigned"),
				Arguments.of(HEAD + "+0 %{ n += 3 }%\n", 2, 7, "'n' is not assigned before +="),
				Arguments.of(HEAD + "+0 %{ assert tcpi_snd_cwnd == 1 tcpi_lost }%\n", 2, "tcpi_lost", "expected the end of the statement"),
				Arguments.of(HEAD + "+0 %{ assert (tcpi_snd_cwnd == 1 }%\n", 2, "}%", "expected ')'"),
				Arguments.of(HEAD + "+0 %{ assert tcpi_snd_cwnd in [1, 2] }%\n", 2, 28, "expected the end of the statement"),
				Arguments.of(HEAD + "+0 %{ assert tcpi_rtt > 1.5 }%\n", 2, 26, "expected the end of the statement"));
	}

	/** (script, line, column or the text at which the error must point, a fragment of the message). */
	@ParameterizedTest(name = "[{index}] {3}")
	@MethodSource("errors")
	void namesFileLineAndColumnOfTheProblem(String script, int line, Object at, String fragment) {
		// at: the column, or the text whose first occurrence on that line starts at the offending token
		int column = at instanceof Integer c ? c : script.split("\n", -1)[line - 1].indexOf((String) at) + 1;
		assertTrue(column > 0, () -> "no '" + at + "' on line " + line);
		ScriptException e = assertThrows(ScriptException.class, () -> Script.parse("bad.pkt", script));
		assertEquals("bad.pkt", e.file());
		assertTrue(e.problem().contains(fragment), e.getMessage());
		assertEquals(line + ":" + column, e.line() + ":" + e.column(), e.getMessage());
		assertTrue(e.getMessage().startsWith("bad.pkt:" + line + ":" + column + ": found "), e.getMessage());
	}
}
