package io.ringlab.pipeline.format;

/**
 * One token of a pipeline or experiment file with the position of its first character ({@link Lexer}).
 *
 * @param kind what the token is; never {@code null}
 * @param text for {@link Kind#WORD} and {@link Kind#BARE} the characters as written, for {@link Kind#STRING} the text
 *        between the quotes with escapes resolved, otherwise the symbol; never {@code null}
 * @param line line, from 1
 * @param column column, from 1, counted in UTF-16 chars (a tab counts 1)
 * @param offset index of the first character in the file text
 * @since 1.2
 */
public record Token(Kind kind, String text, int line, int column, int offset) {

    /** Token kinds. */
    public enum Kind {
        /** A run of name characters: a key, a name, a type id or {@code NAME.PORT}. */
        WORD,
        /** A quoted string. */
        STRING,
        /** A bare value (read only where a value is expected). */
        BARE,
        /** {@code =}. */
        EQUALS,
        /** <code>{</code>. */
        LBRACE,
        /** <code>}</code>. */
        RBRACE,
        /** {@code ,}. */
        COMMA,
        /** {@code ;}. */
        SEMI,
        /** {@code :}. */
        COLON,
        /** {@code [}. */
        LBRACKET,
        /** {@code ]}. */
        RBRACKET,
        /** {@code ->}. */
        ARROW,
        /** A line break. */
        NEWLINE,
        /** The end of the text. */
        EOF
    }

    /** @return the token as a message names it after "found", for example {@code '}'} or {@code end of line} */
    public String describe() {
        return switch (kind) {
            case NEWLINE -> "end of line";
            case EOF -> "end of file";
            case STRING -> "string " + Syntax.quote(text);
            default -> "'" + text + "'";
        };
    }

    /** @return whether this token ends a statement at the top level */
    public boolean endsStatement() {
        return kind == Kind.NEWLINE || kind == Kind.SEMI || kind == Kind.EOF;
    }
}
