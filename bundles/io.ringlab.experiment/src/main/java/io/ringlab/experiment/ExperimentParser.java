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

    private static final String STATEMENTS = "KEY = VALUE, set ELEMENT.PROPERTY = VALUE, type ELEMENT = TYPE, "
            + "sweep TARGET = VALUES or variant NAME { ... }";
    /** The forms of a sweep's values, for messages. */
    static final String SWEEP_FORMS = "a list ([64, 128, 256]), a range with a step (64..1024 *2 or 100Mbit..1Gbit"
            + " +100Mbit), or for several targets a list of tuples ([(100Mbit, 100Mbit), (1Gbit, 1Gbit)])";
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

    /**
     * {@code sweep TARGET = VALUES} or {@code sweep (TARGET, ...) = [(VALUE, ...), ...]}.
     *
     * @param keyword the {@code sweep} token, where the statement is
     * @param targets each target's token, its text {@code ELEMENT.PROPERTY} or {@code ELEMENT} (parentheses removed)
     * @param tuples the values of a list, one list of tokens per value (one token each for a plain sweep); empty for a
     *        range
     * @param range a range's tokens ({@code LOW..HIGH} and the step, as written), {@code null} for a list
     */
    record Sweep(Token keyword, List<Token> targets, List<List<Token>> tuples, List<Token> range) {
        /** @return the targets as written, for messages: {@code eth0.txRing} or {@code (wire.rate, rwire.rate)} */
        String written() {
            List<String> t = new ArrayList<>();
            targets.forEach(x -> t.add(x.text()));
            return targets.size() == 1 ? t.get(0) : "(" + String.join(", ", t) + ")";
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
        /** The sweeps in file order. */
        final List<Sweep> sweeps = new ArrayList<>();
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
        } else if (first.text().equals("sweep")) {
            add(parsed.sweeps, sweep());
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

    // sweep TARGET = [V, ...] | sweep TARGET = LOW..HIGH STEP | sweep (TARGET, ...) = [(V, ...), ...]
    private Sweep sweep() {
        Token keyword = lexer.next();
        List<Token> targets = new ArrayList<>();
        Token t = expect(Kind.WORD, "a target after 'sweep': ELEMENT.PROPERTY, ELEMENT (its type), or (TARGET, ...)"
                + " for targets that move together");
        boolean zipped = t.text().startsWith("(");
        if (!zipped) {
            targets.add(t);
        } else {
            while (true) {
                String w = t.text();
                int skip = w.startsWith("(") && targets.isEmpty() ? 1 : 0;
                boolean last = w.endsWith(")");
                String name = w.substring(skip, last ? w.length() - 1 : w.length());
                if (!name.isEmpty()) {
                    targets.add(new Token(Kind.WORD, name, t.line(), t.column() + skip, t.offset() + skip));
                }
                if (last) {
                    break;
                }
                Token n = lexer.peek(0);
                if (n.kind() == Kind.COMMA) {
                    lexer.next();
                    n = lexer.peek(0);
                }
                if (n.kind() != Kind.WORD) {
                    throw error(n, "expected a target or ')' in 'sweep (...)', found " + n.describe());
                }
                t = lexer.next();
            }
            if (targets.isEmpty()) {
                throw error(t, "'sweep ()' names no target: write sweep (ELEMENT.PROPERTY, ...) = [(VALUE, ...), ...]");
            }
        }
        boolean valid = true;
        for (Token target : targets) {
            valid &= validTarget(target);
        }
        String written = new Sweep(keyword, targets, List.of(), null).written();
        expect(Kind.EQUALS, "'=' after 'sweep " + written + "'");
        List<List<Token>> tuples = new ArrayList<>();
        List<Token> range = null;
        if (lexer.peek(0).kind() == Kind.LBRACKET) {
            Token open = lexer.peek(0);
            List<Token> items = list("sweep " + written);
            if (items.isEmpty()) {
                problems.add(open, "sweep " + written + ": the list is empty; give at least one value");
                valid = false;
            }
            if (zipped) {
                valid &= tuples(items, targets.size(), written, tuples);
            } else {
                items.forEach(i -> tuples.add(List.of(i)));
            }
            expectEnd(TOP_ENDS, "a new line or ';' after the list of 'sweep " + written + "'");
        } else {
            range = new ArrayList<>();
            range.add(requireValue("'sweep " + written + " ='"));
            for (Token v = lexer.value(); v != null; v = lexer.value()) {
                range.add(v);
            }
            expectEnd(TOP_ENDS, "a new line or ';' after the range of 'sweep " + written + "'");
            if (zipped) {
                problems.add(range.get(0), "sweep " + written + ": targets that move together take a list of tuples,"
                        + " as in [(100Mbit, 100Mbit), (1Gbit, 1Gbit)], not a range");
                valid = false;
            }
        }
        return valid ? new Sweep(keyword, targets, tuples, range) : null;
    }

    /** Groups a zipped sweep's list items, {@code (a}, {@code b)}, into tuples of {@code arity} values. */
    private boolean tuples(List<Token> items, int arity, String written, List<List<Token>> tuples) {
        List<Token> open = null;
        for (Token item : items) {
            String w = item.text();
            Token value = item;
            if (open == null) {
                if (!w.startsWith("(")) {
                    problems.add(item, "sweep " + written + ": expected a tuple such as (100Mbit, 100Mbit), found '" + w
                            + "' (write the values of one point in parentheses, without a space after '(')");
                    return false;
                }
                open = new ArrayList<>();
                value = new Token(item.kind(), w.substring(1), item.line(), item.column() + 1, item.offset() + 1);
                w = value.text();
            }
            boolean closes = w.endsWith(")");
            if (closes) {
                value = new Token(value.kind(), w.substring(0, w.length() - 1), value.line(), value.column(), value.offset());
            }
            if (value.text().isEmpty() || value.text().contains("(") || value.text().contains(")")) {
                problems.add(item, "sweep " + written + ": '" + item.text() + "' is not a value of a tuple; write (V1, V2, ...)");
                return false;
            }
            open.add(value);
            if (closes) {
                if (open.size() != arity) {
                    problems.add(open.get(0), "sweep " + written + ": this tuple has " + open.size() + " value"
                            + (open.size() == 1 ? "" : "s") + " for " + arity + " targets");
                    return false;
                }
                tuples.add(List.copyOf(open));
                open = null;
            }
        }
        if (open != null) {
            problems.add(open.get(0), "sweep " + written + ": the tuple that starts here is not closed with ')'");
            return false;
        }
        return true;
    }

    /** A sweep target: {@code ELEMENT.PROPERTY} (a property) or {@code ELEMENT} (the element's type). */
    private boolean validTarget(Token target) {
        String w = target.text();
        int dot = w.indexOf('.');
        if (dot < 0) {
            return validElement(target, w);
        }
        boolean valid = validElement(target, w.substring(0, dot));
        if (!Syntax.PROPERTY_NAME.matcher(w.substring(dot + 1)).matches()) {
            problems.add(target.line(), target.column() + dot + 1, "property name '" + w.substring(dot + 1) + "' of 'sweep "
                    + w + "' is not valid: " + Syntax.PROPERTY_NAME_RULE);
            valid = false;
        }
        return valid;
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
