package io.ringlab.packetdrill;

import java.util.ArrayList;
import java.util.List;

/**
 * A back-quoted shell command ({@code `../common/defaults.sh`}, {@code `sysctl -q net.ipv4.tcp_sack=0`}): its text and
 * the text cut into parts at newlines and {@code ;} (outside quotes). A part that is only {@code sysctl [-q] [-w]
 * name=value ...} is a {@link Sysctl} with its assignments; every other part is {@link Other}, kept as text for the
 * executor to map (a known script such as defaults.sh) or refuse.
 *
 * @param line 1-based line of the opening back quote
 * @param column 1-based column of the opening back quote
 * @param text the text between the back quotes
 */
record ShellCommand(int line, int column, String text, List<Part> parts) {

	ShellCommand {
		parts = List.copyOf(parts);
	}

	/** One command of the text. */
	sealed interface Part permits Sysctl, Other {
	}

	/** {@code sysctl -q net.ipv4.tcp_rmem="4096 540000 15728640" net.ipv4.tcp_sack=1}. */
	record Sysctl(List<Assignment> assignments) implements Part {
		Sysctl {
			assignments = List.copyOf(assignments);
		}
	}

	/**
	 * One {@code name=value} of a sysctl command.
	 *
	 * @param name {@code net.ipv4.tcp_sack} (a {@code /} separated name is kept as written)
	 * @param value the value with shell quotes removed; {@code $((...))} arithmetic is kept unevaluated
	 */
	record Assignment(String name, String value) {
	}

	/** Any other command, trimmed. */
	record Other(String text) implements Part {
	}

	/** Cuts {@code text} into parts; see the class comment. */
	static ShellCommand of(int line, int column, String text) {
		List<Part> parts = new ArrayList<>();
		for (String command : split(text)) {
			String trimmed = command.strip();
			if (!trimmed.isEmpty()) {
				parts.add(classify(trimmed));
			}
		}
		return new ShellCommand(line, column, text, parts);
	}

	/** Splits at newlines and {@code ;} outside quotes; a backslash-newline continues the command. */
	private static List<String> split(String text) {
		List<String> out = new ArrayList<>();
		StringBuilder current = new StringBuilder();
		char quote = 0;
		for (int i = 0; i < text.length(); i++) {
			char c = text.charAt(i);
			if (quote != 0) {
				current.append(c);
				if (c == quote) {
					quote = 0;
				}
			} else if (c == '\\' && i + 1 < text.length() && text.charAt(i + 1) == '\n') {
				current.append(' ');
				i++;
			} else if (c == '\n' || c == ';') {
				out.add(current.toString());
				current.setLength(0);
			} else {
				if (c == '"' || c == '\'') {
					quote = c;
				}
				current.append(c);
			}
		}
		out.add(current.toString());
		return out;
	}

	private static Part classify(String command) {
		List<String> words = words(command);
		if (words == null || words.isEmpty() || !words.get(0).equals("sysctl")) {
			return new Other(command);
		}
		List<Assignment> assignments = new ArrayList<>();
		for (String word : words.subList(1, words.size())) {
			if (word.equals("-q") || word.equals("-w")) {
				continue;
			}
			int eq = word.indexOf('=');
			if (eq <= 0) {
				return new Other(command);
			}
			assignments.add(new Assignment(word.substring(0, eq), word.substring(eq + 1)));
		}
		return assignments.isEmpty() ? new Other(command) : new Sysctl(assignments);
	}

	/**
	 * Shell words with quotes removed; {@code null} when the command holds a redirection, pipe, background or
	 * command substitution outside quotes (then it is not a plain sysctl).
	 */
	private static List<String> words(String command) {
		List<String> words = new ArrayList<>();
		StringBuilder word = new StringBuilder();
		boolean inWord = false;
		char quote = 0;
		for (int i = 0; i < command.length(); i++) {
			char c = command.charAt(i);
			if (quote != 0) {
				if (c == quote) {
					quote = 0;
				} else {
					word.append(c);
				}
			} else if (c == '"' || c == '\'') {
				quote = c;
				inWord = true;
			} else if (Character.isWhitespace(c)) {
				if (inWord) {
					words.add(word.toString());
					word.setLength(0);
					inWord = false;
				}
			} else if ("|&<>`(){}".indexOf(c) >= 0 || (c == '$' && i + 1 < command.length() && command.charAt(i + 1) == '(')) {
				return null;
			} else {
				word.append(c);
				inWord = true;
			}
		}
		if (quote != 0) {
			return null;
		}
		if (inWord) {
			words.add(word.toString());
		}
		return words;
	}
}
