package io.ringlab.experiment;

import java.util.ArrayList;
import java.util.EnumMap;
import java.util.EnumSet;
import java.util.HashMap;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.Set;

import io.ringlab.pipeline.format.Problems;
import io.ringlab.pipeline.format.Syntax;
import io.ringlab.pipeline.format.TextParser;
import io.ringlab.pipeline.format.Token;
import io.ringlab.pipeline.format.Token.Kind;

/**
 * Recursive-descent parser of the experiment file's syntax (grammar in {@code docs/experiments.md}), on the pipeline
 * format's lexer and recovery model ({@link TextParser}). It checks what needs no pipeline and no element types: the
 * statements, the keys, names, that nothing is given twice, that lists are closed. {@link ExperimentReader} checks the
 * rest. It reports a problem and recovers at the next statement (at the top level) or the next statement of a variant
 * block, so one read reports as many problems as it can.
 * <p>
 * Not thread-safe: one parser reads one text once.
 */
final class ExperimentParser extends TextParser {

    /** The keys, in the order the documentation lists them. */
    enum Key {
        NAME, DESCRIPTION, PIPELINE, DURATION, WARMUP, FORK, SEEDS(true), METRICS(true);

        /** The key as written. */
        final String word = name().toLowerCase(Locale.ROOT);
        /** Whether the value may be a {@code [ ... ]} list. */
        final boolean list;

        Key() {
            this(false);
        }

        Key(boolean list) {
            this.list = list;
        }

        /** @return the key written {@code word}, or {@code null} */
        static Key of(String word) {
            for (Key k : values()) {
                if (k.word.equals(word)) {
                    return k;
                }
            }
            return null;
        }

        /** @return every key as written, for messages */
        static List<String> words() {
            List<String> words = new ArrayList<>();
            for (Key k : values()) {
                words.add(k.word);
            }
            return words;
        }
    }

    private static final String STATEMENTS = "KEY = VALUE, set ELEMENT.PROPERTY = VALUE, type ELEMENT = TYPE or "
            + "variant NAME { ... }";
    private static final String VARIANT_STATEMENTS = "set ELEMENT.PROPERTY = VALUE, type ELEMENT = TYPE or "
            + "swap = \"AT:ELEMENT[=TYPE[@VERSION]]\"";
    private static final Set<Kind> TOP_ENDS = EnumSet.of(Kind.NEWLINE, Kind.SEMI, Kind.EOF);
    private static final Set<Kind> BLOCK_ENDS = EnumSet.of(Kind.NEWLINE, Kind.SEMI, Kind.COMMA, Kind.RBRACE, Kind.EOF);

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
        final Map<Key, Header> headers = new EnumMap<>(Key.class);
        /** {@code set} statements outside variant blocks: they apply to every variant, before its own. */
        final List<Setting> sets = new ArrayList<>();
        /** {@code type} statements outside variant blocks: they apply to every variant, before its own. */
        final List<Retype> types = new ArrayList<>();
        /** The variants in file order, each name once. */
        final List<Variant> variants = new ArrayList<>();
    }

    private final Parsed parsed = new Parsed();
    private final Map<String, Token> variantNames = new HashMap<>();

    /**
     * @param text the file's text; must not be {@code null}
     * @param problems where problems go; must not be {@code null}
     */
    ExperimentParser(String text, Problems problems) {
        super(text, problems);
    }

    /** @return what the text says; complete only if no problem was reported */
    Parsed parse() {
        readStatements(STATEMENTS);
        return parsed;
    }

    @Override
    protected void statement(Token first) {
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
        String w = key.text();
        Header h = lexer.peek(0).kind() == Kind.LBRACKET ? list(key)
                : new Header(key, requireValue("'" + w + " ='"), null, List.of());
        expectEnd(TOP_ENDS, "a new line or ';' after the value of '" + w + "'", h.value());
        Key k = Key.of(w);
        if (k == null) {
            problems.add(key, "unknown key '" + w + "': allowed keys are " + Syntax.list(Key.words())
                    + " (other statements: " + STATEMENTS + ")");
            return;
        }
        if (h.isList() && !k.list) {
            problems.add(h.open(), "'" + w + "' takes one value, not a list");
            return;
        }
        Header first = parsed.headers.putIfAbsent(k, h);
        if (first != null) {
            problems.add(key, "key '" + w + "' is set twice: " + Problems.twice(first.key(), key));
        }
    }

    // KEY = [ VALUE, ... ]: the text family's list (TextParser.list)
    private Header list(Token key) {
        Token open = lexer.peek(0);
        return new Header(key, null, open, list(key.text()));
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
                default -> recover(() -> variantStatement(v), BLOCK_ENDS);
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

    private void consume(int tokens) {
        for (int i = 0; i < tokens; i++) {
            lexer.next();
        }
    }
}
