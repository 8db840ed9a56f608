package io.ringlab.pipeline.format;

import static io.ringlab.pipeline.format.PipelineAssertions.positions;
import static org.junit.jupiter.api.Assertions.assertArrayEquals;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertNull;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;

import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

import io.ringlab.sim.api.PipelineException;
import io.ringlab.sim.api.dto.ConnectionDTO;
import io.ringlab.sim.api.dto.ElementSpecDTO;
import io.ringlab.sim.api.dto.PipelineDTO;
import io.ringlab.sim.api.dto.ProblemDTO;
import io.ringlab.sim.api.dto.ValueDTO;

class PipelineReaderTest {

    /** The format reference's example, with the {@code wire} element declared. */
    static final String EXAMPLE = """
            # Comments run from '#' to the end of the line.
            name = "netdev-line-rate"                  # optional; default: the file name without extension
            description = "64-byte frames at 100 Gbit/s through the reference NIC"
            duration = 1s                              # optional run defaults
            seed = 1
            profile = generic-x86-4ghz
            headline = sink.rxMpps                      # ELEMENT.METRIC

            element src : source {
                rate = 100Gbit
                size = 64B
                flows = 4
            }
            element q : pfifo { limit = 1000 }          # ';' or ',' or newlines separate properties
            element eth0 : netdev
            element wire : link
            element sink : sink

            src -> q -> eth0                            # a chain; each arrow uses default ports
            eth0.wire -> wire.in                        # explicit ports: ELEMENT.PORT
            wire -> sink

            layout {                                    # console canvas positions; never affects a result
                src = 40, 80
                eth0 = 240.5, 80
            }
            """;

    @Test
    void readsACompleteFile() throws PipelineException {
        PipelineDTO p = PipelineReader.read("pipelines/line-rate.ring", EXAMPLE);

        assertEquals("pipelines/line-rate.ring", p.file);
        assertEquals("netdev-line-rate", p.name);
        assertEquals("64-byte frames at 100 Gbit/s through the reference NIC", p.description);
        assertValue("1s", false, 4, 12, p.duration);
        assertValue("1", false, 5, 8, p.seed);
        assertValue("generic-x86-4ghz", false, 6, 11, p.profile);
        assertValue("sink.rxMpps", false, 7, 12, p.headline);

        assertEquals(List.of("src", "q", "eth0", "wire", "sink"), p.elements.stream().map(e -> e.name).toList());
        assertEquals(List.of("source", "pfifo", "netdev", "link", "sink"), p.elements.stream().map(e -> e.type).toList());
        ElementSpecDTO src = p.elements.get(0);
        assertEquals(9, src.line);
        assertEquals(1, src.column);
        assertEquals(List.of("rate", "size", "flows"), List.copyOf(src.properties.keySet()));
        assertValue("100Gbit", false, 10, 12, src.properties.get("rate"));
        assertValue("64B", false, 11, 12, src.properties.get("size"));
        assertValue("4", false, 12, 13, src.properties.get("flows"));
        ElementSpecDTO q = p.elements.get(1);
        assertEquals(14, q.line);
        assertValue("1000", false, 14, 29, q.properties.get("limit"));
        assertTrue(p.elements.get(2).properties.isEmpty());
        assertEquals(15, p.elements.get(2).line);

        assertEquals(4, p.connections.size());
        assertConnection("src", null, "q", null, 19, 1, p.connections.get(0));
        assertConnection("q", null, "eth0", null, 19, 1, p.connections.get(1));
        assertConnection("eth0", "wire", "wire", "in", 20, 1, p.connections.get(2));
        assertConnection("wire", null, "sink", null, 21, 1, p.connections.get(3));

        assertEquals(List.of("src", "eth0"), List.copyOf(p.layout.keySet()));
        assertArrayEquals(new double[] {40, 80}, p.layout.get("src"));
        assertArrayEquals(new double[] {240.5, 80}, p.layout.get("eth0"));
    }

    @Test
    void nameDefaultsToTheFileNameWithoutFoldersAndExtension() throws PipelineException {
        assertEquals("line-rate", PipelineReader.read("pipelines/line-rate.ring", "").name);
        assertEquals("a.b", PipelineReader.read("C:\\p\\a.b.ring", "").name);
        assertEquals("noext", PipelineReader.read("noext", "").name);
    }

    @Test
    void aNullFileNameIsInput() throws PipelineException {
        PipelineDTO p = PipelineReader.read(null, "seed = 3\n");
        assertEquals("<input>", p.file);
        assertEquals("<input>", p.name);
    }

    @Test
    void anEmptyTextIsAnEmptyPipeline() throws PipelineException {
        PipelineDTO p = PipelineReader.read("e.ring", "# nothing here\n\n");
        assertTrue(p.elements.isEmpty());
        assertTrue(p.connections.isEmpty());
        assertTrue(p.layout.isEmpty());
        assertNull(p.description);
        assertNull(p.duration);
        assertNull(p.seed);
        assertNull(p.profile);
        assertNull(p.headline);
    }

    @Test
    void quotedStringsResolveEscapesAndAreMarkedQuoted() throws PipelineException {
        PipelineDTO p = PipelineReader.read("q.ring", """
                element a : t {
                    label = "eth0 \\"rx\\" C:\\\\x"
                    empty = ""
                    hash = "# not a comment, really; }"
                    tabs = "a\\tb\\nc"
                }
                """);
        ElementSpecDTO a = p.elements.get(0);
        assertValue("eth0 \"rx\" C:\\x", true, 2, 13, a.properties.get("label"));
        assertValue("", true, 3, 13, a.properties.get("empty"));
        assertValue("# not a comment, really; }", true, 4, 12, a.properties.get("hash"));
        assertValue("a\tb\nc", true, 5, 12, a.properties.get("tabs"));
    }

    @Test
    void bareValuesRunUntilBlankCommaSemicolonBraceOrHash() throws PipelineException {
        PipelineDTO p = PipelineReader.read("b.ring", """
                element a : t {
                    r = 100Mbit
                    d = 0.1ms
                    s = 1500B
                    h = 0x10
                    b = true
                    c = pfifo_fast
                    odd = x=y:z->w."q"
                    u = 5\u00B5s
                }
                element b : t { x = 1, y = 2; z = 3}
                element c : t { x = 1#comment
                }
                """);
        ElementSpecDTO a = p.elements.get(0);
        List<String> texts = a.properties.values().stream().map(v -> v.text).toList();
        assertEquals(List.of("100Mbit", "0.1ms", "1500B", "0x10", "true", "pfifo_fast", "x=y:z->w.\"q\"", "5\u00B5s"),
                texts);
        a.properties.values().forEach(v -> assertFalse(v.quoted, v.text));
        ElementSpecDTO b = p.elements.get(1);
        assertEquals(List.of("x", "y", "z"), List.copyOf(b.properties.keySet()));
        assertEquals(List.of("1", "2", "3"), b.properties.values().stream().map(v -> v.text).toList());
        assertEquals("1", p.elements.get(2).properties.get("x").text);
    }

    @Test
    void separatorsAndBlockLayoutAreFlexible() throws PipelineException {
        PipelineDTO p = PipelineReader.read("s.ring", """
                element a : t
                {
                    x = 1;;
                    ,y = 2,
                }
                element b : t {}
                seed = 4; duration = 2s
                a->b
                """);
        assertEquals(List.of("x", "y"), List.copyOf(p.elements.get(0).properties.keySet()));
        assertTrue(p.elements.get(1).properties.isEmpty());
        assertEquals("4", p.seed.text);
        assertEquals("2s", p.duration.text);
        assertConnection("a", null, "b", null, 8, 1, p.connections.get(0));
    }

    @Test
    void namesMayUseDashesUnderscoresAndTypesDots() throws PipelineException {
        PipelineDTO p = PipelineReader.read("n.ring", """
                element eth-0_rx : io.ringlab.x-y_z
                element Q2 : q
                eth-0_rx.out-1 -> Q2.in_2
                """);
        assertEquals("io.ringlab.x-y_z", p.elements.get(0).type);
        assertConnection("eth-0_rx", "out-1", "Q2", "in_2", 3, 1, p.connections.get(0));
    }

    @Test
    void connectionsMayNameElementsDeclaredLaterAndChainsKeepEndPorts() throws PipelineException {
        PipelineDTO p = PipelineReader.read("c.ring", """
                  a.tx -> b -> c -> d.rx
                element a : t
                element b : t
                element c : t
                element d : t
                """);
        assertEquals(3, p.connections.size());
        assertConnection("a", "tx", "b", null, 1, 3, p.connections.get(0));
        assertConnection("b", null, "c", null, 1, 3, p.connections.get(1));
        assertConnection("c", null, "d", "rx", 1, 3, p.connections.get(2));
    }

    @Test
    void keywordsAreOnlyKeywordsWhereAStatementStarts() throws PipelineException {
        PipelineDTO p = PipelineReader.read("k.ring", """
                element element : t
                element layout : t
                element -> layout
                layout { element = 1, 2; layout = 3, 4 }
                """);
        assertConnection("element", null, "layout", null, 3, 1, p.connections.get(0));
        assertEquals(List.of("element", "layout"), List.copyOf(p.layout.keySet()));
    }

    @Test
    void crlfLineBreaksAndAByteOrderMarkKeepPositions() throws PipelineException {
        PipelineDTO p = PipelineReader.read("w.ring", "\uFEFFseed = 1\r\nelement a : t {\r\n  x = 2\r\n}\r\n");
        assertValue("1", false, 1, 8, p.seed);
        assertValue("2", false, 3, 7, p.elements.get(0).properties.get("x"));
    }

    @Test
    void layoutAcceptsNegativeAndDecimalPositions() throws PipelineException {
        PipelineDTO p = PipelineReader.read("l.ring", """
                element a : t
                layout {
                    a = -12.25,0.5
                }
                """);
        assertArrayEquals(new double[] {-12.25, 0.5}, p.layout.get("a"));
    }

    @Test
    void readsAFileAndNamesItInPipelineAndProblems(@TempDir Path dir) throws IOException, PipelineException {
        Path file = dir.resolve("two.ring");
        Files.writeString(file, "element a : t\nelement b : t\na -> b\n", StandardCharsets.UTF_8);
        PipelineDTO p = PipelineReader.read(file);
        assertEquals(file.toString(), p.file);
        assertEquals("two", p.name);

        Files.writeString(file, "element a : t\na -> c\n", StandardCharsets.UTF_8);
        PipelineException e = assertThrows(PipelineException.class, () -> PipelineReader.read(file));
        assertEquals(file.toString(), e.problems().get(0).file);
        assertEquals(file + ":2:1: undeclared element 'c' in a connection; declared elements: a", e.getMessage());
    }

    @Test
    void fileErrorsAreProblemsNamingTheFile(@TempDir Path dir) throws IOException {
        Path missing = dir.resolve("missing.ring");
        PipelineException e = assertThrows(PipelineException.class, () -> PipelineReader.read(missing));
        ProblemDTO problem = e.problems().get(0);
        assertEquals(missing.toString(), problem.file);
        assertEquals(0, problem.line);
        assertEquals("cannot read the pipeline: no such file", problem.message);
        assertEquals(missing + ": cannot read the pipeline: no such file", e.getMessage());

        e = assertThrows(PipelineException.class, () -> PipelineReader.read(dir));
        assertEquals(dir.toString(), e.problems().get(0).file);
        assertTrue(e.problems().get(0).message.startsWith("cannot read the pipeline"), e.getMessage());

        Path latin1 = dir.resolve("latin1.ring");
        Files.write(latin1, new byte[] {'#', ' ', (byte) 0xE9, '\n'});
        e = assertThrows(PipelineException.class, () -> PipelineReader.read(latin1));
        assertEquals(latin1 + ":1:3: cannot read the pipeline: the file is not UTF-8 text: byte 0xE9 (at byte offset 2)"
                + " is not valid UTF-8; save the file as UTF-8", e.getMessage());
    }

    @Test
    void textThatIsNotUtf8IsReportedAtTheLineAndColumnOfItsFirstBadByte(@TempDir Path dir) throws IOException {
        // line 3 holds a valid two-byte and a valid four-byte character before the bad byte: columns count UTF-16 chars
        byte[] head = "element a : t\r\n\r\n# \u00e9\uD83D\uDE00 ".getBytes(StandardCharsets.UTF_8);
        byte[] bytes = java.util.Arrays.copyOf(head, head.length + 3);
        bytes[head.length] = (byte) 0xC3; // a two-byte sequence cut short by a space
        bytes[head.length + 1] = ' ';
        bytes[head.length + 2] = (byte) 0xFF;
        Path file = Files.write(dir.resolve("bad.ring"), bytes);

        PipelineException e = assertThrows(PipelineException.class, () -> PipelineReader.read(file));

        assertEquals(1, e.problems().size(), e.getMessage());
        ProblemDTO p = e.problems().get(0);
        assertEquals(3, p.line, e.getMessage());
        assertEquals(7, p.column, e.getMessage()); // '#', ' ', 'e-acute', two chars of the emoji, ' ', then the bad byte
        assertTrue(p.message.contains("byte 0xC3 (at byte offset " + head.length + ") is not valid UTF-8"), p.message);

        Files.write(file, new byte[] {(byte) 0xEF, (byte) 0xBB, (byte) 0xBF, 'a', (byte) 0x80});
        e = assertThrows(PipelineException.class, () -> PipelineReader.read(file));
        assertEquals(1, e.problems().get(0).line);
        assertEquals(2, e.problems().get(0).column, "a byte order mark is not a column, as for the lexer");
    }

    @Test
    void aDirectoryAFifoAndADeviceAreRefusedWithoutBeingOpened(@TempDir Path dir) throws Exception {
        PipelineException e = assertThrows(PipelineException.class, () -> PipelineReader.read(dir));
        assertEquals(dir + ": cannot read the pipeline: it is a directory; give a pipeline file", e.getMessage());

        Path fifo = dir.resolve("p.pipeline");
        Process mkfifo = new ProcessBuilder("mkfifo", fifo.toString()).inheritIO().start();
        assertEquals(0, mkfifo.waitFor(), "mkfifo");
        // opening a FIFO without a writer blocks; the reader must not open it (a hang fails the test by its timeout)
        e = org.junit.jupiter.api.Assertions.assertTimeoutPreemptively(java.time.Duration.ofSeconds(10),
                () -> assertThrows(PipelineException.class, () -> PipelineReader.read(fifo)));
        assertEquals(fifo + ": cannot read the pipeline: it is a FIFO (named pipe), not a regular file; give a pipeline"
                + " file", e.getMessage());

        e = assertThrows(PipelineException.class, () -> PipelineReader.text(Path.of("/dev/zero"), "experiment"));
        assertEquals("/dev/zero: cannot read the experiment: it is a character device, not a regular file; give an"
                + " experiment file", e.getMessage());
    }

    @Test
    void aFileLargerThanTheLimitIsRefusedWithItsSizeBeforeItIsRead(@TempDir Path dir) throws Exception {
        Path big = dir.resolve("big.pipeline");
        try (java.io.RandomAccessFile f = new java.io.RandomAccessFile(big.toFile(), "rw")) {
            f.setLength(PipelineReader.MAX_FILE_BYTES + 1); // sparse: no disk, and reading it would take 16 MiB
        }
        PipelineException e = assertThrows(PipelineException.class, () -> PipelineReader.read(big));
        assertEquals(big + ": cannot read the pipeline: it is 16,777,217 bytes (16.0 MiB), more than the 16 MiB a"
                + " pipeline file may have", e.getMessage());

        Path limit = dir.resolve("limit.pipeline");
        byte[] comment = new byte[(int) PipelineReader.MAX_FILE_BYTES];
        java.util.Arrays.fill(comment, (byte) '#');
        Files.write(limit, comment);
        assertEquals(PipelineReader.MAX_FILE_BYTES, PipelineReader.text(limit, "pipeline").length(),
                "a file of exactly the limit is read");
    }

    @Test
    void aPipelineFileWithoutElementsIsRefusedToRunNamingTheFile(@TempDir Path dir) throws Exception {
        Path empty = Files.writeString(dir.resolve("empty.pipeline"), "");
        assertTrue(PipelineReader.read(empty).elements.isEmpty(), "read to edit: where the console's editor starts");
        PipelineException e = assertThrows(PipelineException.class, () -> PipelineReader.readRunnable(empty));
        assertEquals(empty + ": the pipeline declares no element (the file is empty): nothing to run; declare the"
                + " elements and connect them, as in 'element src : source', 'element snk : sink' and 'src -> snk'"
                + " (docs/pipeline-format.md)", e.getMessage());

        Path comments = Files.writeString(dir.resolve("comments.pipeline"), "# to do\nduration = 1s\n");
        e = assertThrows(PipelineException.class, () -> PipelineReader.readRunnable(comments));
        assertTrue(e.getMessage().startsWith(comments + ": the pipeline declares no element: nothing to run;"),
                e.getMessage());
    }

    @Test
    void readsThePlotListWithThePositionOfEachSeries() throws PipelineException {
        PipelineDTO p = PipelineReader.read("p.ring", """
                plot = [ping.rttMillis, q.backlog,
                        pool:ping.pool.inUse, cpu0.l1dMisses]
                element ping : ping
                element q : pfifo
                """);
        assertEquals(4, p.plot.size());
        assertValue("ping.rttMillis", false, 1, 9, p.plot.get(0));
        assertValue("q.backlog", false, 1, 25, p.plot.get(1));
        assertValue("pool:ping.pool.inUse", false, 2, 9, p.plot.get(2));
        assertValue("cpu0.l1dMisses", false, 2, 31, p.plot.get(3));
        assertEquals(List.of(), PipelineReader.read("p.ring", "element a : t\n").plot, "no plot key: an empty list");
    }

    @Test
    void malformedPlotListsAreReportedWhereTheyGoWrong() {
        assertProblems("plot = [q.backlog, q.drops\nelement q : pfifo\n",
                "1:27: expected ',' or ']' after 'q.drops' in the list of 'plot' opened at line 1 column 8, found end of line");
        assertProblems("element q : pfifo\nplot = [q.backlog,, q.drops]\n",
                "2:19: expected a value or ']' in the list of 'plot' opened at line 2 column 8, found ','");
        assertProblems("element q : pfifo\nplot = q.backlog\n",
                "2:8: 'plot' takes a list of series, for example plot = [ping.rttMillis, q.backlog]");
        assertProblems("element q : pfifo\nheadline = [q.backlog]\n", "2:12: 'headline' takes one value, not a list");
        assertProblems("element q : pfifo\nplot = [q.backlog, backlog, qq.drops, q.backlog]\n",
                "2:20: plot 'backlog' is not ELEMENT.METRIC (for example sink.rxMpps), pool:ELEMENT.POOL.METRIC, "
                        + "cpuN.METRIC or l3.METRIC",
                "2:29: undeclared element 'qq' (did you mean 'q'?) in the plot list; declared elements: q",
                "2:39: plot names 'q.backlog' twice: first at line 2 column 9, again at column 39");
        assertProblems("element q : pfifo\nplot = [q.backlog]\nplot = [q.drops]\n",
                "3:1: header key 'plot' is set twice: first at line 2, again at line 3");
    }

    // ---- problems, each with its exact position

    @Test
    void unknownHeaderKeyListsTheAllowedOnes() {
        assertProblems("nmae = x\n", "1:1: unknown header key 'nmae': allowed keys are name, description, duration, "
                + "seed, profile, headline, plot");
    }

    @Test
    void headerKeySetTwiceNamesBothLines() {
        assertProblems("seed = 1\nseed = 2\n", "2:1: header key 'seed' is set twice: first at line 1, again at line 2");
    }

    @Test
    void missingEqualsSaysWhatWasFound() {
        assertProblems("element src : source { rate }\n",
                "1:29: expected '=' after property name 'rate', found '}'");
        assertProblems("element src : source {\n    rate 1\n}\n",
                "2:10: expected '=' after property name 'rate', found '1'");
        assertProblems("element src : source {\n    rate\n}\n",
                "2:9: expected '=' after property name 'rate', found end of line");
    }

    @Test
    void missingValueSaysWhatWasFound() {
        assertProblems("element q : pfifo { limit = }\n", "1:29: expected a value after 'limit =', found '}'");
        assertProblems("seed =   # later\n", "1:17: expected a value after 'seed =', found end of line");
        assertProblems("seed =", "1:7: expected a value after 'seed =', found end of file");
    }

    @Test
    void unterminatedString() {
        assertProblems("description = \"never closed\nseed = 1\n",
                "1:15: unterminated string: expected '\"' before the end of the line");
        assertProblems("element a : t { x = \"open }",
                "1:21: unterminated string: expected '\"' before the end of the file",
                "1:28: expected '}' to close the block of element 'a' opened at line 1, found end of file");
    }

    @Test
    void unknownEscape() {
        assertProblems("description = \"a\\qb\"\n", "1:17: unknown escape '\\q' in a string: use \\\", \\\\, \\n, \\r and \\t");
    }

    @Test
    void duplicateElementNamesBothLines() {
        assertProblems("element q : pfifo\nelement a : t\n\nelement q : fq_codel\n",
                "4:9: element 'q' is declared twice: first at line 1, again at line 4");
    }

    @Test
    void duplicatePropertyNamesBothPlaces() {
        assertProblems("element src : source {\n    rate = 1Gbit\n    size = 64B\n    rate = 2Gbit\n}\n",
                "4:5: property 'rate' of element 'src' is set twice: first at line 2, again at line 4");
        assertProblems("element q : pfifo { limit = 1, limit = 2 }\n",
                "1:32: property 'limit' of element 'q' is set twice: first at line 1 column 21, again at column 32");
    }

    @Test
    void undeclaredElementInAConnectionListsTheDeclaredNames() {
        assertProblems("element src : source\nelement sink : sink\n\n  src -> wire -> sink\n",
                "4:3: undeclared element 'wire' in a connection; declared elements: src, sink");
        assertProblems("a -> b\n",
                "1:1: undeclared element 'a' in a connection; declared elements: none",
                "1:1: undeclared element 'b' in a connection; declared elements: none");
    }

    @Test
    void portOnTheMiddleElementOfAChainIsAmbiguous() {
        assertProblems("element a : t\nelement b : t\nelement c : t\na -> b.x -> c\n",
                "4:8: port 'x' on 'b' in the middle of a chain is ambiguous (input or output?): split the chain "
                        + "into 'a -> b.x' and 'b -> c', or 'a -> b' and 'b.x -> c'");
    }

    @Test
    void badNameCharacters() {
        assertProblems("element eth$0 : netdev\n", "1:9: element name 'eth$0' is not valid: names start with a letter "
                + "and contain only letters, digits, '_' and '-'");
        assertProblems("element 0eth : netdev\n", "1:9: element name '0eth' is not valid: names start with a letter "
                + "and contain only letters, digits, '_' and '-'");
        assertProblems("element q : Pfifo\n", "1:13: element type 'Pfifo' of 'q' is not valid: type ids start with a "
                + "lower-case letter and contain only lower-case letters, digits, '_', '.' and '-'");
        assertProblems("element q : pfifo { Limit = 3, max_len = 4 }\n",
                "1:21: property name 'Limit' is not valid: property names start with a lower-case letter and "
                        + "contain only letters and digits",
                "1:32: property name 'max_len' is not valid: property names start with a lower-case letter and "
                        + "contain only letters and digits");
        assertProblems("element a : t\nelement b : t\na.o$ -> b\n",
                "3:3: port name 'o$' of 'a' is not valid: port names start with a letter and contain only "
                        + "letters, digits, '_' and '-'");
        assertProblems("element a : t\nelement b : t\na -> b.\n", "3:8: expected a port name after 'b.'");
    }

    @Test
    void layoutEntryForAnUnknownElement() {
        assertProblems("element a : t\nlayout {\n    a = 1, 2\n    ghost = 3, 4\n}\n",
                "4:5: undeclared element 'ghost' in the layout block; declared elements: a");
    }

    @Test
    void layoutEntriesNeedTwoDecimalNumbers() {
        assertProblems("element a : t\nlayout {\n    a = 1 2\n}\n",
                "3:11: expected ',' between the x and y positions of 'a', found '2'");
        assertProblems("element a : t\nlayout {\n    a = 1, 1e3\n}\n",
                "3:12: expected a decimal number for the y position of 'a', found '1e3'");
        assertProblems("element a : t\nlayout {\n    a = , 1\n}\n",
                "3:9: expected the x position of 'a' (a decimal number), found ','");
        assertProblems("element a : t\nlayout {\n    a = 1, 2\n    a = 3, 4\n}\n",
                "4:5: layout position of 'a' is given twice: first at line 3, again at line 4");
        assertProblems("element a : t\nlayout a = 1, 2\n", "2:8: expected '{' after 'layout', found 'a'");
    }

    @Test
    void headerValuesThatTheReaderCanCheck() {
        assertProblems("duration = 100\n", "1:12: duration: '100' is not a duration: the unit is missing; write a "
                + "number followed by ps, ns, us (or µs), ms or s");
        assertProblems("seed = one\n", "1:8: seed: 'one' is not an integer: write decimal digits, optionally followed "
                + "by k, M or G (times 1000, 1000000 or 1000000000), or 0x and hex digits; '_' may separate digits");
        assertProblems("headline = sinkrx\n", "1:12: headline 'sinkrx' is not ELEMENT.METRIC (for example sink.rxMpps), "
                + "pool:ELEMENT.POOL.METRIC, cpuN.METRIC or l3.METRIC");
        assertProblems("element sink : sink\nheadline = snik.rxMpps\n",
                "2:12: undeclared element 'snik' (did you mean 'sink'?) in the headline; declared elements: sink");
    }

    @Test
    void valuesWithSpacesMustBeQuoted() {
        assertProblems("element src : source {\n    rate = 100 Gbit\n}\n",
                "2:16: expected ',', ';', a new line or '}' after the value of 'rate', found 'Gbit' "
                        + "(quote a value that contains spaces)");
        assertProblems("profile = generic x86\n",
                "1:19: expected a new line or ';' after the value of 'profile', found 'x86'");
    }

    @Test
    void statementsThatAreNoneOfTheKnownOnes() {
        assertProblems("elment src : source {\n    rate = 1Gbit\n}\nelement a : t\n",
                "1:1: unknown statement 'elment': expected KEY = VALUE, element NAME : TYPE, A -> B or layout { ... }");
        assertProblems("src\n", "1:4: expected '=' or '->' after 'src', found end of line");
        assertProblems("}\n", "1:1: expected a statement (KEY = VALUE, element NAME : TYPE, A -> B or layout { ... }), "
                + "found '}'");
        assertProblems("element : t\n", "1:9: expected an element name after 'element', found ':'");
        assertProblems("element a t\n", "1:11: expected ':' after element name 'a', found 't'");
        assertProblems("element a : \n", "1:13: expected an element type after 'a :', found end of line");
        assertProblems("element a : t x\n", "1:15: expected '{', a new line or ';' after 'a : t', found 'x'");
        assertProblems("element a : t\nelement b : t\na -> b c\n",
                "3:8: expected '->', a new line or ';' after 'b', found 'c'");
        assertProblems("element a : t\na ->\n", "2:5: expected an element name after '->', found end of line");
    }

    @Test
    void unclosedBlocksAreReportedAtTheEndOfTheFile() {
        assertProblems("element a : t {\n  x = 1\n", "3:1: expected '}' to close the block of element 'a' opened at "
                + "line 1, found end of file");
        assertProblems("layout {\n", "2:1: expected '}' to close the layout block opened at line 1, found end of file");
    }

    @Test
    void reportsSeveralProblemsInFileOrderAndRecoversAfterEach() {
        String text = """
                nmae = "x"
                seed = 1 2
                element src : source {
                    rate = 100 Gbit
                    Rate = 2
                    size
                    flows = 4
                }
                elment y : z {
                  a = 1
                }
                element q : pfifo { limit = 1000, limit = 3 }
                element q : x
                src -> q -> wire
                layout {
                  src = 1, b
                  zz = 3, 4
                }
                """;
        PipelineException e = assertThrows(PipelineException.class, () -> PipelineReader.read("bad.ring", text));
        assertEquals(List.of(
                "1:1: unknown header key 'nmae': allowed keys are name, description, duration, seed, profile, headline, "
                        + "plot",
                "2:10: expected a new line or ';' after the value of 'seed', found '2'",
                "4:16: expected ',', ';', a new line or '}' after the value of 'rate', found 'Gbit' "
                        + "(quote a value that contains spaces)",
                "5:5: property name 'Rate' is not valid: property names start with a lower-case letter and contain "
                        + "only letters and digits",
                "6:9: expected '=' after property name 'size', found end of line",
                "9:1: unknown statement 'elment': expected KEY = VALUE, element NAME : TYPE, A -> B or layout { ... }",
                "12:35: property 'limit' of element 'q' is set twice: first at line 12 column 21, again at column 35",
                "13:9: element 'q' is declared twice: first at line 12, again at line 13",
                "14:1: undeclared element 'wire' in a connection; declared elements: src, q",
                "16:12: expected a decimal number for the y position of 'src', found 'b'",
                "17:3: undeclared element 'zz' in the layout block; declared elements: src, q"), positions(e));
        e.problems().forEach(p -> assertEquals("bad.ring", p.file));
        assertTrue(e.getMessage().startsWith("bad.ring:1:1: unknown header key 'nmae'"), e.getMessage());
    }

    private static void assertProblems(String text, String... expected) {
        PipelineException e = assertThrows(PipelineException.class, () -> PipelineReader.read("t.ring", text));
        assertEquals(List.of(expected), positions(e));
    }

    private static void assertValue(String text, boolean quoted, int line, int column, ValueDTO v) {
        assertEquals(text, v.text, "text");
        assertEquals(quoted, v.quoted, "quoted of " + text);
        assertEquals(line, v.line, "line of " + text);
        assertEquals(column, v.column, "column of " + text);
    }

    private static void assertConnection(String from, String fromPort, String to, String toPort, int line, int column,
            ConnectionDTO c) {
        String what = from + " -> " + to;
        assertEquals(from, c.from, what);
        assertEquals(fromPort, c.fromPort, what + " fromPort");
        assertEquals(to, c.to, what);
        assertEquals(toPort, c.toPort, what + " toPort");
        assertEquals(line, c.line, what + " line");
        assertEquals(column, c.column, what + " column");
    }
}
