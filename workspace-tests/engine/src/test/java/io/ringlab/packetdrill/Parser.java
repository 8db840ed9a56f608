package io.ringlab.packetdrill;

import io.ringlab.packetdrill.Event.AssertEvent;
import io.ringlab.packetdrill.Event.Direction;
import io.ringlab.packetdrill.Event.PacketEvent;
import io.ringlab.packetdrill.Event.ShellEvent;
import io.ringlab.packetdrill.Event.SyscallEvent;
import io.ringlab.packetdrill.Lexer.Kind;
import io.ringlab.packetdrill.Lexer.Token;
import java.util.ArrayList;
import java.util.HashSet;
import java.util.List;
import java.util.Optional;
import java.util.OptionalInt;
import java.util.OptionalLong;
import java.util.Set;

/**
 * A recursive-descent reader of packetdrill's script grammar (gtests/net/packetdrill/parser.y at google/packetdrill
 * 2c4001c), restricted to what Ringlab's TCP model can take: TCP segments without IP-level fields, system calls, shell
 * commands and {@code %{ }%} blocks in the subset of {@link Py}. Everything else fails with a {@link ScriptException}
 * naming the line, the column, what was found and what is allowed. The semantic checks parser.y makes are made here
 * too: {@code *} and ranges only on outbound segments, no backwards range, no negative time, sequence end = start +
 * length, value ranges (u16, u32, u8), {@code <...>} only on outbound segments; and run.c's "first event should be at
 * time 0".
 */
final class Parser {

	private static final long U32_MAX = 0xFFFF_FFFFL;

	private final String file;
	private final TokenCursor<Token> cursor;
	/** Variables assigned by the blocks read so far: packetdrill runs all blocks in one interpreter, in order. */
	private final Set<String> pythonVariables = new HashSet<>();

	private Parser(String file, String text) {
		this.file = file;
		this.cursor = new TokenCursor<>(Lexer.tokens(file, text), t -> t.kind() == Kind.EOF);
	}

	static Script parse(String file, String text) {
		return new Parser(file, text).script();
	}

	/** {@code script: opt_options opt_init_command events opt_cleanup_command}. */
	private Script script() {
		List<OptionLine> options = new ArrayList<>();
		while (peek().kind() == Kind.OPTION) {
			Token option = take();
			options.add(new OptionLine(option.line(), option.column(), option.text(), Optional.ofNullable(option.value())));
		}
		for (OptionLine option : options) {
			if (option.name().equals("define")) {
				define(option);
			}
		}
		Optional<ShellCommand> init = Optional.empty();
		if (peek().kind() == Kind.BACK_QUOTED) {
			init = Optional.of(shellCommand(take()));
		}
		List<Event> events = new ArrayList<>();
		Optional<ShellCommand> cleanup = Optional.empty();
		while (peek().kind() != Kind.EOF) {
			Token first = peek();
			if (first.kind() == Kind.BACK_QUOTED) {
				if (cursor.peekSecond().kind() != Kind.EOF || events.isEmpty()) {
					throw error(first, "a shell command without a time is allowed only before the first event (the init"
							+ " command) and after the last (the cleanup command); give it a time: +0 `command`");
				}
				cleanup = Optional.of(shellCommand(take()));
			} else if (first.kind() == Kind.OPTION) {
				throw error(first, "--options are allowed only at the top of the script, before any event");
			} else {
				events.add(event());
			}
		}
		if (events.isEmpty()) {
			throw error(peek(), "a script needs at least one event (a time column followed by a packet, a system call, a"
					+ " `shell command` or a %{ }% block)");
		}
		Event first = events.get(0);
		if (first.time().startMicros() != 0) {
			// run.c get_next_event: "first event should be at time 0"
			throw new ScriptException(file, first.line(), first.column(),
					"found a first event at " + first.time().startMicros() + " us; the first event must be at time 0 (0 or +0)");
		}
		return new Script(file, options, init, events, cleanup);
	}

	/**
	 * {@code --define=SYMBOL=VALUE}: every later WORD {@code SYMBOL} reads as VALUE, typed as lexer.l's {@code word()}
	 * does it: {@code "text"} a STRING, {@code `text`} a BACK_QUOTED, an integer ({@code strtol} base 0: decimal, 0x
	 * hex) an INTEGER, anything else a WORD.
	 */
	private void define(OptionLine option) {
		String definition = option.value().orElse("");
		int eq = definition.indexOf('=');
		if (eq <= 0) {
			throw new ScriptException(file, option.line(), option.column(),
					"found --define" + (option.value().isPresent() ? "=" + definition : "") + "; a definition is --define=SYMBOL=VALUE");
		}
		String symbol = definition.substring(0, eq);
		String value = definition.substring(eq + 1);
		cursor.substituteAhead(t -> t.isWord(symbol) ? defined(value, t) : t);
	}

	private static Token defined(String value, Token at) {
		if (value.length() >= 2 && (value.charAt(0) == '"' || value.charAt(0) == '`')) {
			Kind kind = value.charAt(0) == '"' ? Kind.STRING : Kind.BACK_QUOTED;
			return new Token(kind, value, value.substring(1, value.length() - 1), at.line(), at.column());
		}
		try {
			long number = value.startsWith("0x") || value.startsWith("0X") ? Long.parseLong(value.substring(2), 16)
					: value.length() > 1 && value.startsWith("0") ? Long.parseLong(value.substring(1), 8) : Long.parseLong(value);
			return new Token(Kind.INTEGER, Long.toString(number), Long.toString(number), at.line(), at.column());
		} catch (NumberFormatException e) {
			return new Token(Kind.WORD, value, value, at.line(), at.column());
		}
	}

	/** {@code event: event_time action}, with parser.y's checks of {@code *} and ranges. */
	private Event event() {
		Token start = peek();
		Time time = eventTime();
		Token action = peek();
		Event event;
		if (action.is('<') || action.is('>')) {
			event = packet(start, time);
		} else if (action.kind() == Kind.BACK_QUOTED) {
			event = new ShellEvent(start.line(), start.column(), time, shellCommand(take()));
		} else if (action.kind() == Kind.CODE) {
			Token code = take();
			List<Py.Statement> statements = PyParser.parse(file, code.value(), code.line(), code.column() + 2, pythonVariables);
			event = new AssertEvent(start.line(), start.column(), time, code.value().strip(), statements);
		} else if (action.kind() == Kind.ELLIPSIS || (action.kind() == Kind.WORD && cursor.peekSecond().is('('))) {
			event = syscall(start, time);
		} else {
			throw error(action, "expected the event after the time: a segment (< or >), a system call name(args) = result,"
					+ " a `shell command` or a %{ python }% block");
		}
		boolean outbound = event instanceof PacketEvent packet && packet.direction() == Direction.OUTBOUND;
		if (time.kind() == Time.Kind.ANY && !outbound) {
			throw error(start, "event time * can only be used with outbound packets (> ...)");
		}
		if (time.range() && !outbound) {
			throw error(start, "an event time range can only be used with outbound packets (> ...)");
		}
		expectEventEnd();
		return event;
	}

	/** After an event: the next one's time column, the cleanup command or the end. */
	private void expectEventEnd() {
		Token t = peek();
		if (!(t.kind() == Kind.EOF || t.kind() == Kind.BACK_QUOTED || t.kind() == Kind.OPTION || t.kind() == Kind.INTEGER
				|| t.kind() == Kind.FLOAT || t.is('+') || t.is('*'))) {
			throw error(t, "expected the end of the event: the next event's time column, a final `cleanup command` or the"
					+ " end of the script");
		}
	}

	/** {@code event_time: '+' time | time | '*' | time '~' time | '+' time '~' '+' time}. */
	private Time eventTime() {
		Token t = peek();
		if (t.is('*')) {
			take();
			return Time.ANY;
		}
		boolean relative = t.is('+');
		if (relative) {
			take();
		} else if (t.kind() != Kind.INTEGER && t.kind() != Kind.FLOAT) {
			throw error(t, "expected an event's time column: 0.100 (seconds from the start), +.1 (after the previous"
					+ " event), * (any time) or a range 0.1~0.2 / +0~+.02");
		}
		long startMicros = time();
		if (!peek().is('~')) {
			return relative ? Time.relative(startMicros) : Time.absolute(startMicros);
		}
		Token tilde = take();
		if (relative) {
			expectPunct('+', "a relative range is +START~+END");
		}
		long endMicros = time();
		if (endMicros < startMicros) {
			throw error(tilde, "time range is backwards (" + startMicros + " us ~ " + endMicros + " us); the end must not be"
					+ " before the start");
		}
		return relative ? Time.relativeRange(startMicros, endMicros) : Time.absoluteRange(startMicros, endMicros);
	}

	/** parser.y's {@code time}: seconds as FLOAT ({@code (s64)(x * 1.0e6)}) or INTEGER ({@code n * 1000000}). */
	private long time() {
		Token t = take();
		if (t.kind() == Kind.FLOAT) {
			double seconds = Double.parseDouble(t.text());
			if (seconds < 0) {
				throw error(t, "negative time; a time is seconds >= 0");
			}
			// the C cast truncates towards zero, as (long) does
			return (long) (seconds * 1.0e6);
		}
		if (t.kind() == Kind.INTEGER) {
			long seconds = integer(t);
			if (seconds < 0) {
				throw error(t, "negative time; a time is seconds >= 0");
			}
			if (seconds > Long.MAX_VALUE / 1_000_000) {
				throw error(t, "time out of range; at most " + Long.MAX_VALUE / 1_000_000 + " s");
			}
			return seconds * 1_000_000;
		}
		throw error(t, "expected a time in seconds (0, 1.5, .1)");
	}

	// ---------------------------------------------------------------- segments

	/**
	 * {@code tcp_packet_spec: packet_prefix opt_ip_info opt_encap opt_port_info flags seq opt_ack opt_window
	 * opt_urg_ptr opt_tcp_options}, without IP info, encapsulation and ports.
	 */
	private PacketEvent packet(Token start, Time time) {
		Direction direction = take().is('<') ? Direction.INBOUND : Direction.OUTBOUND;
		Token t = peek();
		if (t.is('[') || t.is('(')) {
			throw error(t, "IP-level fields ([ect0], [noecn], (tos 0x..), (ttl N), flowlabel) are not supported; a segment"
					+ " here is FLAGS START:END(LEN) [ack N] [win N] [<options>]");
		}
		if (t.isWord("udp") || t.isWord("icmp")) {
			throw error(t, t.text() + " packets are not supported; only TCP segments (FLAGS START:END(LEN) ...) are");
		}
		if (t.isWord("ipv4") || t.isWord("ipv6") || t.isWord("gre") || t.isWord("GREv0") || t.isWord("mpls")
				|| t.isWord("encap")) {
			throw error(t, "encapsulation headers (ipv4, ipv6, gre, mpls, encap psp) are not supported; a segment here is"
					+ " FLAGS START:END(LEN) [ack N] [win N] [<options>]");
		}
		if (t.kind() == Kind.INTEGER && cursor.peekSecond().is('>')) {
			throw error(t, "explicit ports (SRC>DST) are not supported; the executor uses the script's one connection");
		}
		TcpFlags flags = flags();
		Token seqStart = peek();
		long startSeq = u32(seqStart, "TCP start sequence number");
		expectPunct(':', "a sequence range is START:END(LENGTH), e.g. 1:1001(1000)");
		long endSeq = u32(peek(), "TCP end sequence number");
		expectPunct('(', "a sequence range is START:END(LENGTH), e.g. 1:1001(1000)");
		long length = unsigned(peek(), 0xFFFF, "TCP payload size");
		expectPunct(')', "a sequence range is START:END(LENGTH), e.g. 1:1001(1000)");
		if (endSeq != startSeq + length) {
			throw error(seqStart, "inconsistent TCP sequence numbers and payload size: " + startSeq + ":" + endSeq + "("
					+ length + "); END must be START + LENGTH");
		}
		OptionalLong ack = OptionalLong.empty();
		if (peek().isWord("ack")) {
			take();
			ack = OptionalLong.of(u32(peek(), "TCP ack sequence number"));
		}
		OptionalInt window = OptionalInt.empty();
		if (peek().isWord("win")) {
			take();
			window = OptionalInt.of((int) unsigned(peek(), 0xFFFF, "TCP window value"));
		}
		OptionalInt urgent = OptionalInt.empty();
		if (peek().isWord("urg")) {
			take();
			urgent = OptionalInt.of((int) unsigned(peek(), 0xFFFF, "urg_ptr value"));
		}
		List<TcpOption> options = new ArrayList<>();
		boolean anyOptions = false;
		if (peek().is('<')) {
			Token open = take();
			if (peek().kind() == Kind.ELLIPSIS) {
				take();
				if (direction != Direction.OUTBOUND) {
					throw error(open, "<...> for TCP options can only be used with outbound packets (> ...)");
				}
				anyOptions = true;
			} else {
				options.add(tcpOption());
				while (peek().is(',')) {
					take();
					options.add(tcpOption());
				}
			}
			expectPunct('>', "TCP options are <option, option, ...>");
		}
		return new PacketEvent(start.line(), start.column(), time, direction, flags, startSeq, endSeq, (int) length, ack,
				window, urgent, options, anyOptions);
	}

	/** {@code flags: WORD opt_ack_flag | '.' | '-'} (the AccECN {@code opt_word ack_and_ace} form is refused). */
	private TcpFlags flags() {
		Token t = peek();
		String text;
		if (t.is('.')) {
			take();
			text = ".";
		} else if (t.is('-')) {
			take();
			text = "";
		} else if (t.kind() == Kind.WORD) {
			take();
			text = t.text();
			if (peek().is('.')) {
				take();
				text += ".";
			}
		} else if (t.kind() == Kind.FLOAT) {
			throw error(t, "AccECN ACE flag counts (.0 to .7) are not supported; flags are letters of " + TcpFlags.ALLOWED
					+ " (S, S., P., F., R, .) or - for none");
		} else {
			throw error(t, "expected the TCP flags: letters of " + TcpFlags.ALLOWED + " (S, S., P., F., R, .) or - for none");
		}
		if (peek().kind() == Kind.FLOAT) {
			throw error(peek(), "AccECN ACE flag counts (.0 to .7) are not supported; flags are letters of "
					+ TcpFlags.ALLOWED);
		}
		for (int i = 0; i < text.length(); i++) {
			char c = text.charAt(i);
			if (c == 'A' || (c >= '0' && c <= '7')) {
				throw error(t, "the AccECN flag '" + c + "' is not supported; flags are letters of " + TcpFlags.ALLOWED);
			}
			if (TcpFlags.ALLOWED.indexOf(c) < 0) {
				throw error(t, "found TCP flag '" + c + "' in '" + text + "'; allowed flags are letters of " + TcpFlags.ALLOWED
						+ " or - for none");
			}
		}
		return new TcpFlags(text);
	}

	/** parser.y's {@code tcp_option}. */
	private TcpOption tcpOption() {
		Token t = take();
		if (t.kind() == Kind.WORD) {
			switch (t.text()) {
				case "nop":
					return new TcpOption.Nop();
				case "eol":
					return new TcpOption.Eol();
				case "mss":
					return new TcpOption.Mss((int) unsigned(peek(), 0xFFFF, "mss value"));
				case "wscale":
					return new TcpOption.WindowScale((int) unsigned(peek(), 0xFF, "window scale shift count"));
				case "sackOK":
					return new TcpOption.SackPermitted();
				case "sack":
					return sack();
				case "TS":
					expectWord("val", "a timestamp option is TS val N ecr N");
					long value = u32(peek(), "ts val");
					expectWord("ecr", "a timestamp option is TS val N ecr N");
					return new TcpOption.Timestamp(value, u32(peek(), "ecr val"));
				case "FO":
				case "FOEXP":
					String cookie = "";
					if (peek().kind() == Kind.WORD || peek().kind() == Kind.INTEGER) {
						cookie = take().text();
					}
					return new TcpOption.FastOpen(cookie, t.text().equals("FOEXP"));
				case "md5":
					Token key = take();
					if (key.kind() != Kind.WORD && key.kind() != Kind.INTEGER) {
						throw error(key, "expected the md5 option's key, hexadecimal digits");
					}
					return new TcpOption.Md5(key.text());
				case "ECN":
					throw error(t, "the AccECN option (ECN e0b/e1b/ceb) is not supported; " + OPTIONS_ALLOWED);
				default:
					break;
			}
		}
		throw error(t, "expected a TCP option; " + OPTIONS_ALLOWED);
	}

	private static final String OPTIONS_ALLOWED = "options are nop, eol, mss N, wscale N, sackOK, sack A:B [C:D ...],"
			+ " TS val N ecr N, FO [cookie], FOEXP [cookie], md5 KEY";

	/** {@code SACK sack_block_list}: one or more {@code left:right}, separated by blanks. */
	private TcpOption sack() {
		List<TcpOption.SackBlock> blocks = new ArrayList<>();
		do {
			long left = u32(peek(), "TCP SACK left sequence number");
			expectPunct(':', "a SACK block is LEFT:RIGHT");
			blocks.add(new TcpOption.SackBlock(left, u32(peek(), "TCP SACK right sequence number")));
		} while (peek().kind() == Kind.INTEGER);
		return new TcpOption.Sack(blocks);
	}

	// ---------------------------------------------------------------- system calls

	/** {@code syscall_spec: opt_end_time function_name function_arguments '=' expression opt_errno opt_note}. */
	private SyscallEvent syscall(Token start, Time time) {
		OptionalLong blockingEnd = OptionalLong.empty();
		if (peek().kind() == Kind.ELLIPSIS) {
			take();
			blockingEnd = OptionalLong.of(time());
		}
		Token name = take();
		if (name.kind() != Kind.WORD || !peek().is('(')) {
			throw error(name, "expected a system call: name(arguments) = result");
		}
		take();
		List<Expr> arguments = expressionList(')', "a system call's arguments are (a, b, ...)");
		expectPunct('=', "a system call is name(arguments) = result [ERRNO (description)]");
		Expr result = expression(false);
		Optional<String> errno = Optional.empty();
		Optional<String> note = Optional.empty();
		// an errno is on the result's line: a WORD on a later line is a syntax error at that line, not an errno
		if (peek().kind() == Kind.WORD && peek().line() == cursor.previous().line()) {
			Token errnoToken = take();
			if (!peek().is('(')) {
				throw error(peek(), "expected the errno's (description) after " + errnoToken.text()
						+ ", e.g. = -1 EINPROGRESS (Operation now in progress)");
			}
			errno = Optional.of(errnoToken.text());
		}
		if (peek().is('(')) {
			note = Optional.of(note());
		}
		return new SyscallEvent(start.line(), start.column(), time, name.text(), arguments, result, errno, note,
				blockingEnd);
	}

	/** {@code note: '(' word_list ')'}. */
	private String note() {
		take();
		StringBuilder text = new StringBuilder();
		while (!peek().is(')')) {
			Token word = take();
			if (word.kind() != Kind.WORD && word.kind() != Kind.INTEGER && word.kind() != Kind.HEX) {
				throw error(word, "a (description) holds words only, e.g. (Operation now in progress)");
			}
			if (text.length() > 0) {
				text.append(' ');
			}
			text.append(word.text());
		}
		take();
		return text.toString();
	}

	/**
	 * parser.y's {@code expression}, generalised: {@code primary ('|' primary)* ['=' expression]}. {@code calls}
	 * allows {@code name(args)} (inside arguments; a result followed by a note must not read as a call).
	 */
	private Expr expression(boolean calls) {
		Expr left = primary(calls);
		while (peek().is('|')) {
			take();
			left = new Expr.Or(left, primary(calls));
		}
		if (peek().is('=')) {
			Token eq = take();
			if (!(left instanceof Expr.Word || left instanceof Expr.Call)) {
				throw error(eq, "only a name or name(...) can be assigned (name=value)");
			}
			return new Expr.Assign(left, expression(calls));
		}
		return left;
	}

	private Expr primary(boolean calls) {
		Token t = take();
		switch (t.kind()) {
			case ELLIPSIS:
				return new Expr.Ellipsis();
			case INTEGER:
				return new Expr.Int(integer(t), false);
			case HEX:
				try {
					return new Expr.Int(Long.parseUnsignedLong(t.text().substring(2), 16), true);
				} catch (NumberFormatException e) {
					throw error(t, "hexadecimal integer out of range; at most 64 bits");
				}
			case STRING: {
				StringBuilder value = new StringBuilder(t.value());
				while (peek().kind() == Kind.STRING) {
					value.append(take().value());
				}
				boolean ellipsis = peek().kind() == Kind.ELLIPSIS;
				if (ellipsis) {
					take();
				}
				return new Expr.Str(value.toString(), ellipsis);
			}
			case WORD:
				if (calls && peek().is('(')) {
					take();
					return new Expr.Call(t.text(), expressionList(')', "a call is name(a, b, ...)"));
				}
				return new Expr.Word(t.text());
			case PUNCT:
				if (t.is('[') || t.is('{')) {
					List<Expr> items = t.is('[') ? expressionList(']', "a list is [a, b, ...]")
							: expressionList('}', "a struct is {a, b, ...}");
					return t.is('[') ? new Expr.ListExpr(items) : new Expr.Struct(items);
				}
				if (t.is('&')) {
					Token name = take();
					if (name.kind() != Kind.WORD) {
						throw error(name, "expected a name after &");
					}
					return new Expr.AddressOf(name.text());
				}
				break;
			default:
				break;
		}
		throw error(t, "expected a value: an integer, 0x hex, a NAME, a \"string\", ..., [list], {struct}, &name,"
				+ " name(args) or a|b");
	}

	/** {@code [expression (',' expression)*] close}, after the opening bracket; {@code allowed} names the form. */
	private List<Expr> expressionList(char close, String allowed) {
		List<Expr> items = new ArrayList<>();
		if (!peek().is(close)) {
			items.add(expression(true));
			while (peek().is(',')) {
				take();
				items.add(expression(true));
			}
		}
		expectPunct(close, allowed);
		return items;
	}

	// ---------------------------------------------------------------- helpers

	private ShellCommand shellCommand(Token t) {
		return ShellCommand.of(t.line(), t.column(), t.value());
	}

	private long u32(Token t, String what) {
		return unsigned(t, U32_MAX, what);
	}

	/** Takes an INTEGER in {@code [0, max]}; parser.y's {@code is_valid_u16/u32} checks. */
	private long unsigned(Token t, long max, String what) {
		take();
		if (t.kind() != Kind.INTEGER) {
			throw error(t, "expected the " + what + ", an integer from 0 to " + max);
		}
		long value = integer(t);
		if (value < 0 || value > max) {
			throw error(t, what + " out of range; allowed 0 to " + max);
		}
		return value;
	}

	private long integer(Token t) {
		try {
			return Long.parseLong(t.text());
		} catch (NumberFormatException e) {
			throw error(t, "integer out of range; at most 64 bits signed");
		}
	}

	private void expectPunct(char c, String allowed) {
		Token t = take();
		if (!t.is(c)) {
			throw error(t, "expected '" + c + "': " + allowed);
		}
	}

	private void expectWord(String word, String allowed) {
		Token t = take();
		if (!t.isWord(word)) {
			throw error(t, "expected '" + word + "': " + allowed);
		}
	}

	private Token peek() {
		return cursor.peek();
	}

	private Token take() {
		return cursor.take();
	}

	private ScriptException error(Token t, String allowed) {
		return new ScriptException(file, t.line(), t.column(), "found " + t.describe() + "; " + allowed);
	}
}
