package io.ringlab.pipeline.format;

import java.util.ArrayList;
import java.util.List;
import java.util.Set;

import org.osgi.annotation.versioning.ConsumerType;

import io.ringlab.pipeline.format.Token.Kind;

/**
 * The recovery model shared by the recursive-descent parsers of the text family (pipeline files, experiment files): a
 * parser reports a problem where it finds it, then unwinds with the exception {@link #error} returns to the nearest
 * recovery point, the next statement at the top level ({@link #readStatements}) or the next item of a block
 * ({@link #recover}), and goes on reading, so that one read reports as many problems as it can.
 * <p>
 * A subclass implements {@link #statement(Token)} and calls {@link #readStatements(String)} once.
 * <p>
 * Not thread-safe: one parser reads one text once.
 *
 * @since 1.2
 */
@ConsumerType
public abstract class TextParser {

    /** Thrown after a problem has been reported, to unwind to the nearest recovery point. */
    private static final class Skip extends RuntimeException {
        private static final long serialVersionUID = 1L;

        Skip() {
            super(null, null, false, false);
        }
    }

    private static final Skip SKIP = new Skip();

    /** Where problems go. */
    protected final Problems problems;
    /** The text's tokens. */
    protected final Lexer lexer;

    /**
     * @param text the text to read; must not be {@code null}
     * @param problems where problems go, lexical ones included; must not be {@code null}
     */
    protected TextParser(String text, Problems problems) {
        this.problems = problems;
        this.lexer = new Lexer(text, problems);
    }

    /**
     * Reads statements to the end of the text. Line breaks and {@code ;} separate them; a statement starts with a word,
     * which {@link #statement(Token)} gets (not yet consumed); after a problem, reading resumes after the next line
     * break or {@code ;} outside braces.
     *
     * @param statements the statements there may be, for the message when something else starts one, for example
     *        {@code "KEY = VALUE, element NAME : TYPE, A -> B or layout { ... }"}
     */
    protected final void readStatements(String statements) {
        while (true) {
            Token t = lexer.peek(0);
            if (t.kind() == Kind.EOF) {
                return;
            }
            if (t.kind() == Kind.NEWLINE || t.kind() == Kind.SEMI) {
                lexer.next();
                continue;
            }
            try {
                if (t.kind() != Kind.WORD) {
                    throw error(t, "expected a statement (" + statements + "), found " + t.describe());
                }
                statement(t);
            } catch (Skip s) {
                lexer.skipStatement();
            }
        }
    }

    /**
     * Reads one statement, up to and including the line break or {@code ;} that ends it.
     *
     * @param first the statement's first token, a word, still at {@code lexer.peek(0)}
     */
    protected abstract void statement(Token first);

    /**
     * Reads one item of a block (a property, an entry); after a problem, skips to the next token of one of the given
     * kinds outside braces, without consuming it.
     *
     * @param item reads the item, throwing what {@link #error} returns on a problem; must not be {@code null}
     * @param stops the kinds that end an item; must not be {@code null}
     */
    protected final void recover(Runnable item, Set<Kind> stops) {
        try {
            item.run();
        } catch (Skip s) {
            lexer.skipUntil(stops);
        }
    }

    /**
     * Reports a problem at a token and gives the exception that unwinds to the nearest recovery point.
     *
     * @param at where the problem is; must not be {@code null}
     * @param message what was found and what was expected; must not be {@code null}
     * @return the exception to throw: {@code throw error(at, "...")}
     */
    protected final RuntimeException error(Token at, String message) {
        problems.add(at, message);
        return SKIP;
    }

    /**
     * Reads a {@code [ ... ]} list whose {@code [} is at {@code lexer.peek(0)}, up to and including its {@code ]}:
     * <pre>
     * '[' [ NEWLINE ] VALUE { [ NEWLINE ] ',' [ NEWLINE ] VALUE } [ ',' ] [ NEWLINE ] ']'
     * </pre>
     * Items are read with {@link Lexer#listItem()}; line breaks may stand after {@code [} and {@code ,} and before
     * {@code ,} and {@code ]}; any other line break ends the statement, so a list left open is reported where its line
     * ends. On a problem, reports it and unwinds.
     *
     * @param key the key the list is the value of, for messages, for example {@code "metrics"}
     * @return the items in order; empty for {@code []}
     * @since 1.3
     */
    protected final List<Token> list(String key) {
        Token open = lexer.next();
        String where = "the list of '" + key + "' opened at line " + open.line() + " column " + open.column();
        List<Token> items = new ArrayList<>();
        while (true) {
            while (lexer.peek(0).kind() == Kind.NEWLINE) {
                lexer.next();
            }
            if (lexer.peek(0).kind() == Kind.RBRACKET) {
                lexer.next();
                return items;
            }
            Token item = lexer.listItem();
            if (item == null) {
                Token t = lexer.peek(0);
                throw error(t, "expected a value or ']' in " + where + ", found " + t.describe());
            }
            items.add(item);
            // line breaks may stand before ',' or ']'; otherwise a line break ends the statement: the list is unclosed
            int k = 0;
            while (lexer.peek(k).kind() == Kind.NEWLINE) {
                k++;
            }
            Kind after = lexer.peek(k).kind();
            if (after != Kind.COMMA && after != Kind.RBRACKET) {
                Token t = lexer.peek(0);
                throw error(t, "expected ',' or ']' after '" + item.text() + "' in " + where + ", found " + t.describe());
            }
            for (int i = 0; i < k; i++) {
                lexer.next();
            }
            if (after == Kind.COMMA) {
                lexer.next();
            }
        }
    }

    /**
     * Reads a value ({@link Lexer#value()}), or reports that none is here and unwinds.
     *
     * @param after what the value follows, for the message, for example {@code "'limit ='"}
     * @return the value; never {@code null}
     */
    protected final Token requireValue(String after) {
        Token v = lexer.value();
        if (v == null) {
            Token t = lexer.peek(0);
            throw error(t, "expected a value after " + after + ", found " + t.describe());
        }
        return v;
    }
}
