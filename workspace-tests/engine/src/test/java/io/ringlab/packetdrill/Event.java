package io.ringlab.packetdrill;

import java.util.List;
import java.util.Optional;
import java.util.OptionalInt;
import java.util.OptionalLong;

/**
 * One timed line of a packetdrill script (parser.y's {@code event: event_time action}). The four kinds are packetdrill's
 * PACKET_EVENT, SYSCALL_EVENT, COMMAND_EVENT and CODE_EVENT. All are immutable; lists are unmodifiable copies.
 */
sealed interface Event permits Event.PacketEvent, Event.SyscallEvent, Event.ShellEvent, Event.AssertEvent {

	/** 1-based line of the event's time column (packetdrill reports the same line). */
	int line();

	/** 1-based column of the event's time column. */
	int column();

	/** The time column as written. */
	Time time();

	/** {@code <} is a segment the script injects, {@code >} one the stack under test must send. */
	enum Direction {
		INBOUND, OUTBOUND
	}

	/**
	 * A TCP segment: {@code < S. 0:0(0) ack 1 win 257 <mss 1460,sackOK>}.
	 *
	 * @param flags the flag column ({@code S.}, {@code P.}, {@code .}, {@code -} for none)
	 * @param seqStart the first sequence number, relative to the initial one as packetdrill writes it
	 * @param seqEnd {@code seqStart + payloadBytes} (checked, as parser.y's {@code seq} rule does)
	 * @param payloadBytes the payload length in bytes
	 * @param ack the {@code ack N} value; empty when not written (packetdrill then uses 0)
	 * @param window the {@code win N} value; empty when not written (for an outbound segment: not checked)
	 * @param urgentPointer the {@code urg N} value; empty when not written
	 * @param options the TCP options in order; empty for none written
	 * @param anyOptions true for {@code <...>}: any options (outbound only), {@code options} is then empty
	 */
	record PacketEvent(int line, int column, Time time, Direction direction, TcpFlags flags, long seqStart, long seqEnd,
			int payloadBytes, OptionalLong ack, OptionalInt window, OptionalInt urgentPointer, List<TcpOption> options,
			boolean anyOptions) implements Event {
		public PacketEvent {
			options = List.copyOf(options);
		}
	}

	/**
	 * A system call: {@code +0 write(4, ..., 5840) = 5840}, {@code connect(3, ..., ...) = -1 EINPROGRESS (Operation now
	 * in progress)}, {@code +0...0.200 accept(3, ..., ...) = 4} (blocking until 0.200).
	 *
	 * @param name the call's name as written ({@code socket}, {@code write}, ...; not checked against a list here)
	 * @param arguments the arguments in order; empty for {@code ()}
	 * @param result the expected return value
	 * @param errno the expected errno macro ({@code EINPROGRESS}); empty when none is written
	 * @param note the parenthesised text after the result or errno ({@code Operation now in progress},
	 *        {@code flags O_RDWR}); empty when none is written
	 * @param blockingEndMicros the {@code ...T} end time of a blocking call, in microseconds, relative like the
	 *        event's start when the start is relative; empty for a non-blocking call
	 */
	record SyscallEvent(int line, int column, Time time, String name, List<Expr> arguments, Expr result,
			Optional<String> errno, Optional<String> note, OptionalLong blockingEndMicros) implements Event {
		public SyscallEvent {
			arguments = List.copyOf(arguments);
		}
	}

	/** A timed shell command: {@code +0 `sysctl -q net.ipv4.tcp_timestamps=0`}. */
	record ShellEvent(int line, int column, Time time, ShellCommand command) implements Event {
	}

	/**
	 * A {@code %{ ... }%} Python block: its text (delimiters and the surrounding blanks stripped, as packetdrill's lexer
	 * does) and its statements, each with its own line.
	 */
	record AssertEvent(int line, int column, Time time, String code, List<Py.Statement> statements) implements Event {
		public AssertEvent {
			statements = List.copyOf(statements);
		}
	}
}
