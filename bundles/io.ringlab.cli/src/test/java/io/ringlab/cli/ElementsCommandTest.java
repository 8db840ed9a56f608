package io.ringlab.cli;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.nio.file.Path;
import java.util.List;

import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

import io.ringlab.sim.api.dto.ElementDescriptorDTO;
import io.ringlab.sim.api.dto.MetricDescriptorDTO;
import io.ringlab.sim.api.dto.PropertyDescriptorDTO;
import io.ringlab.sim.api.dto.PropertyDescriptorDTO.Kind;

/** {@code ringlab elements}: {@link Commands.Elements} with {@link Runner#printElements}. */
class ElementsCommandTest {
    @TempDir
    Path dir;

    private FakeSimulator sim;
    private Cli cli;

    @BeforeEach
    void setUp() {
        sim = new FakeSimulator();
        cli = new Cli(sim, dir);
    }

    private static ElementDescriptorDTO type(String category, String type, String summary, String bundle,
            PropertyDescriptorDTO... properties) {
        ElementDescriptorDTO d = new ElementDescriptorDTO();
        d.category = category;
        d.type = type;
        d.summary = summary;
        d.bundle = bundle;
        d.bundleVersion = "0.1.0.202501010000";
        d.properties.addAll(List.of(properties));
        return d;
    }

    private void installThreeTypes() {
        sim.elementTypes.add(type(ElementDescriptorDTO.QDISC, "pfifo", "tail-drop FIFO", "io.ringlab.qdisc",
                PropertyDescriptorDTO.of("limit", Kind.INTEGER, "1000", "1", "1000000", "packets the queue holds")));
        sim.elementTypes.add(type(ElementDescriptorDTO.QDISC, "pfifo_fast", "three-band FIFO", "io.ringlab.qdisc"));
        sim.elementTypes.add(type(ElementDescriptorDTO.SOURCE, "source", "constant or Poisson traffic",
                "io.ringlab.traffic",
                PropertyDescriptorDTO.of("rate", Kind.RATE, "1Gbit", "1bit", "400Gbit", "offered load"),
                PropertyDescriptorDTO.choice("arrivals", "constant", List.of("constant", "poisson"), "arrival process"),
                PropertyDescriptorDTO.of("label", Kind.STRING, "src", null, null, "a free text label")));
    }

    @Test
    void elementsExitsZeroAndPrintsEachCategoryOnceInOrder() {
        installThreeTypes();

        assertEquals(Runner.OK, cli.execute("elements"), cli.err());

        List<String> headers = cli.out().lines().filter(l -> !l.startsWith(" ")).toList();
        assertEquals(List.of("qdiscs:", "sources:"), headers);
        assertEquals("", cli.err());
    }

    @Test
    void elementsPrintsTypesWithSummaryBundleAndVersion() {
        installThreeTypes();

        cli.execute("elements");

        List<String> types = cli.out().lines().filter(l -> l.startsWith("  ") && !l.startsWith("   ")).toList();
        assertEquals(3, types.size(), cli.out());
        assertTrue(types.get(0).matches("  pfifo +tail-drop FIFO  \\[io\\.ringlab\\.qdisc 0\\.1\\.0\\.202501010000\\]"),
                types.get(0));
        assertTrue(types.get(1).contains("pfifo_fast") && types.get(1).contains("[io.ringlab.qdisc 0.1.0.202501010000]"),
                types.get(1));
        assertTrue(types.get(2).contains("source") && types.get(2).contains("[io.ringlab.traffic 0.1.0.202501010000]"),
                types.get(2));
    }

    @Test
    void elementsPrintsPropertiesWithKindDefaultRangeAndDescription() {
        installThreeTypes();

        cli.execute("elements");

        List<String> props = cli.out().lines().filter(l -> l.startsWith("      ")).map(String::trim).toList();
        assertEquals(4, props.size(), cli.out());
        assertTrue(props.get(0).matches("limit +integer +default 1000 +\\(1 to 1000000\\) packets the queue holds"),
                props.get(0));
        assertTrue(props.get(1).matches("rate +rate +default 1Gbit +\\(1bit to 400Gbit\\) offered load"), props.get(1));
        assertTrue(props.get(2).matches("arrivals +choice +default constant +\\(constant\\|poisson\\) arrival process"),
                props.get(2));
        assertTrue(props.get(3).matches("label +string +default src +a free text label"), props.get(3));
    }

    @Test
    void propertiesFollowTheirOwnType() {
        installThreeTypes();

        cli.execute("elements");

        List<String> lines = cli.out().lines().toList();
        int pfifo = indexOfStart(lines, "  pfifo ");
        int pfifoFast = indexOfStart(lines, "  pfifo_fast ");
        int source = indexOfStart(lines, "  source ");
        assertTrue(lines.get(pfifo + 1).trim().startsWith("limit"), cli.out());
        assertEquals(pfifo + 2, pfifoFast, "pfifo has exactly one property line: " + cli.out());
        assertTrue(lines.get(source + 1).trim().startsWith("rate"), cli.out());
    }

    private static int indexOfStart(List<String> lines, String prefix) {
        for (int i = 0; i < lines.size(); i++) {
            if (lines.get(i).startsWith(prefix)) {
                return i;
            }
        }
        throw new AssertionError("no line starts with '" + prefix + "' in " + lines);
    }

    @Test
    void elementsListsEachMetricWithUnitKindAndMeaningThenTheModelPage() {
        ElementDescriptorDTO sink = type(ElementDescriptorDTO.SINK, "sink", "counts what arrives", "io.ringlab.traffic",
                PropertyDescriptorDTO.of("cycles", Kind.INTEGER, "0", "0", null, "cycles per packet"));
        sink.metricDescriptors.add(metric(MetricDescriptorDTO.RATE, "rxMbitPerSecond", "Mbit/s", "megabits per second"));
        sink.metricDescriptors.add(metric(MetricDescriptorDTO.COUNTER, "rxPackets", "", "packets consumed"));
        sink.modelPage = "docs/models/traffic.md";
        sim.elementTypes.add(sink);
        sim.elementTypes.add(type(ElementDescriptorDTO.SINK, "plain", "declares nothing", "com.example"));

        assertEquals(Runner.OK, cli.execute("elements"), cli.err());

        List<String> lines = cli.out().lines().toList();
        int at = indexOfStart(lines, "  sink ");
        assertEquals(List.of("    metrics (name, unit, kind, meaning):",
                "      rxMbitPerSecond                Mbit/s   rate      megabits per second",
                "      rxPackets                      -        counter   packets consumed",
                "    model: docs/models/traffic.md"), lines.subList(at + 2, at + 6));
        assertEquals(at + 6, indexOfStart(lines, "  plain "), "a type without metrics or page has no such lines");
        assertEquals(lines.size() - 1, indexOfStart(lines, "  plain "));
    }

    private static MetricDescriptorDTO metric(String kind, String name, String unit, String description) {
        return new MetricDescriptorDTO(kind, name, unit, description);
    }

    @Test
    void elementsWithNothingInstalledPrintsNothing() {
        assertEquals(Runner.OK, cli.execute("elements"));

        assertEquals("", cli.out());
        assertEquals("", cli.err());
    }
}
