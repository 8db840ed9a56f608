package io.ringlab.packetdrill;

import io.ringlab.packetdrill.Event.SyscallEvent;
import java.util.List;

/**
 * The system calls a script makes, onto the model's socket ({@link Stack}). Mapped: {@code socket} (SOCK_STREAM),
 * {@code bind}, {@code listen}, {@code accept} (non-blocking: the connection must be established when it is made),
 * {@code connect} (non-blocking, {@code -1 EINPROGRESS}), {@code write}, {@code close}, {@code setsockopt} of
 * {@code SO_REUSEADDR} and {@code TCP_NODELAY=1} (no effect: one run has no TIME_WAIT sockets, and the model sends at
 * once), {@code fcntl} setting {@code O_NONBLOCK}, {@code getsockopt(SO_ERROR)}. Refused, naming the line: blocking
 * calls ({@code ...}), every other call and option.
 */
final class Syscalls {

	private Syscalls() {
	}

	static void run(SyscallEvent s, Session session) {
		int line = s.line();
		if (s.blockingEndMicros().isPresent()) {
			throw new Peer.Fail(line, s.name() + ": blocking calls (...) are not supported; make the call when it"
					+ " returns at once");
		}
		List<Expr> a = s.arguments();
		switch (s.name()) {
			case "socket" -> {
				if (a.size() != 3 || !(a.get(1) instanceof Expr.Word w && w.name().equals("SOCK_STREAM"))) {
					throw new Peer.Fail(line, "socket(): only SOCK_STREAM sockets are modelled");
				}
				long fd = result(s);
				session.fds.put(fd, "socket");
				expect(s, fd, fd);
			}
			case "bind" -> {
				fd(s, session, "socket");
				expect(s, 0, result(s));
			}
			case "listen" -> {
				long fd = fd(s, session, "socket");
				session.stack().listen();
				session.fds.put(fd, "listener");
				expect(s, 0, result(s));
			}
			case "accept" -> {
				fd(s, session, "listener");
				long want = result(s);
				if (!session.stack().established()) {
					throw new Peer.Fail(line, "accept() = " + want + " expected, but the model's connection is not"
							+ " established (" + state(session) + ")");
				}
				session.fds.put(want, "connection");
			}
			case "connect" -> {
				long fd = fd(s, session, "socket");
				if (result(s) != -1 || !s.errno().orElse("").equals("EINPROGRESS")) {
					throw new Peer.Fail(line, "connect(): only the non-blocking form (= -1 EINPROGRESS, after fcntl"
							+ " O_NONBLOCK) is supported");
				}
				session.stack().connect();
				session.fds.put(fd, "connection");
			}
			case "fcntl" -> {
				fd(s, session, null);
				if (a.size() == 3 && a.get(1) instanceof Expr.Word w && w.name().equals("F_SETFL")
						&& a.get(2).toString().contains("O_NONBLOCK")) {
					expect(s, 0, result(s));
				} else if (a.size() == 2 && a.get(1) instanceof Expr.Word w && w.name().equals("F_GETFL")) {
					// the flags are not modelled: the script's expectation is taken as the answer
				} else {
					throw new Peer.Fail(line, "fcntl(): only F_SETFL with O_NONBLOCK and F_GETFL are supported");
				}
			}
			case "setsockopt" -> {
				fd(s, session, null);
				String opt = a.size() > 2 ? a.get(2).toString() : "";
				boolean ok = opt.contains("SO_REUSEADDR") || opt.contains("TCP_NODELAY") && a.size() > 3
						&& a.get(3) instanceof Expr.ListExpr l && l.items().size() == 1
						&& l.items().get(0) instanceof Expr.Int i && i.value() == 1;
				if (!ok) {
					throw new Peer.Fail(line, "setsockopt(): only SO_REUSEADDR and TCP_NODELAY [1] are supported (the"
							+ " model's properties stand for the other options)");
				}
				expect(s, 0, result(s));
			}
			case "getsockopt" -> {
				fd(s, session, "connection");
				String opt = a.size() > 2 ? a.get(2).toString() : "";
				if (!opt.contains("SO_ERROR")) {
					throw new Peer.Fail(line, "getsockopt(): only SO_ERROR is supported");
				}
				if (!session.stack().established()) {
					throw new Peer.Fail(line, "getsockopt(SO_ERROR): the connection is not established ("
							+ state(session) + ")");
				}
				expect(s, 0, result(s));
			}
			case "write" -> {
				fd(s, session, "connection");
				if (a.size() != 3 || !(a.get(2) instanceof Expr.Int n)) {
					throw new Peer.Fail(line, "write(): the length must be an integer");
				}
				long accepted = session.stack().write(n.value());
				expect(s, result(s), accepted);
			}
			case "close" -> {
				long fd = fd(s, session, null);
				String what = session.fds.remove(fd);
				if ("connection".equals(what)) {
					session.stack().close();
				}
				expect(s, 0, result(s));
			}
			default -> throw new Peer.Fail(line, s.name() + "(): not mapped onto the model; mapped are socket, bind,"
					+ " listen, accept, connect, fcntl, setsockopt, getsockopt, write, close");
		}
	}

	private static String state(Session session) {
		StringBuilder sb = new StringBuilder();
		session.stack().tcpInfo((k, v) -> {
			if (k.equals("tcpi_state")) {
				sb.append("tcpi_state ").append(v);
			}
		});
		return sb.isEmpty() ? "no tcpi_state" : sb.toString();
	}

	private static long result(SyscallEvent s) {
		if (s.result() instanceof Expr.Int i) {
			return i.value();
		}
		throw new Peer.Fail(s.line(), s.name() + "(): the result must be an integer, found " + s.result());
	}

	private static void expect(SyscallEvent s, long want, long got) {
		if (want != got) {
			throw new Peer.Fail(s.line(), s.name() + "() = " + want + " expected, the model returned " + got);
		}
	}

	/** The first argument as an open descriptor of {@code kind} (any open one for null). */
	private static long fd(SyscallEvent s, Session session, String kind) {
		if (s.arguments().isEmpty() || !(s.arguments().get(0) instanceof Expr.Int i)) {
			throw new Peer.Fail(s.line(), s.name() + "(): the first argument must be a file descriptor");
		}
		String what = session.fds.get(i.value());
		if (what == null || kind != null && !what.equals(kind) && !(kind.equals("socket") && what.equals("listener"))) {
			throw new Peer.Fail(s.line(), s.name() + "(" + i.value() + "): " + (what == null ? "not an open descriptor"
					: "a " + what + ", not a " + kind));
		}
		return i.value();
	}
}
