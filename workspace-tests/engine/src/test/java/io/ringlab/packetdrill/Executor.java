package io.ringlab.packetdrill;

import io.ringlab.engine.standalone.Standalone;
import io.ringlab.packetdrill.Event.PacketEvent;
import io.ringlab.packetdrill.Event.ShellEvent;
import io.ringlab.packetdrill.Event.SyscallEvent;
import io.ringlab.sim.api.ElementFactory;
import io.ringlab.sim.api.PipelineException;
import io.ringlab.sim.api.SimulationRun;
import io.ringlab.sim.api.dto.RunOptionsDTO;
import io.ringlab.sim.api.dto.RunResultDTO;
import io.ringlab.traffic.PacketdrillAdapter;
import java.io.IOException;
import java.io.UncheckedIOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.function.Consumer;
import java.util.function.Function;
import java.util.regex.Matcher;
import java.util.regex.Pattern;

/**
 * Runs a packetdrill script against Ringlab's TCP: reads it, chooses the model's role, maps its options and sysctls
 * onto the element's properties, and runs it in one {@link Standalone} run where a {@link Peer} stands for the tun
 * device and packetdrill's interpreter. The result names the first failure as {@code file:line: message}.
 *
 * <p>Roles: a script that writes ({@code write}) has the model send data: the {@code tcp} element, with
 * {@code open = script} and {@code app = writes}; a script that only injects data has the model receive and ACK it: the
 * {@code host} element, which always listens. The element is created through {@link PacketdrillAdapter}'s factory, which
 * hands the executor the model's socket ({@link Stack}).
 *
 * <p>Ringlab's own directives, in comments so that the scripts stay packetdrill's: {@code // ringlab: kernel = v4.6}
 * sets the model's {@code kernel} preset (default {@code current}, the kernels packetdrill's scripts are run against).
 */
final class Executor {

	/** The element name the model runs under. */
	static final String MODEL = "model";
	/**
	 * The model's {@code mss} property for the tun device's 1500-byte MTU: the MSS option 1500 - 20 (IPv4) - 20 (TCP) =
	 * 1460, less the 12 timestamp option bytes the property leaves out (docs/models/tcp.md, attributes).
	 */
	static final String ADVMSS = "1448B";

	private static final Pattern DIRECTIVE = Pattern.compile("^\\s*//\\s*ringlab:\\s*(\\w+)\\s*=\\s*(\\S+)\\s*$");

	/** The outcome of one script. */
	record Result(String file, boolean passed, int line, String message, List<String> trace, List<String> notes,
			String pipeline) {
		/** The failure as {@code file:line: message}; empty for a pass. */
		String failure() {
			return passed ? "" : file + ":" + line + ": " + message;
		}
	}

	/** The model's element type and how to create it with a socket bound to the session. */
	enum Role {
		SENDER("tcp"), RECEIVER("host");

		final String type;

		Role(String type) {
			this.type = type;
		}
	}

	private Executor() {
	}

	/** Reads and runs the script at {@code path}; errors name it as {@code path.getFileName()}'s parent/name. */
	static Result run(Path path) {
		String text;
		try {
			text = Files.readString(path, StandardCharsets.UTF_8);
		} catch (IOException e) {
			throw new UncheckedIOException("cannot read packetdrill script " + path, e);
		}
		String name = path.getParent() == null ? path.toString()
				: path.getParent().getFileName() + "/" + path.getFileName();
		return run(name, text, null);
	}

	/**
	 * Runs {@code text}.
	 *
	 * @param name the file name messages give
	 * @param modelFactory null for Ringlab's model; else a factory for the model's element given the session's bind
	 *        callback (the executor's own tests use a stand-in), created under the role's type
	 */
	static Result run(String name, String text, Function<Consumer<Stack>, ElementFactory> modelFactory) {
		Script script;
		try {
			script = Script.parse(name, text);
		} catch (ScriptException e) {
			return new Result(name, false, e.line(), e.problem(), List.of(), List.of(), "");
		}
		Session session = new Session(script);
		Map<String, String> props = new LinkedHashMap<>();
		Map<String, Integer> propLines = new LinkedHashMap<>();
		int firstLine = script.events().get(0).line();
		Role role;
		try {
			options(script, session);
			directives(text, props, propLines);
			if (script.initCommand().isPresent()) {
				shell(script.initCommand().get(), props, propLines);
			}
			for (Event e : script.events()) {
				if (!(e instanceof ShellEvent s)) {
					break;
				}
				shell(s.command(), props, propLines);
				session.appliedShellLines.add(s.line());
			}
			role = role(script);
		} catch (Peer.Fail f) {
			return new Result(name, false, f.line, f.getMessage(), List.of(), List.of(), "");
		}
		String pipeline = pipeline(name, role, props);
		Function<Consumer<Stack>, ElementFactory> factory = modelFactory != null ? modelFactory
				: role == Role.SENDER ? PacketdrillAdapter::tcp
						: bind -> PacketdrillAdapter.host(bind, PacketdrillAdapter.flowBase(PEER));
		Standalone sim = Standalone.builder().element(new Peer.Factory(session)).element(factory.apply(session::bind))
				.build();
		RunOptionsDTO options = new RunOptionsDTO();
		options.seed = 1L;
		SimulationRun run;
		try {
			run = sim.prepare(pipeline, options);
		} catch (PipelineException e) {
			int line = firstLine;
			for (Map.Entry<String, Integer> p : propLines.entrySet()) {
				if (e.getMessage().contains("'" + p.getKey() + "'")) {
					line = p.getValue();
					break;
				}
			}
			return new Result(name, false, line, "the model refuses its configuration: " + e.getMessage(),
					session.trace(), session.notes(), pipeline);
		}
		session.run = run;
		RunResultDTO result = run.run();
		Peer.Fail f = session.failure();
		if (f != null) {
			return new Result(name, false, f.line, f.getMessage(), session.trace(), session.notes(), pipeline);
		}
		if (!session.finished() || "FAILED".equals(result.state)) {
			return new Result(name, false, firstLine, "the run ended (" + result.state + (result.error == null ? ""
					: ": " + result.error) + ") before the script did", session.trace(), session.notes(), pipeline);
		}
		return new Result(name, true, 0, "", session.trace(), session.notes(), pipeline);
	}

	/** The peer's element name (its flow base is the host role's connection flow). */
	static final String PEER = "peer";

	private static String pipeline(String name, Role role, Map<String, String> props) {
		StringBuilder sb = new StringBuilder();
		sb.append("name = \"packetdrill-").append(name.replaceAll("[^A-Za-z0-9_.-]", "_")).append("\"\n");
		// the peer stops the run when the script ends; the duration only bounds a script that never does
		sb.append("duration = 3600s\nseed = 1\n");
		sb.append("element ").append(PEER).append(" : ").append(Peer.Factory.TYPE).append('\n');
		sb.append("element ").append(MODEL).append(" : ").append(role.type).append(" {\n");
		Map<String, String> all = new LinkedHashMap<>();
		if (role == Role.SENDER) {
			all.put("streams", "1");
			all.put("open", "script");
			all.put("app", "writes");
			all.put("gso", "true"); // packetdrill's tun device offers TSO (netdev.c: TUNSETOFFLOAD TUN_F_TSO4 | TUN_F_TSO6)
			all.put("mss", ADVMSS);
			all.put("hz", "1000"); // the kernels packetdrill's gtests are run on: CONFIG_HZ=1000 (their +.027 = 25 ms + 2 jiffies)
		} else {
			all.put("tcpFlows", "1");
			all.put("mss", ADVMSS);
			all.put("hz", "1000");
		}
		all.putAll(props);
		if (role == Role.RECEIVER) {
			// a sender's settings: the host's connections carry no data, so its congestion control has nothing to act on
			// and the host element has no such properties (defaults.sh sets them for every script)
			all.remove("congestion");
			all.remove("hystart");
		}
		all.putIfAbsent("kernel", "current");
		all.forEach((k, v) -> sb.append("    ").append(k).append(" = ").append(v).append('\n'));
		sb.append("}\n");
		sb.append(MODEL).append(".out -> ").append(PEER).append(".in\n");
		sb.append(PEER).append(".out -> ").append(MODEL).append(".in\n");
		return sb.toString();
	}

	/** packetdrill's option lines: the timing and TS settings are taken, the rest refused. */
	private static void options(Script script, Session session) {
		for (OptionLine o : script.options()) {
			String v = o.value().orElse("");
			try {
				switch (o.name()) {
					case "tolerance_usecs" -> session.toleranceUs = Long.parseLong(v);
					case "tolerance_percent" -> session.tolerancePercent = Double.parseDouble(v);
					case "strict_segments" -> session.strictSegments = true;
					case "tcp_ts_tick_usecs" -> session.tsTickUs = Long.parseLong(v);
					case "tcp_ts_ecr_scaled" -> session.tsEcrScaled = true;
					case "tcp_ts_ecr_check" -> session.tsEcrCheck = true;
					case "ip_version" -> {
						if (!v.equals("ipv4")) {
							throw new Peer.Fail(o.line(), "--ip_version=" + v + ": the model is IPv4 only");
						}
					}
					default -> throw new Peer.Fail(o.line(), "--" + o.name() + ": not mapped; mapped are"
							+ " --tolerance_usecs, --tolerance_percent, --strict_segments, --tcp_ts_tick_usecs,"
							+ " --tcp_ts_ecr_scaled, --ip_version=ipv4 and Ringlab's --tcp_ts_ecr_check");
				}
			} catch (NumberFormatException e) {
				throw new Peer.Fail(o.line(), "--" + o.name() + "=" + v + ": not a number");
			}
		}
	}

	private static void directives(String text, Map<String, String> props, Map<String, Integer> lines) {
		String[] all = text.split("\n", -1);
		for (int i = 0; i < all.length; i++) {
			Matcher m = DIRECTIVE.matcher(all[i]);
			if (m.matches()) {
				if (!m.group(1).equals("kernel")) {
					throw new Peer.Fail(i + 1, "ringlab directive " + m.group(1) + ": allowed is kernel");
				}
				props.put("kernel", m.group(2));
				lines.put("kernel", i + 1);
			}
		}
	}

	private static void shell(ShellCommand c, Map<String, String> props, Map<String, Integer> lines) {
		for (ShellCommand.Part part : c.parts()) {
			switch (part) {
				case ShellCommand.Other o -> {
					if (!Sysctls.DEFAULTS_SH_PATHS.contains(o.text())) {
						throw new Peer.Fail(c.line(), "shell command '" + o.text() + "': only sysctl assignments and "
								+ Sysctls.DEFAULTS_SH_PATHS + " are mapped");
					}
					for (Map.Entry<String, String> d : Sysctls.DEFAULTS_SH) {
						apply(c.line(), "net.ipv4." + d.getKey(), d.getValue(), props, lines);
					}
				}
				case ShellCommand.Sysctl s -> {
					for (ShellCommand.Assignment a : s.assignments()) {
						apply(c.line(), a.name(), a.value(), props, lines);
					}
				}
			}
		}
	}

	private static void apply(int line, String name, String value, Map<String, String> props,
			Map<String, Integer> lines) {
		Map<String, String> before = new LinkedHashMap<>(props);
		Optional<String> problem = Sysctls.apply(name, value, props);
		if (problem.isPresent()) {
			throw new Peer.Fail(line, problem.get());
		}
		props.forEach((k, v) -> {
			if (!v.equals(before.get(k))) {
				lines.put(k, line);
			}
		});
	}

	/** The model's role from what the script does; see the class comment. */
	static Role role(Script script) {
		boolean writes = false;
		int dataLine = 0;
		int connectLine = 0;
		for (Event e : script.events()) {
			if (e instanceof SyscallEvent s && List.of("write", "writev", "send", "sendto", "sendmsg").contains(s.name())) {
				writes = true;
			}
			if (e instanceof SyscallEvent s && s.name().equals("connect") && connectLine == 0) {
				connectLine = s.line();
			}
			if (e instanceof PacketEvent p && p.direction() == Event.Direction.INBOUND && p.payloadBytes() > 0
					&& dataLine == 0) {
				dataLine = p.line();
			}
		}
		if (writes && dataLine != 0) {
			throw new Peer.Fail(dataLine, "the script both writes and injects data: the model's tcp element sends,"
					+ " its host element receives, neither does both");
		}
		if (!writes && dataLine != 0) {
			if (connectLine != 0) {
				throw new Peer.Fail(connectLine, "connect(): the receiving model (host) only listens");
			}
			return Role.RECEIVER;
		}
		return Role.SENDER;
	}
}
