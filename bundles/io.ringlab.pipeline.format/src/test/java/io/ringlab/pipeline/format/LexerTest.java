package io.ringlab.pipeline.format;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertNull;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.util.ArrayList;
import java.util.List;

import org.junit.jupiter.api.Test;

import io.ringlab.pipeline.format.Token.Kind;
import io.ringlab.sim.api.PipelineException;
import io.ringlab.sim.api.dto.ProblemDTO;

/** The public lexical layer as readers of other files of the text family use it: brackets, list items, problems. */
class LexerTest {

    @Test
    void bracketsAreSymbolsAndListItemsEndAtTheClosingBracket() {
        Problems problems = new Problems("x.experiment");
        Lexer lexer = new Lexer("seeds = [1, 0x10,\"a]b\"]\n", problems);
        assertEquals("seeds", lexer.next().text());
        assertEquals(Kind.EQUALS, lexer.next().kind());
        assertEquals(Kind.LBRACKET, lexer.next().kind());
        List<String> items = new ArrayList<>();
        while (true) {
            Token item = lexer.listItem();
            items.add(item.kind() + ":" + item.text() + "@" + item.column());
            if (lexer.peek(0).kind() != Kind.COMMA) {
                break;
            }
            lexer.next();
        }
        assertEquals(List.of("BARE:1@10", "BARE:0x10@13", "STRING:a]b@18"), items);
        Token close = lexer.next();
        assertEquals(Kind.RBRACKET, close.kind());
        assertEquals(23, close.column());
        assertEquals(Kind.NEWLINE, lexer.next().kind());
        assertEquals(Kind.EOF, lexer.next().kind());
        assertTrue(problems.isEmpty());
    }

    @Test
    void aValueOutsideAListKeepsItsBrackets() {
        Lexer lexer = new Lexer("name = [x]\n", new Problems("p.pipeline"));
        lexer.next();
        lexer.next();
        assertEquals("[x]", lexer.value().text());
    }

    @Test
    void anEmptyListItemIsNull() {
        Lexer lexer = new Lexer("]", new Problems("p"));
        assertNull(lexer.listItem());
        assertEquals(Kind.RBRACKET, lexer.peek(0).kind());
    }

    @Test
    void problemsOfAnotherFileFollowThisFilesProblemsInTheOrderAdded() {
        Problems problems = new Problems("a.experiment");
        problems.add(new ProblemDTO("b.pipeline", 9, 1, "second"));
        problems.add(4, 2, "late");
        problems.add(new ProblemDTO("b.pipeline", 1, 1, "third"));
        problems.add(1, 5, "early");
        PipelineException e = assertThrows(PipelineException.class, problems::throwIfAny);
        assertEquals("a.experiment:1:5: early\na.experiment:4:2: late\nb.pipeline:9:1: second\nb.pipeline:1:1: third",
                e.getMessage());
    }
}
