package io.ringlab.pipeline.format;

import java.util.ArrayList;
import java.util.List;
import java.util.Set;

import io.ringlab.pipeline.format.Token.Kind;

/**
 * Splits a file of Ringlab's text family (pipeline files, experiment files) into tokens, tracking the line and column of
 * each. Structure is read with {@link #peek(int)} and {@link #next()}; where a value is expected the parser switches to
 * {@link #value()} (or {@link #listItem()} inside {@code [ ... ]}), because a bare value may contain characters
 * ({@code = : . -> "}) that separate tokens elsewhere.
 * <p>
 * Structural tokens: words (names, keys, type ids, {@code NAME.PORT}), quoted strings, {@code = { } [ ] , ; : ->}, line
 * breaks and the end of the text; blank space and {@code #} comments are skipped. The lexical rules are those of
 * {@code docs/pipeline-format.md}, "Grammar".
 * <p>
 * Lexical problems (an unterminated string, an unknown escape) go to the {@link Problems} given at construction.
 * <p>
 * Not thread-safe: one lexer reads one text on one thread.
 *
 * @since 1.2
 */
public final class Lexer {

    private final String text;
    private final Problems problems;
    /** Tokens peeked but not yet consumed; they were lexed in structural mode. */
    private final List<Token> lookahead = new ArrayList<>();
    private int pos;
    private int line = 1;
    private int column = 1;

    /**
     * Creates a lexer at the start of the text.
     *
     * @param text the file's text; must not be {@code null}
     * @param problems where lexical problems go; must not be {@code null}
     */
    public Lexer(String text, Problems problems) {
        this.text = text;
        this.problems = problems;
        if (!text.isEmpty() && text.charAt(0) == '\uFEFF') {
            pos = 1; // a byte order mark is not part of the first line's columns
        }
    }

    /**
     * Looks ahead without consuming.
     *
     * @param k how many tokens to look past, from 0
     * @return the k-th structural token from here, without consuming it
     */
    public Token peek(int k) {
        while (lookahead.size() <= k) {
            lookahead.add(scan());
        }
        return lookahead.get(k);
    }

    /**
     * Consumes a structural token.
     *
     * @return the next structural token; {@link Kind#EOF} repeats at the end
     */
    public Token next() {
        Token t = peek(0);
        lookahead.remove(0);
        return t;
    }

    /**
     * Reads a value: a quoted string or a bare token running until blank space, a line break, {@code ,}, {@code ;},
     * <code>}</code> or {@code #}.
     *
     * @return the value token ({@link Kind#STRING} or {@link Kind#BARE}), consumed; or {@code null} if no value starts
     *         here, in which case nothing is consumed and {@link #peek(int)} shows what is there instead
     */
    public Token value() {
        return value(false);
    }

    /**
     * Reads one item of a {@code [ ... ]} list: a value as {@link #value()} reads it, except that a bare value also ends
     * at {@code ]}.
     *
     * @return the item ({@link Kind#STRING} or {@link Kind#BARE}), consumed; or {@code null} if no value starts here
     *         (nothing consumed)
     */
    public Token listItem() {
        return value(true);
    }

    private Token value(boolean inList) {
        if (!lookahead.isEmpty()) {
            // rewind: the peeked tokens were lexed with the structural rules
            Token first = lookahead.get(0);
            pos = first.offset();
            line = first.line();
            column = first.column();
            lookahead.clear();
        }
        skipBlanksAndComment();
        if (pos >= text.length()) {
            return null;
        }
        char c = text.charAt(pos);
        if (c == '"') {
            return string();
        }
        if (endsValue(c, inList)) {
            return null;
        }
        int start = pos;
        int startColumn = column;
        while (pos < text.length() && !endsValue(text.charAt(pos), inList)) {
            advance();
        }
        return new Token(Kind.BARE, text.substring(start, pos), line, startColumn, start);
    }

    /**
     * Recovers after a problem at the top level: skips to the end of the statement (a line break or {@code ;} outside
     * braces), consuming it.
     */
    public void skipStatement() {
        int depth = 0;
        while (true) {
            Token t = peek(0);
            if (t.kind() == Kind.EOF) {
                return;
            }
            next();
            if (depth == 0 && (t.kind() == Kind.NEWLINE || t.kind() == Kind.SEMI)) {
                return;
            }
            if (t.kind() == Kind.LBRACE) {
                depth++;
            } else if (t.kind() == Kind.RBRACE && depth > 0) {
                depth--;
            }
        }
    }

    /**
     * Recovers after a problem inside a block: skips to the next token of one of the given kinds outside braces, without
     * consuming it.
     *
     * @param stops the kinds to stop at, for example a line break, {@code ;} and <code>}</code>; must not be {@code null}
     */
    public void skipUntil(Set<Kind> stops) {
        int depth = 0;
        while (true) {
            Token t = peek(0);
            if (t.kind() == Kind.EOF || depth == 0 && stops.contains(t.kind())) {
                return;
            }
            next();
            if (t.kind() == Kind.LBRACE) {
                depth++;
            } else if (t.kind() == Kind.RBRACE) {
                depth--;
            }
        }
    }

    private static boolean endsValue(char c, boolean inList) {
        return Syntax.endsBareValue(c) || inList && c == ']';
    }

    private Token scan() {
        skipBlanksAndComment();
        if (pos >= text.length()) {
            return new Token(Kind.EOF, "", line, column, pos);
        }
        char c = text.charAt(pos);
        int start = pos;
        int startLine = line;
        int startColumn = column;
        if (Syntax.isLineBreak(c)) {
            pos++;
            if (c == '\r' && pos < text.length() && text.charAt(pos) == '\n') {
                pos++;
            }
            line++;
            column = 1;
            return new Token(Kind.NEWLINE, "\n", startLine, startColumn, start);
        }
        Kind symbol = switch (c) {
            case '=' -> Kind.EQUALS;
            case '{' -> Kind.LBRACE;
            case '}' -> Kind.RBRACE;
            case ',' -> Kind.COMMA;
            case ';' -> Kind.SEMI;
            case ':' -> Kind.COLON;
            case '[' -> Kind.LBRACKET;
            case ']' -> Kind.RBRACKET;
            default -> null;
        };
        if (symbol != null) {
            advance();
            return new Token(symbol, String.valueOf(c), startLine, startColumn, start);
        }
        if (isArrow(pos)) {
            advance();
            advance();
            return new Token(Kind.ARROW, "->", startLine, startColumn, start);
        }
        if (c == '"') {
            return string();
        }
        while (pos < text.length() && !endsWord(pos)) {
            advance();
        }
        return new Token(Kind.WORD, text.substring(start, pos), startLine, startColumn, start);
    }

    private boolean endsWord(int i) {
        char c = text.charAt(i);
        return Syntax.isBlank(c) || Syntax.isLineBreak(c) || "={}[],;:#\"".indexOf(c) >= 0 || isArrow(i);
    }

    private boolean isArrow(int i) {
        return text.charAt(i) == '-' && i + 1 < text.length() && text.charAt(i + 1) == '>';
    }

    /** Reads a quoted string starting at the current {@code "}; reports an unterminated string or a bad escape. */
    private Token string() {
        int start = pos;
        int startColumn = column;
        advance();
        StringBuilder sb = new StringBuilder();
        while (true) {
            if (pos >= text.length() || Syntax.isLineBreak(text.charAt(pos))) {
                problems.add(line, startColumn, "unterminated string: expected '\"' before the end of the "
                        + (pos >= text.length() ? "file" : "line"));
                break;
            }
            char c = text.charAt(pos);
            if (c == '"') {
                advance();
                break;
            }
            if (c == '\\' && pos + 1 < text.length() && !Syntax.isLineBreak(text.charAt(pos + 1))) {
                char e = text.charAt(pos + 1);
                int u = Syntax.unescape(e);
                if (u < 0) {
                    problems.add(line, column, "unknown escape '\\" + e + "' in a string: use " + Syntax.ESCAPES);
                    sb.append(e);
                } else {
                    sb.append((char) u);
                }
                advance();
                advance();
                continue;
            }
            sb.append(c);
            advance();
        }
        return new Token(Kind.STRING, sb.toString(), line, startColumn, start);
    }

    private void skipBlanksAndComment() {
        while (pos < text.length() && Syntax.isBlank(text.charAt(pos))) {
            advance();
        }
        if (pos < text.length() && text.charAt(pos) == '#') {
            while (pos < text.length() && !Syntax.isLineBreak(text.charAt(pos))) {
                advance();
            }
        }
    }

    /** Moves one character along a line (never over a line break). */
    private void advance() {
        pos++;
        column++;
    }
}
