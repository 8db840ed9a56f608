package io.ringlab.experiment;

import java.util.ArrayList;
import java.util.EnumSet;
import java.util.HashMap;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Set;

import io.ringlab.pipeline.format.Lexer;
import io.ringlab.pipeline.format.Problems;
import io.ringlab.pipeline.format.Syntax;
import io.ringlab.pipeline.format.Token;
import io.ringlab.pipeline.format.Token.Kind;

/**
 * Recursive-descent parser of the experiment file's syntax (grammar in {@code docs/experiments.md}), on the pipeline
 * format's {@link Lexer}. It checks what needs no pipeline and no element types: the statements, the keys, names, that
 * nothing is given twice, that lists are closed. {@link ExperimentReader} checks the rest. It reports a problem and
 * recovers at the next statement (at the top level) or the next statement of a variant block, so one read reports as
 * many problems as it can.
 * <p>
 * Not thread-safe: one parser reads one text once.
 */
final class ExperimentParser {

    static final String NAME = "name";
    static final String DESCRIPTION = "description";
    static final String PIPELINE = "pipeline";
    static final String DURATION = "duration";
    static final String WARMUP = "warmup";
    static final String SEEDS = "seeds";
    static final String METRICS = "metrics";
    /** The keys, in the order the documentation lists them. */
    static final List<String> KEYS = List.of(NAME, DESCRIPTION, PIPELINE, DURATION, WARMUP, SEEDS, METRICS);
    /** The keys whose value may be a {@code [ ... ]} list. */
    private static final Set<String> LIST_KEYS = Set.of(SEEDS, METRICS);

    private static final String STATEMENTS = "KEY = VALUE, set ELEMENT.PROPERTY = VALUE, type ELEMENT = TYPE or "
            + "variant NAME { ... }";
    private static final String VARIANT_STATEMENTS = "set ELEMENT.PROPERTY = VALUE, type ELEMENT = TYPE or "
            + "swap = \"AT:ELEMENT[=TYPE[@VERSION]]\"";
    private static final Set<Kind> TOP_ENDS = EnumSet.of(Kind.NEWLINE, Kind.SEMI, Kind.EOF);
    private static final Set<Kind> BLOCK_ENDS = EnumSet.of(Kind.NEWLINE, Kind.SEMI, Kind.COMMA, Kind.RBRACE, Kind.EOF);

    /** Thrown after a syntax problem has been reported, to unwind to the nearest recovery point. */
    private static final class Skip extends RuntimeException {
        private static final long serialVersionUID = 1L;

        Skip() {
            super(null, null, false, false);
        }
    }

    private static final Skip SKIP = new Skip();

    /**
     * A key with its value: one value, or the items of a {@code [ ... ]} list.
     *
     * @param key the key's token
     * @param value the value, or {@code null} for a list
     * @param open the list's {@code [}, or {@code null} for one value
     * @param items the list's items in order; empty for one value
     */
    record Header(Token key, Token value, Token open, List<Token> items) {
        boolean isList() {
            return open != null;
        }
    }

    /**
     * {@code set ELEMENT.PROPERTY = VALUE}.
     *
     * @param target the {@code ELEMENT.PROPERTY} token
     * @param element the element's name (valid)
     * @param property the property's name (valid)
     * @param value the value as written
     */
    record Setting(Token target, String element, String property, Token value) {
        /** @return the setting in the {@code --set} grammar, {@code ELEMENT.PROPERTY=VALUE}, quoted as written */
        String override() {
            return element + "." + property + "=" + (value.kind() == Kind.STRING ? Syntax.quote(value.text()) : value.text());
        }
    }

    /**
     * {@code type ELEMENT = TYPE}.
     *
     * @param element the element's token (a valid name)
     * @param type the type id's token (a valid id)
     */
    record Retype(Token element, Token type) {
    }

    /** A variant block's statements, in file order. */
    static final class Variant {
        final Token name;
        final List<Setting> sets = new ArrayList<>();
        final List<Retype> types = new ArrayList<>();
        /** The values of the {@code swap = ...} statements. */
        final List<Token> swaps = new ArrayList<>();

        Variant(Token name) {
            this.name = name;
        }
    }

    /** What a file says, with the tokens for messages. Complete only if no problem was reported. */
    static final class Parsed {
        /** Key to its value; only known keys, each once. */
        final Map<String, Header> headers = new LinkedHashMap<>();
        /** {@code set} statements outside variant blocks: they apply to every variant, before its own. */
        final List<Setting> sets = new ArrayList<>();
        /** {@code type} statements outside variant blocks: they apply to every variant, before its own. */
        final List<Retype> types = new ArrayList<>();
        /** The variants in file order, each name once. */
        final List<Variant> variants = new ArrayList<>();
    }

    private final Problems problems;
    private final Lexer lexer;
    private final Parsed parsed = new Parsed();
    private final Map<String, Token> keys = new HashMap<>();
    private final Map<String, Token> variantNames = new HashMap<>();

    /**
     * @param text the file's text; must not be {@code null}
     * @param problems where problems go; must not be {@code null}
     */
    ExperimentParser(String text, Problems problems) {
        this.problems = problems;
        this.lexer = new Lexer(text, problems);
    }

    /** @return what the text says; complete only if no problem was reported */
    Parsed parse() {
        while (true) {
            Token t = lexer.peek(0);
            if (t.kind() == Kind.EOF) {
                return parsed;
            }
            if (t.kind() == Kind.NEWLINE || t.kind() == Kind.SEMI) {
                lexer.next();
                continue;
            }
            try {
                statement();
            } catch (Skip s) {
                lexer.skipStatement();
            }
        }
    }

    private void statement() {
        Token first = lexer.peek(0);
        if (first.kind() != Kind.WORD) {
            throw error(first, "expected a statement (" + STATEMENTS + "), found " + first.describe());
        }
        Token second = lexer.peek(1);
        if (second.kind() == Kind.EQUALS) {
            header();
        } else if (first.text().equals("variant")) {
            variant();
        } else if (first.text().equals("set")) {
            add(parsed.sets, set(TOP_ENDS));
        } else if (first.text().equals("type")) {
            add(parsed.types, retype(TOP_ENDS));
        } else {
            throw error(first, "unknown statement '" + first.text() + "': expected " + STATEMENTS);
        }
    }

    // KEY = VALUE | KEY = [ VALUE, ... ]
    private void header() {
        Token key = lexer.next();
        lexer.next(); // '=', seen by statement()
        String k = key.text();
        Header h = lexer.peek(0).kind() == Kind.LBRACKET ? list(key)
                : new Header(key, requireValue("'" + k + " ='"), null, List.of());
        expectEnd(TOP_ENDS, "a new line or ';' after the value of '" + k + "'", h.value());
        if (!KEYS.contains(k)) {
            problems.add(key, "unknown key '" + k + "': allowed keys are " + Syntax.list(KEYS) + " (other statements: "
                    + STATEMENTS + ")");
            return;
        }
        if (h.isList() && !LIST_KEYS.contains(k)) {
            problems.add(h.open(), "'" + k + "' takes one value, not a list");
            return;
        }
        Token first = keys.putIfAbsent(k, key);
        if (first != null) {
            problems.add(key, "key '" + k + "' is set twice: " + Problems.twice(first, key));
            return;
        }
        parsed.headers.put(k, h);
    }

    // '[' [ NEWLINE ] VALUE { [ NEWLINE ] ',' [ NEWLINE ] VALUE } [ ',' ] [ NEWLINE ] ']'
    private Header list(Token key) {
        Token open = lexer.next();
        String where = "the list of '" + key.text() + "' opened at line " + open.line() + " column " + open.column();
        List<Token> items = new ArrayList<>();
        while (true) {
            skipLineBreaks();
            if (lexer.peek(0).kind() == Kind.RBRACKET) {
                lexer.next();
                return new Header(key, null, open, items);
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
            consume(k);
            if (after == Kind.COMMA) {
                lexer.next();
            }
        }
    }

    // variant NAME [ { ... } ]
    private void variant() {
        lexer.next();
        Token name = lexer.peek(0);
        if (name.kind() != Kind.WORD) {
            throw error(name, "expected a variant name after 'variant', found " + name.describe());
        }
        lexer.next();
        Variant v = new Variant(name);
        if (!Syntax.ELEMENT_NAME.matcher(name.text()).matches()) {
            problems.add(name, "variant name '" + name.text() + "' is not valid: variant " + Syntax.ELEMENT_NAME_RULE);
        } else {
            Token first = variantNames.putIfAbsent(name.text(), name);
            if (first != null) {
                problems.add(name, "variant '" + name.text() + "' is declared twice: " + Problems.twice(first, name));
            } else {
                parsed.variants.add(v);
            }
        }
        int k = 0;
        while (lexer.peek(k).kind() == Kind.NEWLINE) {
            k++; // the block may open on a later line
        }
        if (lexer.peek(k).kind() != Kind.LBRACE) {
            expectEnd(TOP_ENDS, "'{', a new line or ';' after 'variant " + name.text() + "'");
            return;
        }
        consume(k);
        Token open = lexer.next();
        while (true) {
            Token t = lexer.peek(0);
            switch (t.kind()) {
                case NEWLINE, SEMI, COMMA -> lexer.next();
                case RBRACE -> {
                    lexer.next();
                    expectEnd(TOP_ENDS, "a new line or ';' after the block of variant '" + name.text() + "'");
                    return;
                }
                case EOF -> {
                    problems.add(t, "expected '}' to close the block of variant '" + name.text() + "' opened at line "
                            + open.line() + ", found end of file");
                    return;
                }
                default -> {
                    try {
                        variantStatement(v);
                    } catch (Skip s) {
                        lexer.skipUntil(BLOCK_ENDS);
                    }
                }
            }
        }
    }

    private void variantStatement(Variant v) {
        Token first = lexer.peek(0);
        String w = first.kind() == Kind.WORD ? first.text() : "";
        switch (w) {
            case "set" -> add(v.sets, set(BLOCK_ENDS));
            case "type" -> add(v.types, retype(BLOCK_ENDS));
            case "swap" -> {
                lexer.next();
                expect(Kind.EQUALS, "'=' after 'swap'");
                Token value = requireValue("'swap ='");
                expectEnd(BLOCK_ENDS, endsText(BLOCK_ENDS) + " after the value of 'swap'", value);
                v.swaps.add(value);
            }
            default -> throw error(first, (w.isEmpty() ? "expected a statement (" + VARIANT_STATEMENTS + ") or '}'"
                    : "unknown statement '" + w + "': expected " + VARIANT_STATEMENTS) + " in variant '"
                    + v.name.text() + "'" + (w.isEmpty() ? ", found " + first.describe() : ""));
        }
    }

    // set ELEMENT.PROPERTY = VALUE
    private Setting set(Set<Kind> ends) {
        lexer.next();
        Token target = expect(Kind.WORD, "ELEMENT.PROPERTY after 'set'");
        String w = target.text();
        expect(Kind.EQUALS, "'=' after 'set " + w + "'");
        Token value = requireValue("'set " + w + " ='");
        expectEnd(ends, endsText(ends) + " after the value of 'set " + w + "'", value);
        int dot = w.indexOf('.');
        if (dot < 0) {
            problems.add(target, "'" + w + "' is not ELEMENT.PROPERTY: write the element's name, '.', and the property's"
                    + " name, as in eth0.bql");
            return null;
        }
        String element = w.substring(0, dot);
        String property = w.substring(dot + 1);
        boolean valid = validElement(target, element);
        if (!Syntax.PROPERTY_NAME.matcher(property).matches()) {
            problems.add(target.line(), target.column() + dot + 1, "property name '" + property + "' of 'set " + w
                    + "' is not valid: " + Syntax.PROPERTY_NAME_RULE);
            valid = false;
        }
        return valid ? new Setting(target, element, property, value) : null;
    }

    // type ELEMENT = TYPE
    private Retype retype(Set<Kind> ends) {
        lexer.next();
        Token element = expect(Kind.WORD, "an element name after 'type'");
        expect(Kind.EQUALS, "'=' after 'type " + element.text() + "'");
        Token type = expect(Kind.WORD, "an element type id after 'type " + element.text() + " ='");
        expectEnd(ends, endsText(ends) + " after 'type " + element.text() + " = " + type.text() + "'");
        boolean valid = validElement(element, element.text());
        if (!Syntax.TYPE_ID.matcher(type.text()).matches()) {
            problems.add(type, "element type '" + type.text() + "' is not valid: " + Syntax.TYPE_ID_RULE);
            valid = false;
        }
        return valid ? new Retype(element, type) : null;
    }

    private boolean validElement(Token at, String name) {
        if (Syntax.ELEMENT_NAME.matcher(name).matches()) {
            return true;
        }
        problems.add(at, "element name '" + name + "' is not valid: " + Syntax.ELEMENT_NAME_RULE);
        return false;
    }

    private static <T> void add(List<T> list, T item) {
        if (item != null) {
            list.add(item);
        }
    }

    /** Consumes a token of the given kind, or reports what was found instead. */
    private Token expect(Kind kind, String expected) {
        Token t = lexer.peek(0);
        if (t.kind() != kind) {
            throw error(t, "expected " + expected + ", found " + t.describe());
        }
        return lexer.next();
    }

    private Token requireValue(String after) {
        Token v = lexer.value();
        if (v == null) {
            Token t = lexer.peek(0);
            throw error(t, "expected a value after " + after + ", found " + t.describe());
        }
        return v;
    }

    private void expectEnd(Set<Kind> ends, String expected) {
        expectEnd(ends, expected, null);
    }

    /**
     * Checks that a statement ends here; consumes a line break, {@code ;} or {@code ,}, leaves <code>}</code>.
     *
     * @param value the bare value that ended the statement, for a hint about quoting; {@code null} for none
     */
    private void expectEnd(Set<Kind> ends, String expected, Token value) {
        Token t = lexer.peek(0);
        if (!ends.contains(t.kind())) {
            throw error(t, "expected " + expected + ", found " + t.describe()
                    + (value != null && value.kind() == Kind.BARE ? " (quote a value that contains spaces)" : ""));
        }
        if (t.kind() != Kind.EOF && t.kind() != Kind.RBRACE) {
            lexer.next();
        }
    }

    private static String endsText(Set<Kind> ends) {
        return ends == BLOCK_ENDS ? "',', ';', a new line or '}'" : "a new line or ';'";
    }

    private void skipLineBreaks() {
        while (lexer.peek(0).kind() == Kind.NEWLINE) {
            lexer.next();
        }
    }

    private void consume(int tokens) {
        for (int i = 0; i < tokens; i++) {
            lexer.next();
        }
    }

    private Skip error(Token at, String message) {
        problems.add(at, message);
        return SKIP;
    }
}
