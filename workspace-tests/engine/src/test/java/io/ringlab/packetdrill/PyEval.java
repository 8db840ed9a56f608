package io.ringlab.packetdrill;

import java.util.HashMap;
import java.util.Map;

/**
 * Evaluates the {@link Py} statements of {@code %{ }%} blocks against the model's {@code tcp_info} at the block's time,
 * with Python's meaning for the subset: integers of any size (here 64-bit: tcp_info's fields are at most u64), {@code //}
 * floor division, comparisons and {@code and}/{@code or} giving truth values, {@code not}. Variables assigned in one
 * block are visible in later ones (packetdrill runs all blocks in one interpreter).
 *
 * <p>Constants: packetdrill's code.c defines the names of {@link Py#CONSTANTS} from Linux's
 * {@code include/uapi/linux/tcp.h} ({@code enum tcp_ca_state}, the {@code TCPI_OPT_*} bits) and
 * {@code include/net/tcp_states.h} (the {@code TCP_*} states); their values are those headers'.
 */
final class PyEval {

	/** The values of {@link Py#CONSTANTS} (uapi tcp.h, tcp_states.h). */
	static final Map<String, Long> CONSTANTS = Map.ofEntries(Map.entry("TCP_ESTABLISHED", 1L),
			Map.entry("TCP_SYN_SENT", 2L), Map.entry("TCP_SYN_RECV", 3L), Map.entry("TCP_FIN_WAIT1", 4L),
			Map.entry("TCP_FIN_WAIT2", 5L), Map.entry("TCP_TIME_WAIT", 6L), Map.entry("TCP_CLOSE", 7L),
			Map.entry("TCP_CLOSE_WAIT", 8L), Map.entry("TCP_LAST_ACK", 9L), Map.entry("TCP_LISTEN", 10L),
			Map.entry("TCP_CLOSING", 11L), Map.entry("TCP_CA_Open", 0L), Map.entry("TCP_CA_Disorder", 1L),
			Map.entry("TCP_CA_CWR", 2L), Map.entry("TCP_CA_Recovery", 3L), Map.entry("TCP_CA_Loss", 4L),
			Map.entry("TCPI_OPT_TIMESTAMPS", 1L), Map.entry("TCPI_OPT_SACK", 2L), Map.entry("TCPI_OPT_WSCALE", 4L),
			Map.entry("TCPI_OPT_ECN", 8L), Map.entry("TCPI_OPT_ECN_SEEN", 16L), Map.entry("TCPI_OPT_SYN_DATA", 32L),
			Map.entry("TCPI_OPT_USEC_TS", 64L), Map.entry("TCPI_OPT_TFO_CHILD", 128L));

	/** A statement that failed: its message names what was expected and what the model's values were. */
	static final class Failure extends Exception {
		private static final long serialVersionUID = 1L;
		final int line;

		Failure(int line, String message) {
			super(message);
			this.line = line;
		}
	}

	private final Map<String, Long> variables = new HashMap<>();

	/**
	 * Runs one block's statements.
	 *
	 * @param info the model's tcp_info now, by field name
	 * @throws Failure at the first assert that does not hold, or a {@code tcpi_*} name the model does not provide
	 */
	void run(AssertBlock block, Map<String, Long> info) throws Failure {
		for (Py.Statement s : block.statements()) {
			switch (s) {
				case Py.Assert a -> {
					if (eval(a.condition(), info, a.line()) == 0) {
						throw new Failure(a.line(), "assert " + Py2Text.of(a.condition()) + " failed: "
								+ values(a.condition(), info, a.line()));
					}
				}
				case Py.Assign a -> {
					long v = eval(a.value(), info, a.line());
					switch (a.operator()) {
						case "=" -> variables.put(a.name(), v);
						case "+=" -> variables.put(a.name(), get(a.name(), info, a.line()) + v);
						default -> variables.put(a.name(), get(a.name(), info, a.line()) - v);
					}
				}
				case Py.Print p -> {
					// no effect on the result, as in packetdrill
				}
			}
		}
	}

	/** The statements of one block, with its event for the line. */
	record AssertBlock(Event.AssertEvent event) {
		java.util.List<Py.Statement> statements() {
			return event.statements();
		}
	}

	private long eval(Py.Expr e, Map<String, Long> info, int line) throws Failure {
		return switch (e) {
			case Py.Num n -> n.value();
			case Py.Name n -> get(n.name(), info, line);
			case Py.Unary u -> u.operator().equals("-") ? -eval(u.operand(), info, line)
					: eval(u.operand(), info, line) == 0 ? 1 : 0;
			case Py.Binary b -> binary(b, info, line);
			case Py.Compare c -> {
				long left = eval(c.operands().get(0), info, line);
				for (int i = 0; i < c.operators().size(); i++) {
					long right = eval(c.operands().get(i + 1), info, line);
					boolean holds = switch (c.operators().get(i)) {
						case "==" -> left == right;
						case "!=" -> left != right;
						case "<" -> left < right;
						case "<=" -> left <= right;
						case ">" -> left > right;
						default -> left >= right;
					};
					if (!holds) {
						yield 0;
					}
					left = right;
				}
				yield 1;
			}
		};
	}

	private long binary(Py.Binary b, Map<String, Long> info, int line) throws Failure {
		long l = eval(b.left(), info, line);
		switch (b.operator()) {
			case "and":
				return l == 0 ? l : eval(b.right(), info, line);
			case "or":
				return l != 0 ? l : eval(b.right(), info, line);
			default:
				break;
		}
		long r = eval(b.right(), info, line);
		return switch (b.operator()) {
			case "*" -> l * r;
			case "//" -> {
				if (r == 0) {
					throw new Failure(line, "ZeroDivisionError in " + Py2Text.of(b));
				}
				yield Math.floorDiv(l, r);
			}
			case "+" -> l + r;
			case "-" -> l - r;
			case "&" -> l & r;
			case "|" -> l | r;
			default -> throw new IllegalStateException("operator " + b.operator());
		};
	}

	private long get(String name, Map<String, Long> info, int line) throws Failure {
		Long v = name.startsWith("tcpi_") ? info.get(name) : variables.containsKey(name) ? variables.get(name)
				: CONSTANTS.get(name);
		if (v == null) {
			throw new Failure(line, name.startsWith("tcpi_")
					? "the model does not provide " + name + "; it provides " + new java.util.TreeSet<>(info.keySet())
					: "name " + name + " is not defined");
		}
		return v;
	}

	/** The values of the names in {@code e}: {@code tcpi_snd_cwnd = 10, tcpi_ca_state = 3}. */
	private String values(Py.Expr e, Map<String, Long> info, int line) throws Failure {
		java.util.Set<String> names = new java.util.LinkedHashSet<>();
		collect(e, names);
		StringBuilder sb = new StringBuilder();
		for (String n : names) {
			if (!CONSTANTS.containsKey(n) || variables.containsKey(n)) {
				sb.append(sb.isEmpty() ? "" : ", ").append(n).append(" = ").append(get(n, info, line));
			}
		}
		return sb.isEmpty() ? "no names" : "the model has " + sb;
	}

	private static void collect(Py.Expr e, java.util.Set<String> names) {
		switch (e) {
			case Py.Num n -> {
			}
			case Py.Name n -> names.add(n.name());
			case Py.Unary u -> collect(u.operand(), names);
			case Py.Binary b -> {
				collect(b.left(), names);
				collect(b.right(), names);
			}
			case Py.Compare c -> c.operands().forEach(o -> collect(o, names));
		}
	}

	/** Writes an expression back as Python text, for messages. */
	static final class Py2Text {
		private Py2Text() {
		}

		static String of(Py.Expr e) {
			return switch (e) {
				case Py.Num n -> Long.toString(n.value());
				case Py.Name n -> n.name();
				case Py.Unary u -> (u.operator().equals("not") ? "not " : "-") + paren(u.operand());
				case Py.Binary b -> paren(b.left()) + " " + b.operator() + " " + paren(b.right());
				case Py.Compare c -> {
					StringBuilder sb = new StringBuilder(paren(c.operands().get(0)));
					for (int i = 0; i < c.operators().size(); i++) {
						sb.append(' ').append(c.operators().get(i)).append(' ').append(paren(c.operands().get(i + 1)));
					}
					yield sb.toString();
				}
			};
		}

		private static String paren(Py.Expr e) {
			return e instanceof Py.Num || e instanceof Py.Name ? of(e) : "(" + of(e) + ")";
		}
	}
}
