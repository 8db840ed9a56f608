package io.ringlab.pipeline.format;

import java.util.ArrayList;
import java.util.EnumSet;
import java.util.HashMap;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Set;

import io.ringlab.pipeline.format.Token.Kind;
import io.ringlab.sim.api.dto.ConnectionDTO;
import io.ringlab.sim.api.dto.ElementSpecDTO;
import io.ringlab.sim.api.dto.PipelineDTO;
import io.ringlab.sim.api.dto.ValueDTO;

/**
 * Recursive-descent parser of the pipeline format (grammar in {@code docs/pipeline-format.md}). It reports a problem and
 * recovers ({@link TextParser}) at the next statement (at the top level), the next property (in an element block) or
 * the next entry (in the layout block), so one read reports as many problems as it can.
 * <p>
 * Not thread-safe: one parser reads one text once.
 */
final class Parser extends TextParser {

    /** A name to check against the declared elements once the whole file is read. */
    private record Reference(String name, int line, int column, String where) {
    }

    private static final Set<Kind> PROPERTY_ENDS = EnumSet.of(Kind.NEWLINE, Kind.SEMI, Kind.COMMA, Kind.RBRACE, Kind.EOF);
    private static final Set<Kind> LAYOUT_ENTRY_ENDS = EnumSet.of(Kind.NEWLINE, Kind.SEMI, Kind.RBRACE, Kind.EOF);
    private static final String STATEMENTS = "KEY = VALUE, element NAME : TYPE, A -> B or layout { ... }";

    private final String file;
    private final PipelineDTO pipeline = new PipelineDTO();
    /** Declared element name to the token of its first declaration. */
    private final Map<String, Token> elements = new LinkedHashMap<>();
    private final Map<String, Token> headerKeys = new HashMap<>();
    private final Map<String, Token> layoutEntries = new HashMap<>();
    private final List<Reference> references = new ArrayList<>();

    /**
     * Creates a parser for one text.
     *
     * @param file the file name for problems and {@link PipelineDTO#file}; must not be {@code null}
     * @param text the file's text; must not be {@code null}
     * @param problems where problems go; must not be {@code null}
     */
    Parser(String file, String text, Problems problems) {
        super(text, problems);
        this.file = file;
    }

    /**
     * Reads the whole text.
     *
     * @return the pipeline; complete only if no problem was reported
     */
    PipelineDTO parse() {
        pipeline.file = file;
        readStatements(STATEMENTS);
        checkReferences();
        if (pipeline.name == null) {
            pipeline.name = Syntax.baseName(file);
        }
        return pipeline;
    }

    @Override
    protected void statement(Token first) {
        Token second = lexer.peek(1);
        if (second.kind() == Kind.EQUALS) {
            header();
        } else if (second.kind() == Kind.ARROW) {
            connection();
        } else if (first.text().equals("element")) {
            element();
        } else if (first.text().equals("layout")) {
            layout();
        } else if (second.kind() == Kind.WORD || second.kind() == Kind.COLON || second.kind() == Kind.LBRACE) {
            throw error(first, "unknown statement '" + first.text() + "': expected " + STATEMENTS);
        } else {
            throw error(second, "expected '=' or '->' after '" + first.text() + "', found " + second.describe());
        }
    }

    // KEY = VALUE | plot = [ METRIC, ... ]
    private void header() {
        Token key = lexer.next();
        lexer.next(); // '=', seen by statement()
        String k = key.text();
        Token open = lexer.peek(0).kind() == Kind.LBRACKET ? lexer.peek(0) : null;
        List<Token> items = open != null ? list(k) : null;
        Token v = open != null ? null : requireValue("'" + k + " ='");
        expectEndOfStatement("a new line or ';' after the value of '" + k + "'");
        if (!Syntax.HEADER_KEYS.contains(k)) {
            problems.add(key, "unknown header key '" + k + "': allowed keys are " + Syntax.list(Syntax.HEADER_KEYS));
            return;
        }
        if ((open != null) != k.equals(Syntax.PLOT)) {
            problems.add(open != null ? open : v, open != null ? "'" + k + "' takes one value, not a list"
                    : "'" + k + "' takes a list of series, for example plot = [ping.rttMillis, q.backlog]");
            return;
        }
        Token first = headerKeys.putIfAbsent(k, key);
        if (first != null) {
            problems.add(key, "header key '" + k + "' is set twice: " + Problems.twice(first, key));
            return;
        }
        if (items != null) {
            plot(items);
            return;
        }
        ValueDTO value = toValue(v);
        switch (k) {
            case Syntax.NAME -> pipeline.name = v.text();
            case Syntax.DESCRIPTION -> pipeline.description = v.text();
            case Syntax.DURATION -> {
                check(v, () -> Units.parsePicos(v.text()), k);
                pipeline.duration = value;
            }
            case Syntax.SEED -> {
                check(v, () -> Units.parseInteger(v.text()), k);
                pipeline.seed = value;
            }
            case Syntax.PROFILE -> pipeline.profile = value;
            case Syntax.HEADLINE -> {
                if (metric(v, "headline")) {
                    pipeline.headline = value;
                }
            }
            default -> throw new AssertionError(k);
        }
    }

    /** The items of {@code plot = [ ... ]}: metric names, each once. */
    private void plot(List<Token> items) {
        Map<String, Token> seen = new HashMap<>();
        for (Token t : items) {
            Token first = seen.putIfAbsent(t.text(), t);
            if (first != null) {
                problems.add(t, "plot names '" + t.text() + "' twice: " + Problems.twice(first, t));
            } else if (metric(t, "plot")) {
                pipeline.plot.add(toValue(t));
            }
        }
    }

    private void check(Token v, Runnable parse, String key) {
        try {
            parse.run();
        } catch (UnitException e) {
            problems.add(v, key + ": " + e.getMessage());
        }
    }

    /**
     * Checks a metric name's form, {@code ELEMENT.METRIC}, {@code pool:ELEMENT.POOL.METRIC} (an element's pool),
     * {@code cpuN.METRIC} or {@code l3.METRIC}, and notes its element to check once the file is read.
     *
     * @param key the header key it is the value of, for messages
     * @return whether it has one of the forms (if not, reported)
     */
    private boolean metric(Token v, String key) {
        String element = Syntax.metricElement(v.text());
        if (element == null) {
            problems.add(v, key + " '" + v.text() + "' is not " + Syntax.METRIC_FORMS);
            return false;
        }
        if (!element.isEmpty()) {
            references.add(new Reference(element, v.line(), v.column(), key.equals(Syntax.PLOT) ? "the plot list"
                    : "the " + key));
        }
        return true;
    }

    // element NAME : TYPE [ { PROPERTY = VALUE ... } ]
    private void element() {
        Token keyword = lexer.next();
        Token name = lexer.peek(0);
        if (name.kind() != Kind.WORD) {
            throw error(name, "expected an element name after 'element', found " + name.describe());
        }
        lexer.next();
        boolean validName = checkElementName(name, name.text(), "element name");
        Token colon = lexer.peek(0);
        if (colon.kind() != Kind.COLON) {
            throw error(colon, "expected ':' after element name '" + name.text() + "', found " + colon.describe());
        }
        lexer.next();
        Token type = lexer.peek(0);
        if (type.kind() != Kind.WORD) {
            throw error(type, "expected an element type after '" + name.text() + " :', found " + type.describe());
        }
        lexer.next();
        if (!Syntax.TYPE_ID.matcher(type.text()).matches()) {
            problems.add(type, "element type '" + type.text() + "' of '" + name.text() + "' is not valid: "
                    + Syntax.TYPE_ID_RULE);
        }
        ElementSpecDTO e = new ElementSpecDTO();
        e.name = name.text();
        e.type = type.text();
        e.line = keyword.line();
        e.column = keyword.column();
        // an invalid name is reported above and not declared, so that messages list only names that can be used
        Token first = validName ? elements.putIfAbsent(e.name, name) : null;
        if (first != null) {
            problems.add(name, "element '" + e.name + "' is declared twice: " + Problems.twice(first, name));
        } else {
            pipeline.elements.add(e);
        }
        int k = 0;
        while (lexer.peek(k).kind() == Kind.NEWLINE) {
            k++; // the block may open on a later line
        }
        if (lexer.peek(k).kind() == Kind.LBRACE) {
            for (int i = 0; i < k; i++) {
                lexer.next();
            }
            block(e, lexer.next());
            expectEndOfStatement("a new line or ';' after the block of element '" + e.name + "'");
        } else {
            expectEndOfStatement("'{', a new line or ';' after '" + e.name + " : " + e.type + "'");
        }
    }

    private void block(ElementSpecDTO e, Token open) {
        Map<String, Token> names = new HashMap<>();
        while (true) {
            Token t = lexer.peek(0);
            switch (t.kind()) {
                case NEWLINE, SEMI, COMMA -> lexer.next();
                case RBRACE -> {
                    lexer.next();
                    return;
                }
                case EOF -> {
                    problems.add(t, "expected '}' to close the block of element '" + e.name + "' opened at line "
                            + open.line() + ", found end of file");
                    return;
                }
                case WORD -> recover(() -> property(e, names), PROPERTY_ENDS);
                default -> {
                    problems.add(t, "expected a property name or '}' in element '" + e.name + "', found "
                            + t.describe());
                    lexer.skipUntil(PROPERTY_ENDS);
                }
            }
        }
    }

    private void property(ElementSpecDTO e, Map<String, Token> names) {
        Token name = lexer.next();
        String n = name.text();
        if (!Syntax.PROPERTY_NAME.matcher(n).matches()) {
            problems.add(name, "property name '" + n + "' is not valid: " + Syntax.PROPERTY_NAME_RULE);
        }
        Token eq = lexer.peek(0);
        if (eq.kind() != Kind.EQUALS) {
            throw error(eq, "expected '=' after property name '" + n + "', found " + eq.describe());
        }
        lexer.next();
        Token v = requireValue("'" + n + " ='");
        Token after = lexer.peek(0);
        if (!PROPERTY_ENDS.contains(after.kind())) {
            throw error(after, "expected ',', ';', a new line or '}' after the value of '" + n + "', found "
                    + after.describe() + (v.kind() == Kind.BARE ? " (quote a value that contains spaces)" : ""));
        }
        Token first = names.putIfAbsent(n, name);
        if (first != null) {
            problems.add(name, "property '" + n + "' of element '" + e.name + "' is set twice: "
                    + Problems.twice(first, name));
            return;
        }
        e.properties.put(n, toValue(v));
    }

    // ENDPOINT -> ENDPOINT [-> ENDPOINT]...
    private void connection() {
        Token start = lexer.peek(0);
        List<Token> ends = new ArrayList<>();
        ends.add(lexer.next());
        while (lexer.peek(0).kind() == Kind.ARROW) {
            lexer.next();
            Token t = lexer.peek(0);
            if (t.kind() != Kind.WORD) {
                throw error(t, "expected an element name after '->', found " + t.describe());
            }
            ends.add(lexer.next());
        }
        expectEndOfStatement("'->', a new line or ';' after '" + ends.get(ends.size() - 1).text() + "'");
        int last = ends.size() - 1;
        String[] names = new String[ends.size()];
        String[] ports = new String[ends.size()];
        for (int i = 0; i <= last; i++) {
            Token t = ends.get(i);
            String w = t.text();
            int dot = w.indexOf('.');
            names[i] = dot < 0 ? w : w.substring(0, dot);
            ports[i] = dot < 0 ? null : w.substring(dot + 1);
            boolean valid = checkElementName(t, names[i], "element name");
            if (ports[i] != null) {
                int portColumn = t.column() + dot + 1;
                if (!Syntax.ELEMENT_NAME.matcher(ports[i]).matches()) {
                    problems.add(t.line(), portColumn, ports[i].isEmpty()
                            ? "expected a port name after '" + names[i] + ".'"
                            : "port name '" + ports[i] + "' of '" + names[i] + "' is not valid: port "
                                    + Syntax.ELEMENT_NAME_RULE);
                } else if (i > 0 && i < last) {
                    String prev = ends.get(i - 1).text();
                    String next = ends.get(i + 1).text();
                    problems.add(t.line(), portColumn, "port '" + ports[i] + "' on '" + names[i]
                            + "' in the middle of a chain is ambiguous (input or output?): split the chain into '"
                            + prev + " -> " + w + "' and '" + names[i] + " -> " + next + "', or '" + prev + " -> "
                            + names[i] + "' and '" + w + " -> " + next + "'");
                }
            }
            if (valid) {
                references.add(new Reference(names[i], start.line(), start.column(), "a connection"));
            }
        }
        for (int i = 0; i < last; i++) {
            ConnectionDTO c = new ConnectionDTO();
            c.from = names[i];
            c.fromPort = i == 0 ? ports[i] : null;
            c.to = names[i + 1];
            c.toPort = i + 1 == last ? ports[i + 1] : null;
            c.line = start.line();
            c.column = start.column();
            pipeline.connections.add(c);
        }
    }

    // layout { NAME = X, Y ... }
    private void layout() {
        lexer.next();
        Token open = lexer.peek(0);
        if (open.kind() != Kind.LBRACE) {
            throw error(open, "expected '{' after 'layout', found " + open.describe());
        }
        lexer.next();
        loop: while (true) {
            Token t = lexer.peek(0);
            switch (t.kind()) {
                case NEWLINE, SEMI -> lexer.next();
                case RBRACE -> {
                    lexer.next();
                    break loop;
                }
                case EOF -> {
                    problems.add(t, "expected '}' to close the layout block opened at line " + open.line()
                            + ", found end of file");
                    break loop;
                }
                case WORD -> recover(this::layoutEntry, LAYOUT_ENTRY_ENDS);
                default -> {
                    problems.add(t, "expected an element name or '}' in the layout block, found " + t.describe());
                    lexer.skipUntil(LAYOUT_ENTRY_ENDS);
                }
            }
        }
        expectEndOfStatement("a new line or ';' after the layout block");
    }

    private void layoutEntry() {
        Token name = lexer.next();
        String n = name.text();
        boolean valid = checkElementName(name, n, "element name");
        Token eq = lexer.peek(0);
        if (eq.kind() != Kind.EQUALS) {
            throw error(eq, "expected '=' after '" + n + "' in the layout block, found " + eq.describe());
        }
        lexer.next();
        double x = coordinate(n, "x");
        Token comma = lexer.peek(0);
        if (comma.kind() != Kind.COMMA) {
            throw error(comma, "expected ',' between the x and y positions of '" + n + "', found " + comma.describe());
        }
        lexer.next();
        double y = coordinate(n, "y");
        Token after = lexer.peek(0);
        if (!LAYOUT_ENTRY_ENDS.contains(after.kind())) {
            throw error(after, "expected a new line, ';' or '}' after the position of '" + n + "', found "
                    + after.describe());
        }
        Token first = layoutEntries.putIfAbsent(n, name);
        if (first != null) {
            problems.add(name, "layout position of '" + n + "' is given twice: " + Problems.twice(first, name));
            return;
        }
        pipeline.layout.put(n, new double[] {x, y});
        if (valid) {
            references.add(new Reference(n, name.line(), name.column(), "the layout block"));
        }
    }

    private double coordinate(String element, String axis) {
        Token v = lexer.value();
        if (v == null) {
            Token t = lexer.peek(0);
            throw error(t, "expected the " + axis + " position of '" + element + "' (a decimal number), found "
                    + t.describe());
        }
        if (v.kind() != Kind.BARE || !Syntax.COORDINATE.matcher(v.text()).matches()) {
            throw error(v, "expected a decimal number for the " + axis + " position of '" + element + "', found "
                    + v.describe());
        }
        double d = Double.parseDouble(v.text());
        if (!Double.isFinite(d)) {
            throw error(v, "the " + axis + " position of '" + element + "' is too large: " + v.text());
        }
        return d;
    }

    /** @param expected what may come here, for the message, e.g. {@code "a new line or ';' after ..."} */
    private void expectEndOfStatement(String expected) {
        Token t = lexer.peek(0);
        if (!t.endsStatement()) {
            throw error(t, "expected " + expected + ", found " + t.describe());
        }
        if (t.kind() != Kind.EOF) {
            lexer.next();
        }
    }

    /** @return whether the name is valid; if not, reports it */
    private boolean checkElementName(Token at, String name, String what) {
        if (Syntax.ELEMENT_NAME.matcher(name).matches()) {
            return true;
        }
        problems.add(at, name.isEmpty() ? "expected an element name, found '" + at.text() + "'"
                : what + " '" + name + "' is not valid: " + Syntax.ELEMENT_NAME_RULE);
        return false;
    }

    private void checkReferences() {
        for (Reference r : references) {
            if (!elements.containsKey(r.name())) {
                problems.add(r.line(), r.column(), "undeclared element '" + r.name() + "'"
                        + Syntax.didYouMean(r.name(), elements.keySet()) + " in " + r.where() + "; declared elements: "
                        + Syntax.list(elements.keySet()));
            }
        }
    }

    private static ValueDTO toValue(Token v) {
        ValueDTO value = new ValueDTO(v.text(), v.line(), v.column());
        value.quoted = v.kind() == Kind.STRING;
        return value;
    }
}
