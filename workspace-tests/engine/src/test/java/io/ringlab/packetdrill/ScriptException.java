package io.ringlab.packetdrill;

/**
 * A packetdrill script that cannot be read: its message is {@code file:line:column: what was found, what is allowed}.
 * Unchecked, so that the records' compact constructors and the executor can throw it without wrapping; a test that
 * reads a script lets it fail the test with that message.
 */
final class ScriptException extends RuntimeException {

	private static final long serialVersionUID = 1L;

	private final String file;
	private final int line;
	private final int column;
	private final String problem;

	/**
	 * @param file the script's name as given to {@link Script#parse(String, String)} (never {@code null})
	 * @param line 1-based line of the offending construct
	 * @param column 1-based column of the offending construct
	 * @param problem what was found and what is allowed there
	 */
	ScriptException(String file, int line, int column, String problem) {
		super(file + ":" + line + ":" + column + ": " + problem);
		this.file = file;
		this.line = line;
		this.column = column;
		this.problem = problem;
	}

	String file() {
		return file;
	}

	int line() {
		return line;
	}

	int column() {
		return column;
	}

	/** The message without its {@code file:line:column: } prefix. */
	String problem() {
		return problem;
	}
}
