package io.ringlab.packetdrill;

import java.util.ArrayList;
import java.util.List;
import java.util.regex.Matcher;
import java.util.regex.Pattern;

/**
 * Cuts a script into tokens the way packetdrill's lexer.l does: comments ({@code //} to the end of the line,
 * {@code /* *}{@code /}) and blanks are dropped; {@code %{ }%} is one CODE token, {@code `...`} one BACK_QUOTED,
 * {@code "..."} one STRING, {@code ...} an ELLIPSIS, {@code --name[=value]} an OPTION; among FLOAT
 * ({@code -?[0-9]*.[0-9]+}), INTEGER ({@code -?[0-9]+}), HEX ({@code 0x[0-9a-fA-F]+}), WORD ({@code [a-zA-Z0-9_]+}) and
 * IPV4 the longest match wins and a tie goes to the one listed first (flex's rule, in lexer.l's order); any other
 * character is a PUNCT token of its own. packetdrill's keywords ({@code ack}, {@code win}, {@code mss}, ...) are WORDs
 * here, recognised by the parser where they may appear. IPv6 addresses are not lexed (they are only used in headers and
 * options this reader refuses).
 */
final class Lexer {

	enum Kind {
		INTEGER, HEX, FLOAT, WORD, IPV4, STRING, BACK_QUOTED, CODE, OPTION, ELLIPSIS, PUNCT, EOF
	}

	/**
	 * @param text the characters as written
	 * @param value a STRING's or BACK_QUOTED's content, a CODE's inner text (delimiters dropped, not stripped), an
	 *        OPTION's value after {@code =} ({@code null} for none) and {@link #text} otherwise
	 */
	record Token(Kind kind, String text, String value, int line, int column) {
		boolean is(char punct) {
			return kind == Kind.PUNCT && text.charAt(0) == punct;
		}

		boolean isWord(String word) {
			return kind == Kind.WORD && text.equals(word);
		}

		/** How an error message names this token. */
		String describe() {
			return switch (kind) {
				case EOF -> "the end of the script";
				case CODE -> "a %{ }% block";
				case BACK_QUOTED -> "a `shell command`";
				case STRING -> "string \"" + value + "\"";
				case OPTION -> "option --" + text;
				default -> "'" + text + "'";
			};
		}
	}

	private static final Pattern FLOAT = Pattern.compile("-?[0-9]*\\.[0-9]+");
	private static final Pattern INTEGER = Pattern.compile("-?[0-9]+");
	private static final Pattern HEX = Pattern.compile("0x[0-9a-fA-F]+");
	private static final Pattern WORD = Pattern.compile("[a-zA-Z0-9_]+");
	private static final Pattern IPV4 = Pattern.compile("[0-9]+\\.[0-9]+\\.[0-9]+\\.[0-9]+");
	/** In lexer.l's order, which breaks ties between matches of the same length. */
	private static final Pattern[] ALTERNATIVES = { FLOAT, INTEGER, HEX, WORD, IPV4 };
	private static final Kind[] ALTERNATIVE_KINDS = { Kind.FLOAT, Kind.INTEGER, Kind.HEX, Kind.WORD, Kind.IPV4 };

	private final String file;
	private final String text;
	private int pos;
	private int line = 1;
	private int column = 1;

	private Lexer(String file, String text) {
		this.file = file;
		this.text = text;
	}

	/** All tokens of {@code text}, ending with one EOF token. */
	static List<Token> tokens(String file, String text) {
		return new Lexer(file, text).run();
	}

	private List<Token> run() {
		List<Token> out = new ArrayList<>();
		Matcher matcher = WORD.matcher(text);
		while (true) {
			skipBlanksAndComments();
			if (pos >= text.length()) {
				out.add(new Token(Kind.EOF, "", "", line, column));
				return out;
			}
			int startLine = line;
			int startColumn = column;
			char c = text.charAt(pos);
			if (text.startsWith("%{", pos)) {
				int end = text.indexOf("}%", pos + 2);
				if (end < 0) {
					throw new ScriptException(file, startLine, startColumn,
							"found '%{' without its closing '}%'; a code block is %{ python }%");
				}
				out.add(take(Kind.CODE, end + 2 - pos, text.substring(pos + 2, end), startLine, startColumn));
			} else if (c == '"' || c == '`') {
				int end = closing(c);
				if (end < 0) {
					throw new ScriptException(file, startLine, startColumn, "found " + c + " without its closing " + c
							+ (c == '"' ? "; a string is \"text\"" : "; a shell command is `command`"));
				}
				out.add(take(c == '"' ? Kind.STRING : Kind.BACK_QUOTED, end + 1 - pos, text.substring(pos + 1, end),
						startLine, startColumn));
			} else if (text.startsWith("...", pos)) {
				out.add(take(Kind.ELLIPSIS, 3, "...", startLine, startColumn));
			} else if (text.startsWith("--", pos) && pos + 2 < text.length() && isWordChar(text.charAt(pos + 2))) {
				out.add(option(startLine, startColumn));
			} else {
				int bestLength = 0;
				Kind bestKind = null;
				for (int i = 0; i < ALTERNATIVES.length; i++) {
					matcher.usePattern(ALTERNATIVES[i]).region(pos, text.length());
					if (matcher.lookingAt() && matcher.end() - pos > bestLength) {
						bestLength = matcher.end() - pos;
						bestKind = ALTERNATIVE_KINDS[i];
					}
				}
				if (bestKind != null) {
					out.add(take(bestKind, bestLength, text.substring(pos, pos + bestLength), startLine, startColumn));
				} else {
					out.add(take(Kind.PUNCT, 1, String.valueOf(c), startLine, startColumn));
				}
			}
		}
	}

	private Token option(int startLine, int startColumn) {
		int end = pos + 2;
		while (end < text.length() && isWordChar(text.charAt(end))) {
			end++;
		}
		String name = text.substring(pos + 2, end);
		String value = null;
		if (end < text.length() && text.charAt(end) == '=') {
			int valueEnd = end + 1;
			boolean quoted = false;
			while (valueEnd < text.length() && (quoted || !Character.isWhitespace(text.charAt(valueEnd)))) {
				if (text.charAt(valueEnd) == '"') {
					quoted = !quoted;
				}
				valueEnd++;
			}
			value = text.substring(end + 1, valueEnd);
			end = valueEnd;
		}
		return take(Kind.OPTION, end - pos, name, value, startLine, startColumn);
	}

	private Token take(Kind kind, int length, String value, int startLine, int startColumn) {
		return take(kind, length, text.substring(pos, pos + length), value, startLine, startColumn);
	}

	private Token take(Kind kind, int length, String shownText, String value, int startLine, int startColumn) {
		advance(length);
		return new Token(kind, shownText, value, startLine, startColumn);
	}

	/** The index of the closing delimiter of a quoted token at {@link #pos}; a backslash escapes the next character. */
	private int closing(char delimiter) {
		for (int i = pos + 1; i < text.length(); i++) {
			char c = text.charAt(i);
			if (c == '\\') {
				i++;
			} else if (c == delimiter) {
				return i;
			}
		}
		return -1;
	}

	private void skipBlanksAndComments() {
		while (pos < text.length()) {
			char c = text.charAt(pos);
			if (c == ' ' || c == '\t' || c == '\n' || c == '\r') {
				advance(1);
			} else if (text.startsWith("//", pos)) {
				int end = text.indexOf('\n', pos);
				advance((end < 0 ? text.length() : end) - pos);
			} else if (text.startsWith("/*", pos)) {
				int end = text.indexOf("*/", pos + 2);
				if (end < 0) {
					throw new ScriptException(file, line, column, "found '/*' without its closing '*/'; a comment is /* text */");
				}
				advance(end + 2 - pos);
			} else {
				return;
			}
		}
	}

	private void advance(int length) {
		for (int i = 0; i < length; i++) {
			if (text.charAt(pos++) == '\n') {
				line++;
				column = 1;
			} else {
				column++;
			}
		}
	}

	private static boolean isWordChar(char c) {
		return (c >= 'a' && c <= 'z') || (c >= 'A' && c <= 'Z') || (c >= '0' && c <= '9') || c == '_';
	}
}
