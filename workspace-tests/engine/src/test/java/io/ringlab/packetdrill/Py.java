package io.ringlab.packetdrill;

import java.util.List;
import java.util.Set;

/**
 * The Python that this reader accepts inside {@code %{ }%} blocks: the subset gtests/net/tcp's scripts use to check
 * {@code tcp_info} fields. packetdrill itself runs the blocks' text with a Python interpreter after the script, with
 * the {@code tcpi_*} fields captured at each block's time and the constants of its code.c defined
 * ({@link #CONSTANTS}); variables assigned in one block are visible in later ones.
 *
 * <p>Statements, one per line or separated by {@code ;} ({@code \} continues a line, {@code #} starts a comment):
 * {@code assert CONDITION[, message]}, {@code NAME = EXPR}, {@code NAME += EXPR}, {@code NAME -= EXPR} and
 * {@code print(...)} (no effect on the result). Expressions: integers (decimal, {@code 0x} hex), names
 * ({@code tcpi_*}, {@link #CONSTANTS}, variables assigned earlier), parentheses, unary {@code -} and {@code not},
 * {@code * // + - & |}, comparisons {@code == != < <= > >=} (chained, {@code 10 <= tcpi_rtt <= 20}) and
 * {@code and}/{@code or}. The assert's message is kept as text, not read.
 */
final class Py {

	private Py() {
	}

	/** The names packetdrill's code.c defines before the blocks run (from Linux's uapi tcp.h). */
	static final Set<String> CONSTANTS = Set.of("TCP_ESTABLISHED", "TCP_SYN_SENT", "TCP_SYN_RECV", "TCP_FIN_WAIT1",
			"TCP_FIN_WAIT2", "TCP_TIME_WAIT", "TCP_CLOSE", "TCP_CLOSE_WAIT", "TCP_LAST_ACK", "TCP_LISTEN", "TCP_CLOSING",
			"TCP_CA_Open", "TCP_CA_Disorder", "TCP_CA_CWR", "TCP_CA_Recovery", "TCP_CA_Loss", "TCPI_OPT_TIMESTAMPS",
			"TCPI_OPT_SACK", "TCPI_OPT_WSCALE", "TCPI_OPT_ECN", "TCPI_OPT_ECN_SEEN", "TCPI_OPT_SYN_DATA",
			"TCPI_OPT_USEC_TS", "TCPI_OPT_TFO_CHILD");

	/** One statement of a block, with its own 1-based line and column in the script. */
	sealed interface Statement permits Assert, Assign, Print {
		int line();

		int column();
	}

	/** {@code assert condition[, message]}; {@code message} is the raw text after the comma, empty if none. */
	record Assert(int line, int column, Expr condition, String message) implements Statement {
	}

	/** {@code name = value}, {@code name += value} or {@code name -= value} ({@code operator} is {@code = += -=}). */
	record Assign(int line, int column, String name, String operator, Expr value) implements Statement {
	}

	/** {@code print(...)}: the text between the parentheses. */
	record Print(int line, int column, String text) implements Statement {
	}

	/** An expression of the subset. */
	sealed interface Expr permits Num, Name, Unary, Binary, Compare {
	}

	/** An integer literal. */
	record Num(long value) implements Expr {
	}

	/** A {@code tcpi_*} field, a {@link #CONSTANTS} name or a variable assigned earlier. */
	record Name(String name) implements Expr {
		boolean isTcpInfo() {
			return name.startsWith("tcpi_");
		}
	}

	/** {@code -x} or {@code not x} ({@code operator} {@code -} or {@code not}). */
	record Unary(String operator, Expr operand) implements Expr {
	}

	/** {@code left op right} for {@code * // + - & | and or}. */
	record Binary(String operator, Expr left, Expr right) implements Expr {
	}

	/**
	 * A comparison chain: {@code a < b <= c} is {@code operands [a, b, c]}, {@code operators [<, <=]} and means
	 * {@code a < b and b <= c}, as in Python.
	 */
	record Compare(List<Expr> operands, List<String> operators) implements Expr {
		Compare {
			operands = List.copyOf(operands);
			operators = List.copyOf(operators);
			if (operands.size() != operators.size() + 1 || operators.isEmpty()) {
				throw new IllegalArgumentException("operands=" + operands.size() + ", operators=" + operators.size());
			}
		}
	}
}
