package io.ringlab.packetdrill;

import io.ringlab.packetdrill.Event.Direction;
import io.ringlab.packetdrill.Event.PacketEvent;
import java.io.IOException;
import java.io.UncheckedIOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;
import java.util.Optional;

/**
 * A packetdrill script read into an immutable model: its {@code --options}, its untimed init and cleanup shell
 * commands and its timed events in order. The grammar subset is described in this folder's README.md; anything outside
 * it is a {@link ScriptException} naming file, line and column, never a skipped line.
 *
 * <p>Not thread-safe to build (the parser is single-threaded); the result is immutable and may be shared.
 */
final class Script {

	private final String name;
	private final List<OptionLine> options;
	private final Optional<ShellCommand> initCommand;
	private final List<Event> events;
	private final Optional<ShellCommand> cleanupCommand;
	private final long[] nominalMicros;

	Script(String name, List<OptionLine> options, Optional<ShellCommand> initCommand, List<Event> events,
			Optional<ShellCommand> cleanupCommand) {
		this.name = name;
		this.options = List.copyOf(options);
		this.initCommand = initCommand;
		this.events = List.copyOf(events);
		this.cleanupCommand = cleanupCommand;
		this.nominalMicros = nominal(this.events);
	}

	/** Reads the script file at {@code path} (UTF-8); errors name the file as {@code path.toString()}. */
	static Script read(Path path) {
		try {
			return parse(path.toString(), Files.readString(path, StandardCharsets.UTF_8));
		} catch (IOException e) {
			throw new UncheckedIOException("cannot read packetdrill script " + path, e);
		}
	}

	/**
	 * Reads {@code text}.
	 *
	 * @param name the name errors give as the file
	 * @throws ScriptException for anything outside the supported grammar
	 */
	static Script parse(String name, String text) {
		return Parser.parse(name, text);
	}

	String name() {
		return name;
	}

	List<OptionLine> options() {
		return options;
	}

	/** The back-quoted command before the first event ({@code `../common/defaults.sh`}); empty if none. */
	Optional<ShellCommand> initCommand() {
		return initCommand;
	}

	/** The events in script order; never empty. */
	List<Event> events() {
		return events;
	}

	/** The back-quoted command after the last event; empty if none. */
	Optional<ShellCommand> cleanupCommand() {
		return cleanupCommand;
	}

	/**
	 * The time at which event {@code index} is due, in microseconds from the first event, in a run where every event
	 * happens exactly at its scripted time (range and {@code *} events at the start of their window, i.e. when the
	 * previous one did).
	 *
	 * <p>The rule is packetdrill's run.c {@code adjust_relative_event_times} (google/packetdrill 2c4001c, run.c lines
	 * 326-353; the two offsets at lines 338 and 340): an
	 * absolute time stays as written; a relative (or {@code *}) time is added to an offset, which is the previous
	 * event's adjusted time when both that event and this one are inbound segments ({@code
	 * is_event_start_time_anchored}: consecutive injected segments are anchored to each other's scripted times), and
	 * otherwise the live time at which packetdrill reaches this event, i.e. when the previous event happened (for a
	 * blocking system call: when it started, since run_system_call.c {@code enqueue_system_call} lets the main thread
	 * go on once the call blocks). Here that live time is the previous event's nominal time; an executor uses the time
	 * at which the previous event actually happened instead, so that relative times after an early or late outbound
	 * segment follow it, as in packetdrill.
	 */
	long nominalMicros(int index) {
		return nominalMicros[index];
	}

	/**
	 * The end of event {@code index}'s range or blocking call under the same rule: a range's end, or a blocking
	 * call's {@code ...END} (relative like its start when its start is relative, as in run.c); otherwise equal to
	 * {@link #nominalMicros(int)}.
	 */
	long nominalEndMicros(int index) {
		Event event = events.get(index);
		long offset = nominalMicros[index] - (event.time().kind() == Time.Kind.ANY ? 0 : event.time().startMicros());
		if (event instanceof Event.SyscallEvent call && call.blockingEndMicros().isPresent()) {
			long end = call.blockingEndMicros().getAsLong();
			return event.time().kind() == Time.Kind.RELATIVE ? end + offset : end;
		}
		return event.time().endMicros() + offset;
	}

	private static long[] nominal(List<Event> events) {
		long[] out = new long[events.size()];
		for (int i = 0; i < out.length; i++) {
			Event event = events.get(i);
			Time time = event.time();
			if (time.kind() == Time.Kind.ABSOLUTE) {
				out[i] = time.startMicros();
			} else {
				// both anchoring cases give the previous event's time in a run that keeps to the script
				long offset = i == 0 ? 0 : out[i - 1];
				out[i] = offset + time.startMicros();
			}
		}
		return out;
	}

	/** Whether event {@code e} is an injected segment (run.c's {@code is_event_start_time_anchored}). */
	static boolean isAnchored(Event e) {
		return e instanceof PacketEvent packet && packet.direction() == Direction.INBOUND;
	}
}
