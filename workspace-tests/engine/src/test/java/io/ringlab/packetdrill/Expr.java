package io.ringlab.packetdrill;

import java.util.List;

/**
 * A system call's argument or result (parser.y's {@code expression}), as a small tree. packetdrill's special structs
 * ({@code {sa_family=AF_INET, sin_port=htons(8080), ...}}, {@code {onoff=1, linger=0}}, msghdr, iovec, pollfd) are
 * all read as a {@link Struct} of {@link Assign}s, {@link Call}s and values, without checking their field names.
 */
sealed interface Expr {

	/** An integer: {@code 5840}, {@code -1}, or hexadecimal {@code 0x2} ({@code hex} true). */
	record Int(long value, boolean hex) implements Expr {
	}

	/** An identifier: {@code SOCK_STREAM}, {@code F_SETFL}, {@code EPOLLOUT}. */
	record Word(String name) implements Expr {
	}

	/**
	 * A string; adjacent strings are concatenated (as parser.y's {@code string_sequence}), {@code "abc"...}
	 * ({@code ellipsis} true) matches any continuation.
	 */
	record Str(String value, boolean ellipsis) implements Expr {
	}

	/** {@code ...}: any value. */
	record Ellipsis() implements Expr {
	}

	/** {@code [a, b]}; {@code [1]} is how packetdrill writes a pointer to an int. */
	record ListExpr(List<Expr> items) implements Expr {
		public ListExpr {
			items = List.copyOf(items);
		}
	}

	/** {@code {a, b}} or {@code {name=value, ...}}. */
	record Struct(List<Expr> items) implements Expr {
		public Struct {
			items = List.copyOf(items);
		}
	}

	/** {@code name(args)} inside an expression: {@code htons(8080)}, {@code inet_addr("192.0.2.1")}, {@code msg_iov(1)}. */
	record Call(String name, List<Expr> arguments) implements Expr {
		public Call {
			arguments = List.copyOf(arguments);
		}
	}

	/** {@code target=value}: {@code sa_family=AF_INET}, {@code msg_name(...)=...} (target a {@link Word} or {@link Call}). */
	record Assign(Expr target, Expr value) implements Expr {
	}

	/** {@code left|right}, bitwise or ({@code O_RDWR|O_NONBLOCK}). */
	record Or(Expr left, Expr right) implements Expr {
	}

	/** {@code &name} (not in packetdrill's grammar: an extension for Ringlab's own scripts). */
	record AddressOf(String name) implements Expr {
	}
}
