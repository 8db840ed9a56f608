package io.ringlab.packetdrill;

/**
 * The time column of one event, as written.
 *
 * <p>{@code 0.100} is {@link Kind#ABSOLUTE} (from the script's start), {@code +.1} is {@link Kind#RELATIVE} (from the
 * previous event, see {@link Script#nominalMicros(int)} for the rule), {@code *} is {@link Kind#ANY} (outbound packets
 * only: any time). {@code 0.1~0.2} and {@code +0~+.02} are ranges ({@link #range()} true, outbound packets only): the
 * event may happen anywhere in {@code [startMicros, endMicros]}, before the tolerance is applied.
 *
 * <p>Seconds become microseconds as packetdrill's parser.y rule {@code time} does it: a FLOAT is
 * {@code (s64)(atof(text) * 1.0e6)} (the double product truncated towards zero, so {@code .000249} is 248 us, exactly as
 * packetdrill reads it), an INTEGER is {@code n * 1000000}.
 *
 * @param kind absolute, relative or any
 * @param startMicros the (first) time written, in microseconds; 0 for {@link Kind#ANY}
 * @param endMicros the end of a range, or {@code startMicros} when {@link #range()} is false
 * @param range whether the column was a {@code ~} range
 */
record Time(Kind kind, long startMicros, long endMicros, boolean range) {

	/** How the time column was written. */
	enum Kind {
		/** {@code 0.100}: microseconds since the script's first event. */
		ABSOLUTE,
		/** {@code +.1}: microseconds after the previous event. */
		RELATIVE,
		/** {@code *}: any time (outbound packets only). */
		ANY
	}

	/** The {@code *} column. */
	static final Time ANY = new Time(Kind.ANY, 0, 0, false);

	Time {
		if (kind == null) {
			throw new IllegalArgumentException("kind=null");
		}
		if (startMicros < 0 || endMicros < startMicros || (!range && endMicros != startMicros)) {
			throw new IllegalArgumentException("startMicros=" + startMicros + ", endMicros=" + endMicros + ", range=" + range);
		}
	}

	static Time absolute(long micros) {
		return new Time(Kind.ABSOLUTE, micros, micros, false);
	}

	static Time relative(long micros) {
		return new Time(Kind.RELATIVE, micros, micros, false);
	}

	static Time absoluteRange(long startMicros, long endMicros) {
		return new Time(Kind.ABSOLUTE, startMicros, endMicros, true);
	}

	static Time relativeRange(long startMicros, long endMicros) {
		return new Time(Kind.RELATIVE, startMicros, endMicros, true);
	}
}
