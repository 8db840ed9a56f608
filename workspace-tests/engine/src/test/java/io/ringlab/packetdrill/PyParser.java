package io.ringlab.packetdrill;

import java.util.ArrayList;
import java.util.List;
import java.util.Set;
import java.util.function.Supplier;

/**
 * Reads the text of one {@code %{ }%} block into {@link Py} statements, refusing any other Python with an error naming
 * its line and column in the script.
 */
final class PyParser {

	private enum Kind {
		NAME, NUMBER, STRING, OP, END_OF_STATEMENT, EOF
	}

	/** {@code offset}: index in the block's text, for keeping an assert's message as written. */
	private record Token(Kind kind, String text, int line, int column, int offset, int endOffset) {
		boolean is(String op) {
			return (kind == Kind.OP || kind == Kind.NAME) && text.equals(op);
		}

		String describe() {
			return switch (kind) {
				case EOF -> "the end of the block";
				case END_OF_STATEMENT -> text.equals(";") ? "';'" : "the end of the line";
				default -> "'" + text + "'";
			};
		}
	}

	private static final Set<String> KEYWORDS = Set.of("and", "or", "not", "assert", "print", "if", "else", "for",
			"while", "def", "import", "lambda", "in", "is", "True", "False", "None");
	private static final List<String> OPERATORS = List.of("==", "!=", "<=", ">=", "+=", "-=", "//", "<", ">", "=", "+",
			"-", "*", "&", "|", "(", ")", ",");
	private static final String ALLOWED = "a %{ }% block holds assert CONDITION[, message], NAME = EXPR, NAME += EXPR,"
			+ " NAME -= EXPR and print(...), one per line or separated by ;";

	private final String file;
	private final String code;
	private final Set<String> variables;
	private final List<Token> tokens = new ArrayList<>();
	private TokenCursor<Token> cursor;

	private PyParser(String file, String code, Set<String> variables) {
		this.file = file;
		this.code = code;
		this.variables = variables;
	}

	/**
	 * @param code the block's text between {@code %{} and {@code }%}
	 * @param line the script line where {@code code} starts
	 * @param column the script column where {@code code} starts
	 * @param variables the names assigned by earlier blocks; this block's assignments are added
	 */
	static List<Py.Statement> parse(String file, String code, int line, int column, Set<String> variables) {
		PyParser parser = new PyParser(file, code, variables);
		parser.lex(line, column);
		parser.cursor = new TokenCursor<>(parser.tokens, t -> t.kind() == Kind.EOF);
		return parser.statements();
	}

	private void lex(int startLine, int startColumn) {
		int line = startLine;
		int column = startColumn;
		int depth = 0;
		int i = 0;
		while (i < code.length()) {
			char c = code.charAt(i);
			int length;
			Kind kind;
			if (c == '\n') {
				if (depth == 0) {
					tokens.add(new Token(Kind.END_OF_STATEMENT, "\n", line, column, i, i + 1));
				}
				i++;
				line++;
				column = 1;
				continue;
			} else if (c == ' ' || c == '\t' || c == '\r') {
				i++;
				column++;
				continue;
			} else if (c == '#') {
				while (i < code.length() && code.charAt(i) != '\n') {
					i++;
					column++;
				}
				continue;
			} else if (c == '\\' && i + 1 < code.length() && code.charAt(i + 1) == '\n') {
				i += 2;
				line++;
				column = 1;
				continue;
			} else if (c == ';') {
				kind = Kind.END_OF_STATEMENT;
				length = 1;
			} else if (Character.isDigit(c)) {
				kind = Kind.NUMBER;
				length = 1;
				while (i + length < code.length() && Character.isLetterOrDigit(code.charAt(i + length))) {
					length++;
				}
			} else if (Character.isLetter(c) || c == '_') {
				kind = Kind.NAME;
				length = 1;
				while (i + length < code.length()
						&& (Character.isLetterOrDigit(code.charAt(i + length)) || code.charAt(i + length) == '_')) {
					length++;
				}
			} else if (c == '\'' || c == '"') {
				kind = Kind.STRING;
				int end = code.indexOf(c, i + 1);
				if (end < 0) {
					throw new ScriptException(file, line, column, "found " + c + " without its closing " + c + "; " + ALLOWED);
				}
				length = end + 1 - i;
			} else {
				kind = Kind.OP;
				length = 1;
				for (String op : OPERATORS) {
					if (code.startsWith(op, i)) {
						length = op.length();
						break;
					}
				}
				if (c == '(') {
					depth++;
				} else if (c == ')') {
					depth = Math.max(0, depth - 1);
				}
			}
			tokens.add(new Token(kind, code.substring(i, i + length), line, column, i, i + length));
			i += length;
			column += length;
		}
		tokens.add(new Token(Kind.EOF, "", line, column, code.length(), code.length()));
	}

	private List<Py.Statement> statements() {
		List<Py.Statement> out = new ArrayList<>();
		while (true) {
			while (peek().kind() == Kind.END_OF_STATEMENT) {
				take();
			}
			Token t = peek();
			if (t.kind() == Kind.EOF) {
				return out;
			}
			out.add(statement());
			Token end = peek();
			if (end.kind() != Kind.END_OF_STATEMENT && end.kind() != Kind.EOF) {
				throw error(end, "expected the end of the statement (a new line or ;); " + ALLOWED);
			}
		}
	}

	private Py.Statement statement() {
		Token t = take();
		if (t.is("assert") && t.kind() == Kind.NAME) {
			Py.Expr condition = orTest();
			String message = "";
			if (peek().is(",")) {
				Token comma = take();
				int end = comma.endOffset();
				while (peek().kind() != Kind.END_OF_STATEMENT && peek().kind() != Kind.EOF) {
					end = take().endOffset();
				}
				message = code.substring(comma.endOffset(), end).strip();
			}
			return new Py.Assert(t.line(), t.column(), condition, message);
		}
		if (t.kind() == Kind.NAME && t.text().equals("print") && peek().is("(")) {
			Token open = take();
			int depth = 1;
			Token last = open;
			while (depth > 0) {
				last = take();
				if (last.kind() == Kind.EOF) {
					throw error(last, "print( without its closing ); " + ALLOWED);
				}
				depth += last.is("(") ? 1 : last.is(")") ? -1 : 0;
			}
			return new Py.Print(t.line(), t.column(), code.substring(open.endOffset(), last.offset()).strip());
		}
		if (t.kind() == Kind.NAME && !KEYWORDS.contains(t.text())
				&& (peek().is("=") || peek().is("+=") || peek().is("-="))) {
			Token op = take();
			if (t.text().startsWith("tcpi_") || Py.CONSTANTS.contains(t.text())) {
				throw error(t, "'" + t.text() + "' is a tcp_info field or a predefined constant and cannot be assigned");
			}
			if (!op.text().equals("=") && !variables.contains(t.text())) {
				throw error(t, "'" + t.text() + "' is not assigned before " + op.text() + "; assign it first: "
						+ t.text() + " = N");
			}
			Py.Expr value = orTest();
			variables.add(t.text());
			return new Py.Assign(t.line(), t.column(), t.text(), op.text(), value);
		}
		throw error(t, "unsupported Python; " + ALLOWED);
	}

	private Py.Expr orTest() {
		return leftAssociative(this::andTest, "or");
	}

	private Py.Expr andTest() {
		return leftAssociative(this::notTest, "and");
	}

	private Py.Expr notTest() {
		if (peek().is("not") && peek().kind() == Kind.NAME) {
			take();
			return new Py.Unary("not", notTest());
		}
		return comparison();
	}

	private static final Set<String> COMPARISONS = Set.of("==", "!=", "<", "<=", ">", ">=");

	private Py.Expr comparison() {
		Py.Expr first = bitOr();
		if (!(peek().kind() == Kind.OP && COMPARISONS.contains(peek().text()))) {
			return first;
		}
		List<Py.Expr> operands = new ArrayList<>(List.of(first));
		List<String> operators = new ArrayList<>();
		while (peek().kind() == Kind.OP && COMPARISONS.contains(peek().text())) {
			operators.add(take().text());
			operands.add(bitOr());
		}
		return new Py.Compare(operands, operators);
	}

	private Py.Expr bitOr() {
		return leftAssociative(this::bitAnd, "|");
	}

	private Py.Expr bitAnd() {
		return leftAssociative(this::arith, "&");
	}

	private Py.Expr arith() {
		return leftAssociative(this::term, "+", "-");
	}

	private Py.Expr term() {
		return leftAssociative(this::factor, "*", "//");
	}

	/** {@code operand (op operand)*} for one precedence level, grouped to the left as Python does. */
	private Py.Expr leftAssociative(Supplier<Py.Expr> operand, String... operators) {
		Py.Expr left = operand.get();
		while (List.of(operators).contains(peek().text()) && (peek().kind() == Kind.OP || peek().kind() == Kind.NAME)) {
			left = new Py.Binary(take().text(), left, operand.get());
		}
		return left;
	}

	private Py.Expr factor() {
		if (peek().is("-") && peek().kind() == Kind.OP) {
			take();
			return new Py.Unary("-", factor());
		}
		return atom();
	}

	private Py.Expr atom() {
		Token t = take();
		if (t.kind() == Kind.NUMBER) {
			try {
				if (t.text().startsWith("0x") || t.text().startsWith("0X")) {
					return new Py.Num(Long.parseLong(t.text().substring(2), 16));
				}
				return new Py.Num(Long.parseLong(t.text()));
			} catch (NumberFormatException e) {
				throw error(t, "expected an integer (decimal or 0x hexadecimal, 63 bits at most)");
			}
		}
		if (t.kind() == Kind.NAME && !KEYWORDS.contains(t.text())) {
			String name = t.text();
			if (name.startsWith("tcpi_") || Py.CONSTANTS.contains(name) || variables.contains(name)) {
				return new Py.Name(name);
			}
			throw error(t, "unknown name '" + name + "'; a name is a tcpi_ field, a constant (TCP_CA_Open, TCP_ESTABLISHED,"
					+ " TCPI_OPT_SACK, ...) or a variable assigned earlier");
		}
		if (t.is("(") && t.kind() == Kind.OP) {
			Py.Expr inner = orTest();
			Token close = take();
			if (!close.is(")")) {
				throw error(close, "expected ')' closing the '(' at " + t.line() + ":" + t.column());
			}
			return inner;
		}
		throw error(t, "expected a value: an integer, a tcpi_ field, a constant, a variable assigned earlier or"
				+ " ( expression ); " + ALLOWED);
	}

	private Token peek() {
		return cursor.peek();
	}

	private Token take() {
		return cursor.take();
	}

	private ScriptException error(Token t, String allowed) {
		return new ScriptException(file, t.line(), t.column(), "found " + t.describe() + " in a %{ }% block; " + allowed);
	}
}
