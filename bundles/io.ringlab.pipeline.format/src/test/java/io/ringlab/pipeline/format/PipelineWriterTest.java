package io.ringlab.pipeline.format;

import static io.ringlab.pipeline.format.PipelineAssertions.assertSamePipeline;
import static io.ringlab.pipeline.format.PipelineAssertions.bare;
import static io.ringlab.pipeline.format.PipelineAssertions.connection;
import static io.ringlab.pipeline.format.PipelineAssertions.element;
import static io.ringlab.pipeline.format.PipelineAssertions.value;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.util.List;
import java.util.Random;

import org.junit.jupiter.api.Test;

import io.ringlab.sim.api.PipelineException;
import io.ringlab.sim.api.dto.ElementSpecDTO;
import io.ringlab.sim.api.dto.PipelineDTO;
import io.ringlab.sim.api.dto.ValueDTO;

class PipelineWriterTest {

    @Test
    void writesTheExampleCanonically() throws PipelineException {
        PipelineDTO p = PipelineReader.read("pipelines/line-rate.ring", PipelineReaderTest.EXAMPLE);
        assertEquals("""
                name = "netdev-line-rate"
                description = "64-byte frames at 100 Gbit/s through the reference NIC"
                duration = 1s
                seed = 1
                profile = generic-x86-4ghz
                headline = sink.rxMpps

                element src : source {
                    rate = 100Gbit
                    size = 64B
                    flows = 4
                }
                element q : pfifo {
                    limit = 1000
                }
                element eth0 : netdev
                element wire : link
                element sink : sink

                src -> q
                q -> eth0
                eth0.wire -> wire.in
                wire -> sink

                layout {
                    src = 40, 80
                    eth0 = 240.5, 80
                }
                """, PipelineWriter.write(p));
    }

    @Test
    void roundTripsTheExample() throws PipelineException {
        assertRoundTrip(PipelineReader.read("pipelines/line-rate.ring", PipelineReaderTest.EXAMPLE));
    }

    @Test
    void roundTripsFilesOfEveryShape() throws PipelineException {
        List<String> files = List.of(
                "",
                "seed = 0x10\n",
                "element a : t\n",
                "element a : t {x=1;y=\"two words\",z=\"\"}\nelement b : t\na.o1 -> b.i1\n",
                "description = \"line one\\nline two\\t\\\"quoted\\\" \\\\ back\"\nelement a : t\n",
                "headline = a.rxMpps\nprofile = \"my profile\"\nduration = 0.1ms\nelement a : t\n",
                "element a : t\nelement b : t\nelement c : t\na -> b -> c\nc.x -> a.y\n"
                        + "layout {\n  a = -1.5, 0\n  b = 1, 2\n  c = 123456789.125, -0.0\n}\n",
                "element a : t { odd = x=y:z->w.\"q\" ; u = 5\u00B5s }\n");
        for (String text : files) {
            PipelineDTO p = PipelineReader.read("r.ring", text);
            assertRoundTrip(p);
        }
    }

    @Test
    void writesThePlotListAfterTheHeadlineAndReadsItBack() throws PipelineException {
        String text = """
                headline = ping.rttP50Millis
                plot = [
                    ping.rttMillis,   # each echo
                    "eth0.limit", eth0.inflight
                ]

                element ping : ping
                element eth0 : stmmac
                """;
        PipelineDTO p = PipelineReader.read("dir/p.ring", text);
        String written = PipelineWriter.write(p);
        assertEquals("""
                headline = ping.rttP50Millis
                plot = [ping.rttMillis, "eth0.limit", eth0.inflight]

                element ping : ping
                element eth0 : stmmac
                """, written);
        assertRoundTrip(p);
        p.plot.clear();
        assertFalse(PipelineWriter.write(p).contains("plot"), "an empty plot list is not written");
        p.plot.add(bare("nodot"));
        assertThrows(IllegalArgumentException.class, () -> PipelineWriter.write(p));
    }

    @Test
    void theNameHeaderIsOmittedWhenItIsTheDefault() throws PipelineException {
        PipelineDTO p = PipelineReader.read("dir/plain.ring", "element a : t\n");
        assertEquals("plain", p.name);
        assertEquals("element a : t\n", PipelineWriter.write(p));
        p.name = "other";
        assertEquals("name = \"other\"\n\nelement a : t\n", PipelineWriter.write(p));
    }

    @Test
    void writingIsIdempotent() throws PipelineException {
        String once = PipelineWriter.write(PipelineReader.read("x.ring", PipelineReaderTest.EXAMPLE));
        String twice = PipelineWriter.write(PipelineReader.read("x.ring", once));
        assertEquals(once, twice);
    }

    @Test
    void quotesWhatMustBeQuotedAndLeavesBareValuesBare() throws PipelineException {
        PipelineDTO p = new PipelineDTO();
        p.file = "q.ring";
        p.name = "q";
        ElementSpecDTO a = element("a", "t");
        a.properties.put("rate", bare("100Mbit"));
        a.properties.put("hex", bare("0x10"));
        a.properties.put("odd", bare("a=b:c->d.\"e\""));
        a.properties.put("keep", value("pfifo", true));
        a.properties.put("space", bare("two words"));
        a.properties.put("empty", bare(""));
        a.properties.put("comma", bare("a,b"));
        a.properties.put("semi", bare("a;b"));
        a.properties.put("brace", bare("a}"));
        a.properties.put("hash", bare("#1"));
        a.properties.put("lead", bare("\"x"));
        a.properties.put("tab", bare("a\tb"));
        a.properties.put("line", bare("a\nb\r"));
        a.properties.put("slash", bare("C:\\x"));
        p.elements.add(a);

        String text = PipelineWriter.write(p);
        assertEquals("""
                element a : t {
                    rate = 100Mbit
                    hex = 0x10
                    odd = a=b:c->d."e"
                    keep = "pfifo"
                    space = "two words"
                    empty = ""
                    comma = "a,b"
                    semi = "a;b"
                    brace = "a}"
                    hash = "#1"
                    lead = "\\"x"
                    tab = "a\\tb"
                    line = "a\\nb\\r"
                    slash = C:\\x
                }
                """, text);

        PipelineDTO back = PipelineReader.read("q.ring", text);
        ElementSpecDTO b = back.elements.get(0);
        for (String name : a.properties.keySet()) {
            ValueDTO written = a.properties.get(name);
            ValueDTO read = b.properties.get(name);
            assertEquals(written.text, read.text, name);
            assertEquals(written.quoted || !Syntax.canBeBare(written.text), read.quoted, name + " quoted");
        }
        assertFalse(b.properties.get("rate").quoted);
        assertTrue(b.properties.get("space").quoted);
    }

    @Test
    void roundTripsBuiltPipelinesWithAnyTextAndLayout() throws PipelineException {
        Random random = new Random(42);
        String alphabet = "ab Z09_-.:=\"\\,;{}#\t\n\r\u00B5\u00E9->";
        for (int round = 0; round < 200; round++) {
            PipelineDTO p = new PipelineDTO();
            p.file = "random.ring";
            p.name = randomText(random, alphabet);
            p.description = random.nextBoolean() ? null : randomText(random, alphabet);
            p.profile = random.nextBoolean() ? null : value(randomText(random, alphabet), true);
            p.seed = random.nextBoolean() ? null : bare(Long.toString(random.nextLong()));
            int n = 1 + random.nextInt(4);
            for (int i = 0; i < n; i++) {
                ElementSpecDTO e = element("e" + i, "t" + random.nextInt(3));
                int props = random.nextInt(4);
                for (int j = 0; j < props; j++) {
                    String text = randomText(random, alphabet);
                    // a bare value that can be bare stays bare; others are written quoted and read back quoted
                    e.properties.put("p" + j, value(text, random.nextBoolean() || !Syntax.canBeBare(text)));
                }
                p.elements.add(e);
                p.layout.put(e.name, new double[] {randomCoordinate(random), randomCoordinate(random)});
                if (i > 0) {
                    p.connections.add(connection("e" + (i - 1), random.nextBoolean() ? "out" : null, e.name,
                            random.nextBoolean() ? "in" : null));
                }
            }
            assertRoundTrip(p);
        }
    }

    @Test
    void rejectsWhatCannotBeReadBack() {
        PipelineDTO p = new PipelineDTO();
        p.elements.add(element("bad name", "t"));
        IllegalArgumentException e = assertThrows(IllegalArgumentException.class, () -> PipelineWriter.write(p));
        assertEquals("element name 'bad name' does not match [A-Za-z][A-Za-z0-9_-]*", e.getMessage());

        PipelineDTO q = new PipelineDTO();
        q.elements.add(element("a", "t"));
        q.layout.put("a", new double[] {1});
        e = assertThrows(IllegalArgumentException.class, () -> PipelineWriter.write(q));
        assertEquals("layout of 'a' must be two finite numbers {x, y}", e.getMessage());

        PipelineDTO r = new PipelineDTO();
        r.elements.add(element("a", "t"));
        r.elements.get(0).properties.put("x", null);
        e = assertThrows(IllegalArgumentException.class, () -> PipelineWriter.write(r));
        assertEquals("value of a.x is null", e.getMessage());
    }

    private static void assertRoundTrip(PipelineDTO p) throws PipelineException {
        String text = PipelineWriter.write(p);
        PipelineDTO back;
        try {
            back = PipelineReader.read(p.file, text);
        } catch (PipelineException e) {
            throw new AssertionError("written text does not read back:\n" + text + "\n" + e.getMessage(), e);
        }
        assertSamePipeline(p, back);
        assertEquals(text, PipelineWriter.write(back), "writing again gives the same text");
    }

    private static String randomText(Random random, String alphabet) {
        int length = random.nextInt(8);
        StringBuilder sb = new StringBuilder();
        for (int i = 0; i < length; i++) {
            sb.append(alphabet.charAt(random.nextInt(alphabet.length())));
        }
        return sb.toString();
    }

    private static double randomCoordinate(Random random) {
        return switch (random.nextInt(4)) {
            case 0 -> random.nextInt(2000) - 1000;
            case 1 -> random.nextInt(20000) / 8.0;
            case 2 -> (random.nextDouble() - 0.5) * 1e6;
            default -> Double.longBitsToDouble(random.nextLong() & 0x7FEF_FFFF_FFFF_FFFFL) * (random.nextBoolean() ? 1 : -1);
        };
    }
}
