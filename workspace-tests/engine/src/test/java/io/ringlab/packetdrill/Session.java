package io.ringlab.packetdrill;

import io.ringlab.packetdrill.Event.ShellEvent;
import io.ringlab.sim.api.SimulationRun;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.Set;

/**
 * What one script's run shares between the {@link Executor} (on the test's thread, before and after the run) and the
 * {@link Peer} and the model's adapter (on the engine thread, during it): the script, packetdrill's settings, the
 * model's socket, the file descriptors, the outcome and a trace of what happened.
 */
final class Session {

	/** Appended to "nothing came" messages: where to look. */
	static final String STATE_HINT = "";

	final Script script;
	/** packetdrill's --tolerance_usecs (config.c default 4000) and --tolerance_percent (12.5). */
	long toleranceUs = 4000;
	double tolerancePercent = 12.5;
	/** --strict_segments: one live segment per script segment (no aggregation). */
	boolean strictSegments;
	/** --tcp_ts_tick_usecs (default 0: TS val not checked). */
	long tsTickUs;
	/** --tcp_ts_ecr_scaled: an inbound ecr that names no outbound TS val is interpolated. */
	boolean tsEcrScaled;
	/** Ringlab's --tcp_ts_ecr_check: the model's TS ecr must equal the script's (packetdrill does not check it). */
	boolean tsEcrCheck;
	/** Timed shell events folded into the configuration (they come before the connection does anything). */
	final Set<Integer> appliedShellLines = new java.util.HashSet<>();
	/** File descriptors the script has opened: fd to what it is. */
	final Map<Long, String> fds = new HashMap<>();

	private Stack stack;
	Peer peer;
	volatile SimulationRun run;
	private Peer.Fail failure;
	private boolean finished;
	private final List<String> trace = new ArrayList<>();
	private final List<String> notes = new ArrayList<>();

	Session(Script script) {
		this.script = script;
	}

	/** Called by the adapter when the model's element is created. */
	void bind(Stack s) {
		this.stack = s;
	}

	Stack stack() {
		if (stack == null) {
			throw new IllegalStateException("the model's element was not created through the adapter's factory");
		}
		return stack;
	}

	void trace(String format, Object... args) {
		trace.add(String.format(java.util.Locale.ROOT, format, args));
	}

	void note(String text) {
		notes.add(text);
	}

	List<String> trace() {
		return trace;
	}

	List<String> notes() {
		return notes;
	}

	/** The script ended ({@code f} null) or failed; the run stops after the current event. */
	void done(Peer.Fail f) {
		failure = f;
		finished = true;
		SimulationRun r = run;
		if (r != null) {
			r.stop();
		}
	}

	boolean finished() {
		return finished;
	}

	Peer.Fail failure() {
		return failure;
	}

	/** A timed shell command at its time: only those folded into the configuration before the run are allowed. */
	void timedShell(ShellEvent s) {
		if (!appliedShellLines.contains(s.line())) {
			throw new Peer.Fail(s.line(), "a shell command after the connection has started ("
					+ s.command().text().strip() + "): the model's properties are fixed when the run starts");
		}
	}
}
