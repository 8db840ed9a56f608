package io.ringlab.packetdrill;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertInstanceOf;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import io.ringlab.packetdrill.Event.AssertEvent;
import io.ringlab.packetdrill.Event.Direction;
import io.ringlab.packetdrill.Event.PacketEvent;
import io.ringlab.packetdrill.Event.ShellEvent;
import io.ringlab.packetdrill.Event.SyscallEvent;
import io.ringlab.packetdrill.ShellCommand.Assignment;
import io.ringlab.packetdrill.ShellCommand.Other;
import io.ringlab.packetdrill.ShellCommand.Sysctl;
import java.util.List;
import java.util.Optional;
import java.util.OptionalInt;
import java.util.OptionalLong;
import org.junit.jupiter.api.Test;

/** Each construct of the supported grammar, read from short scripts into the expected records. */
class ScriptTest {

	private static Script parse(String text) {
		return Script.parse("t.pkt", text);
	}

	private static Event only(String text) {
		List<Event> events = parse(text).events();
		assertEquals(1, events.size(), events::toString);
		return events.get(0);
	}

	@Test
	void optionLinesAtTheTopAreReadWithNameAndValue() {
		Script s = parse("--tolerance_usecs=7000\n--ip_version=ipv6 // comment\n--strict_segments\n0 close(3) = 0\n");
		assertEquals(List.of(new OptionLine(1, 1, "tolerance_usecs", Optional.of("7000")),
				new OptionLine(2, 1, "ip_version", Optional.of("ipv6")),
				new OptionLine(3, 1, "strict_segments", Optional.empty())), s.options());
	}

	@Test
	void commentsOfBothKindsAreSkippedAndLinesStillCount() {
		Script s = parse("// one\n/* two\n three */ 0 close(3) = 0 // tail\n/**/+1 close(4) = 0\n");
		assertEquals(3, s.events().get(0).line());
		assertEquals(11, s.events().get(0).column());
		assertEquals(4, s.events().get(1).line());
		assertEquals(5, s.events().get(1).column());
	}

	@Test
	void timeColumnsOfEveryKind() {
		Script s = parse("0 close(3) = 0\n0.100 close(3) = 0\n+.1 close(3) = 0\n+0 close(3) = 0\n2 close(3) = 0\n"
				+ "* > . 1:1(0) ack 1\n0.1~0.2 > . 1:1(0) ack 1\n+0~+.02 > . 1:1(0) ack 1\n");
		List<Time> times = s.events().stream().map(Event::time).toList();
		assertEquals(List.of(Time.absolute(0), Time.absolute(100_000), Time.relative(100_000), Time.relative(0),
				Time.absolute(2_000_000), Time.ANY, Time.absoluteRange(100_000, 200_000), Time.relativeRange(0, 20_000)), times);
	}

	@Test
	void secondsBecomeMicrosecondsByPacketdrillsTruncatingCast() {
		// parser.y: (s64)($1 * 1.0e6); .000249 * 1e6 is just below 249 in doubles, so packetdrill reads 248 us
		assertEquals(Time.relative(248), parse("0 close(3) = 0\n+.000249 close(3) = 0\n").events().get(1).time());
		assertEquals(Time.relative(29_000), parse("0 close(3) = 0\n+.029 close(3) = 0\n").events().get(1).time());
	}

	@Test
	void relativeTimesAccumulateFromThePreviousEventAndAbsoluteTimesStand() {
		Script s = parse("""
				0 socket(..., SOCK_STREAM, IPPROTO_TCP) = 3
				+.1 < S 0:0(0) win 1000
				+.05 < . 1:1(0) ack 1 win 1000
				+0 > . 1:1(0) ack 1
				0.5 write(4, ..., 10) = 10
				+.2 %{ assert tcpi_snd_cwnd == 10 }%
				+.01...0.1 read(4, ..., 10) = 10
				+.03 > P. 1:11(10) ack 1
				0.9...1.2 read(4, ..., 10) = 10
				+0~+.1 > . 11:11(0) ack 1
				* > . 11:11(0) ack 1
				+.01 < . 1:1(0) ack 11 win 1000
				""");
		long[] expected = { 0, 100_000, 150_000, 150_000, 500_000, 700_000, 710_000, 740_000, 900_000, 900_000, 900_000,
				910_000 };
		for (int i = 0; i < expected.length; i++) {
			assertEquals(expected[i], s.nominalMicros(i), "event " + i + " at line " + s.events().get(i).line());
		}
		// a relative blocking call's end is relative like its start; an absolute one's stands; a range ends at its end
		assertEquals(710_000 - 10_000 + 100_000, s.nominalEndMicros(6));
		assertEquals(1_200_000, s.nominalEndMicros(8));
		assertEquals(1_000_000, s.nominalEndMicros(9));
		assertEquals(150_000, s.nominalEndMicros(3));
	}

	@Test
	void onlyInjectedSegmentsAreAnchoredToEachOther() {
		Script s = parse("0 close(3) = 0\n+0 < . 1:1(0) ack 1 win 10\n+0 > . 1:1(0) ack 1\n");
		assertFalse(Script.isAnchored(s.events().get(0)));
		assertTrue(Script.isAnchored(s.events().get(1)));
		assertFalse(Script.isAnchored(s.events().get(2)));
	}

	@Test
	void systemCallsWithTheirArgumentTrees() {
		Script s = parse("""
				0 socket(..., SOCK_STREAM, IPPROTO_TCP) = 3
				+0 setsockopt(3, SOL_SOCKET, SO_REUSEADDR, [1], 4) = 0
				+0 bind(3, {sa_family=AF_INET, sin_port=htons(8080)}, 16) = 0
				+0 listen(3, 1) = 0
				+0 accept(3, ..., ...) = 4
				+0 connect(3, ..., ...) = -1 EINPROGRESS (Operation now in progress)
				+0 write(4, "ab" "cd", 4) = 4
				+0 read(4, "x"..., 10) = 1
				+0 getsockopt(4, SOL_TCP, TCP_MAXSEG, [1100], [4]) = 0
				+0 fcntl(4, F_SETFL, O_RDWR|O_NONBLOCK|0x800) = 0
				+0 fcntl(4, F_GETFL) = 0x2 (flags O_RDWR)
				+0 shutdown(4, SHUT_WR) = 0
				+0 ioctl(4, SIOCINQ, &n) = 0
				+0 close(4) = 0
				+0...0.5 accept(3, [], {}) = 5
				""");
		List<SyscallEvent> calls = s.events().stream().map(SyscallEvent.class::cast).toList();
		assertEquals(List.of("socket", "setsockopt", "bind", "listen", "accept", "connect", "write", "read", "getsockopt",
				"fcntl", "fcntl", "shutdown", "ioctl", "close", "accept"), calls.stream().map(SyscallEvent::name).toList());
		assertEquals(List.of(new Expr.Ellipsis(), new Expr.Word("SOCK_STREAM"), new Expr.Word("IPPROTO_TCP")),
				calls.get(0).arguments());
		assertEquals(new Expr.Int(3, false), calls.get(0).result());
		assertEquals(new Expr.ListExpr(List.of(new Expr.Int(1, false))), calls.get(1).arguments().get(3));
		assertEquals(new Expr.Struct(List.of(new Expr.Assign(new Expr.Word("sa_family"), new Expr.Word("AF_INET")),
				new Expr.Assign(new Expr.Word("sin_port"), new Expr.Call("htons", List.of(new Expr.Int(8080, false)))))),
				calls.get(2).arguments().get(1));
		SyscallEvent connect = calls.get(5);
		assertEquals(new Expr.Int(-1, false), connect.result());
		assertEquals(Optional.of("EINPROGRESS"), connect.errno());
		assertEquals(Optional.of("Operation now in progress"), connect.note());
		assertEquals(new Expr.Str("abcd", false), calls.get(6).arguments().get(1));
		assertEquals(new Expr.Str("x", true), calls.get(7).arguments().get(1));
		assertEquals(new Expr.Or(new Expr.Or(new Expr.Word("O_RDWR"), new Expr.Word("O_NONBLOCK")), new Expr.Int(0x800, true)),
				calls.get(9).arguments().get(2));
		assertEquals(new Expr.Int(2, true), calls.get(10).result());
		assertEquals(Optional.empty(), calls.get(10).errno());
		assertEquals(Optional.of("flags O_RDWR"), calls.get(10).note());
		assertEquals(new Expr.AddressOf("n"), calls.get(12).arguments().get(2));
		assertEquals(List.of(new Expr.Int(4, false)), calls.get(13).arguments());
		assertEquals(OptionalLong.empty(), calls.get(13).blockingEndMicros());
		assertEquals(OptionalLong.of(500_000), calls.get(14).blockingEndMicros());
		assertEquals(List.of(new Expr.ListExpr(List.of()), new Expr.Struct(List.of())), calls.get(14).arguments().subList(1, 3));
	}

	@Test
	void segmentsWithFlagsSequenceAckWindowAndOptions() {
		PacketEvent syn = (PacketEvent) only(
				"0 < S 0:0(0) win 32792 <mss 1460,sackOK,TS val 100 ecr 0,nop,wscale 7,eol>\n");
		assertEquals(Direction.INBOUND, syn.direction());
		assertTrue(syn.flags().syn() && !syn.flags().ack());
		assertEquals(0, syn.seqStart());
		assertEquals(OptionalLong.empty(), syn.ack());
		assertEquals(OptionalInt.of(32792), syn.window());
		assertEquals(List.of(new TcpOption.Mss(1460), new TcpOption.SackPermitted(), new TcpOption.Timestamp(100, 0),
				new TcpOption.Nop(), new TcpOption.WindowScale(7), new TcpOption.Eol()), syn.options());

		PacketEvent data = (PacketEvent) only("0 > P. 1:5841(5840) ack 1\n");
		assertEquals(Direction.OUTBOUND, data.direction());
		assertEquals(new TcpFlags("P."), data.flags());
		assertTrue(data.flags().psh() && data.flags().ack());
		assertEquals(1, data.seqStart());
		assertEquals(5841, data.seqEnd());
		assertEquals(5840, data.payloadBytes());
		assertEquals(OptionalLong.of(1), data.ack());
		assertEquals(OptionalInt.empty(), data.window());
		assertEquals(List.of(), data.options());
		assertFalse(data.anyOptions());

		PacketEvent sack = (PacketEvent) only("0 < . 1:1(0) ack 1 win 257 urg 3 <sack 5001:6001 2001:4001,nop,nop>\n");
		assertEquals(OptionalInt.of(3), sack.urgentPointer());
		assertEquals(new TcpOption.Sack(List.of(new TcpOption.SackBlock(5001, 6001), new TcpOption.SackBlock(2001, 4001))),
				sack.options().get(0));

		PacketEvent any = (PacketEvent) only("0 > F. 10:10(0) ack 2 <...>\n");
		assertTrue(any.anyOptions() && any.flags().fin());

		PacketEvent fastOpen = (PacketEvent) only("0 < S 0:10(10) win 100 <FO abcd1234,md5 00ff,FOEXP>\n");
		assertEquals(List.of(new TcpOption.FastOpen("abcd1234", false), new TcpOption.Md5("00ff"),
				new TcpOption.FastOpen("", true)), fastOpen.options());
	}

	@Test
	void everyFlagCombinationTheScriptsUse() {
		for (String flags : List.of("S", "S.", ".", "P.", "F.", "R", "R.", "FP.", "SEW", "SE.", "U.")) {
			PacketEvent p = (PacketEvent) only("0 < " + flags + " 1:1(0) win 10\n");
			assertEquals(flags, p.flags().text());
		}
		PacketEvent none = (PacketEvent) only("0 < - 1:1(0) win 10\n");
		assertEquals("", none.flags().text());
		TcpFlags sew = new TcpFlags("SEW");
		assertTrue(sew.syn() && sew.ece() && sew.cwr() && !sew.rst() && !sew.urg());
		assertTrue(new TcpFlags("R.").rst());
	}

	@Test
	void shellCommandsKeepTheirTextAndSysctlAssignmentsAreRead() {
		Script s = parse("""
				`../common/defaults.sh`
				0 `sysctl -q net.ipv4.tcp_rmem="4096 540000 15728640" net.ipv4.tcp_sack=1`
				+0 `sysctl -q net.ipv4.tcp_ecn=2; tc qdisc show
				sysctl -w net.ipv4.tcp_frto=0`
				+0 `sysctl -q net.ipv4.tcp_fastopen=0 > /dev/null`
				`/tmp/restore.sh`
				""");
		assertEquals(List.of(new Other("../common/defaults.sh")), s.initCommand().orElseThrow().parts());
		assertEquals(1, s.initCommand().orElseThrow().line());
		ShellEvent first = (ShellEvent) s.events().get(0);
		assertEquals(Time.absolute(0), first.time());
		assertEquals("sysctl -q net.ipv4.tcp_rmem=\"4096 540000 15728640\" net.ipv4.tcp_sack=1", first.command().text());
		assertEquals(List.of(new Sysctl(List.of(new Assignment("net.ipv4.tcp_rmem", "4096 540000 15728640"),
				new Assignment("net.ipv4.tcp_sack", "1")))), first.command().parts());
		assertEquals(List.of(new Sysctl(List.of(new Assignment("net.ipv4.tcp_ecn", "2"))), new Other("tc qdisc show"),
				new Sysctl(List.of(new Assignment("net.ipv4.tcp_frto", "0")))), ((ShellEvent) s.events().get(1)).command().parts());
		// a redirection makes it more than a sysctl: kept as text for the executor to refuse
		assertInstanceOf(Other.class, ((ShellEvent) s.events().get(2)).command().parts().get(0));
		assertEquals("/tmp/restore.sh", s.cleanupCommand().orElseThrow().text());
	}

	@Test
	void pythonBlocksBecomeChecksOfTcpInfoNames() {
		AssertEvent block = (AssertEvent) parse("""
				0 close(3) = 0
				+.01 %{
				assert tcpi_ca_state == TCP_CA_Recovery, tcpi_ca_state
				assert tcpi_snd_cwnd <= 7 ; assert tcpi_snd_ssthresh >= 7,tcpi_snd_ssthresh  # comment
				assert 10 <= tcpi_rtt <= 20 and tcpi_lost != 0 or not tcpi_retrans == 1, 'rtt=%d' % tcpi_rtt
				assert (tcpi_options & TCPI_OPT_SACK) != 0
				cwnd = 0x10; cwnd += 2 * 3; \\
				cwnd -= -1
				print(tcpi_snd_cwnd)
				}%
				+0 %{ assert tcpi_snd_cwnd == cwnd - 1 }%
				""").events().get(1);
		assertEquals(2, block.line());
		List<Py.Statement> st = block.statements();
		assertEquals(9, st.size(), st::toString);
		Py.Name cwnd = new Py.Name("tcpi_snd_cwnd");
		assertEquals(new Py.Assert(3, 1, new Py.Compare(List.of(new Py.Name("tcpi_ca_state"), new Py.Name("TCP_CA_Recovery")),
				List.of("==")), "tcpi_ca_state"), st.get(0));
		assertEquals(new Py.Assert(4, 1, new Py.Compare(List.of(cwnd, new Py.Num(7)), List.of("<=")), ""), st.get(1));
		assertEquals(new Py.Assert(4, 29, new Py.Compare(List.of(new Py.Name("tcpi_snd_ssthresh"), new Py.Num(7)),
				List.of(">=")), "tcpi_snd_ssthresh"), st.get(2));
		Py.Expr chain = new Py.Compare(List.of(new Py.Num(10), new Py.Name("tcpi_rtt"), new Py.Num(20)), List.of("<=", "<="));
		Py.Expr lost = new Py.Compare(List.of(new Py.Name("tcpi_lost"), new Py.Num(0)), List.of("!="));
		Py.Expr retrans = new Py.Unary("not", new Py.Compare(List.of(new Py.Name("tcpi_retrans"), new Py.Num(1)), List.of("==")));
		assertEquals(new Py.Binary("or", new Py.Binary("and", chain, lost), retrans), ((Py.Assert) st.get(3)).condition());
		assertEquals("'rtt=%d' % tcpi_rtt", ((Py.Assert) st.get(3)).message());
		assertEquals(new Py.Compare(List.of(new Py.Binary("&", new Py.Name("tcpi_options"), new Py.Name("TCPI_OPT_SACK")),
				new Py.Num(0)), List.of("!=")), ((Py.Assert) st.get(4)).condition());
		assertEquals(new Py.Assign(7, 1, "cwnd", "=", new Py.Num(16)), st.get(5));
		assertEquals(new Py.Assign(7, 14, "cwnd", "+=", new Py.Binary("*", new Py.Num(2), new Py.Num(3))), st.get(6));
		assertEquals(new Py.Assign(8, 1, "cwnd", "-=", new Py.Unary("-", new Py.Num(1))), st.get(7));
		assertEquals(new Py.Print(9, 1, "tcpi_snd_cwnd"), st.get(8));
		assertTrue(cwnd.isTcpInfo());
		assertFalse(new Py.Name("TCP_CA_Open").isTcpInfo());
		// a variable assigned in an earlier block is known in a later one, as in packetdrill's single interpreter
		AssertEvent later = (AssertEvent) parse("0 %{ x = 1 }%\n+0 %{ assert tcpi_snd_cwnd == x - 1 }%\n").events().get(1);
		assertEquals(new Py.Binary("-", new Py.Name("x"), new Py.Num(1)),
				((Py.Compare) ((Py.Assert) later.statements().get(0)).condition()).operands().get(1));
		assertEquals("assert tcpi_snd_cwnd == x - 1", later.code());
	}

	@Test
	void defineSubstitutesASymbolWithItsTypedValue() {
		SyscallEvent call = (SyscallEvent) parse("--define=N=0x10\n--define=S=\"abc\"\n0 write(4, S, N) = N\n").events().get(0);
		assertEquals(List.of(new Expr.Int(4, false), new Expr.Str("abc", false), new Expr.Int(16, false)), call.arguments());
		PacketEvent p = (PacketEvent) parse("--define=MSS=1200\n0 > S. 0:0(0) ack 1 <mss MSS>\n").events().get(0);
		assertEquals(List.of(new TcpOption.Mss(1200)), p.options());
	}

	@Test
	void theModelIsImmutable() {
		Script s = parse("0 write(4, ..., 10) = 10\n+0 > . 1:1(0) ack 1 <nop>\n");
		assertThrows(UnsupportedOperationException.class, () -> s.events().clear());
		assertThrows(UnsupportedOperationException.class, () -> ((SyscallEvent) s.events().get(0)).arguments().clear());
		assertThrows(UnsupportedOperationException.class, () -> ((PacketEvent) s.events().get(1)).options().clear());
	}
}
