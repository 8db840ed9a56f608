package io.ringlab.engine.kernel;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.io.IOException;
import java.nio.file.Files;
import java.util.ArrayList;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.Set;
import java.util.TreeMap;
import java.util.TreeSet;
import java.util.regex.Matcher;
import java.util.regex.Pattern;

import org.junit.jupiter.api.Test;

import io.ringlab.pipeline.format.Units;
import io.ringlab.sim.api.dto.ElementDescriptorDTO;
import io.ringlab.sim.api.dto.MetricDescriptorDTO;
import io.ringlab.sim.api.dto.PropertyDescriptorDTO;

/**
 * The model pages (docs/models/) agree with the declarations, as {@code GuideExcerptsTest} holds the driver guide to the
 * sample's code. On each built-in type's {@link ElementDescriptorDTO#modelPage}:
 * <ul>
 * <li>the attribute tables (first column {@code property} or {@code name}, a column {@code default...}) list every
 * property of the type and only its properties, each with the declared default and, where the {@code range} cell is
 * written {@code min – max} (or a CHOICE's options), the declared range;</li>
 * <li>the counter tables (first column {@code metric}) name only metrics the type declares, each of the declared kind
 * where a {@code type} column gives one, and the Counters section names every metric the type's factory declares.</li>
 * </ul>
 * A table belongs to one type of a page on several types when the line before it is {@code `type`...:} or the heading
 * above it names the type in backticks; otherwise to all of the page's types. So a property or metric added, renamed or
 * given another default in a factory fails here until its page says so too.
 */
class ModelPagesTest {
    private static final Pattern CODE = Pattern.compile("`([^`]+)`");
    private static final Pattern LABEL = Pattern.compile("^`([a-z][a-z0-9_.-]*)`[^`]*(?:`[^`]*`[^`]*)*:$");
    private static final Pattern HEADING = Pattern.compile("^(#+)\\s+(.*)$");

    /** One table of a page: the types it is about, its header cells and its rows' cells. */
    private record Table(Set<String> types, List<String> header, List<List<String>> rows) {
    }

    @Test
    void everyPagesTablesAgreeWithItsTypesDeclarations() throws IOException {
        TestRegistry registry = new TestRegistry();
        Map<String, Map<String, ElementDescriptorDTO>> byPage = new TreeMap<>();
        for (ElementDescriptorDTO listed : registry.types()) {
            byPage.computeIfAbsent(listed.modelPage, k -> new TreeMap<>()).put(listed.type,
                    registry.factory(listed.type).descriptor());
        }
        List<String> wrong = new ArrayList<>();
        int[] rows = new int[2];
        byPage.forEach((page, types) -> {
            try {
                check(page, types, Files.readAllLines(DocsIndexTest.repository().resolve(page)), wrong, rows);
            } catch (IOException e) {
                throw new java.io.UncheckedIOException(e);
            }
        });
        assertEquals(List.of(), wrong, "model pages that disagree with the declarations");
        assertTrue(rows[0] >= 120 && rows[1] >= 150, "the pages' tables were read: " + rows[0] + " attribute rows, "
                + rows[1] + " metric rows");
    }

    @Test
    void aPageThatDisagreesIsReportedRowByRow() {
        ElementDescriptorDTO d = new ElementDescriptorDTO();
        d.type = "nic";
        d.properties.add(PropertyDescriptorDTO.of("ring", PropertyDescriptorDTO.Kind.INTEGER, "256", "2", "4096", "ring"));
        d.properties.add(PropertyDescriptorDTO.of("delay", PropertyDescriptorDTO.Kind.DURATION, "10us", "0s", "1s", "d"));
        d.properties.add(PropertyDescriptorDTO.of("bql", PropertyDescriptorDTO.Kind.BOOLEAN, "true", null, null, "b"));
        d.metricDescriptors.add(new MetricDescriptorDTO(MetricDescriptorDTO.COUNTER, "txPackets", "frames sent"));
        d.metricDescriptors.add(new MetricDescriptorDTO(MetricDescriptorDTO.GAUGE, "ringUsed", "now"));
        List<String> page = List.of("## Attributes", "",
                "| property | kind | default | range | meaning |", "|---|---|---|---|---|",
                "| `ring` | INTEGER | 512 | 2 – 4,096 | the default is wrong |",
                "| `delay` | DURATION | 10,000ns | 0s – 2s | the default agrees in picoseconds, the range does not |",
                "| `mtu` | INTEGER | 1500 | 68 – 9000 | no such property |", "",
                "## Counters", "",
                "| metric | type | unit | meaning |", "|---|---|---|---|",
                "| `txPackets` | gauge | packets | the kind is wrong |",
                "| `txFrames` | counter | packets | not declared |");
        List<String> wrong = new ArrayList<>();
        check("nic.md", Map.of("nic", d), page, wrong, new int[2]);
        assertEquals(List.of("nic.md: property ring: default 512 on the page, 256 declared",
                "nic.md: property delay: range 0s – 2s on the page, 0s – 1s declared",
                "nic.md: property mtu is no property of [nic]",
                "nic.md: metric txPackets is a gauge on the page, a counter declared",
                "nic.md: metric txFrames is not declared by [nic]",
                "nic.md: the attribute tables leave out nic's [bql]",
                "nic.md: the Counters section does not name nic's [ringUsed]"), wrong);
    }

    private static void check(String page, Map<String, ElementDescriptorDTO> types, List<String> lines,
            List<String> wrong, int[] rows) {
        Map<String, Set<String>> listedProperties = new TreeMap<>();
        for (Table t : tables(lines, types.keySet())) {
            String first = t.header.get(0).toLowerCase(Locale.ROOT);
            int def = column(t.header, "default");
            if ((first.equals("property") || first.equals("name")) && def > 0) {
                int range = column(t.header, "range");
                for (List<String> row : t.rows) {
                    rows[0]++;
                    for (String name : codes(row.get(0))) {
                        List<String> faults = new ArrayList<>();
                        boolean found = false;
                        for (String type : t.types) {
                            PropertyDescriptorDTO p = property(types.get(type), name);
                            if (p != null) {
                                found = true;
                                listedProperties.computeIfAbsent(type, k -> new TreeSet<>()).add(name);
                                faults.add(disagreement(p, cell(row, def), range < 0 ? null : cell(row, range)));
                            }
                        }
                        if (!found) {
                            wrong.add(page + ": property " + name + " is no property of " + t.types);
                        } else if (!faults.contains(null)) {
                            wrong.add(page + ": property " + name + ": " + faults.get(0));
                        }
                    }
                }
            } else if (first.equals("metric")) {
                int kind = column(t.header, "type");
                for (List<String> row : t.rows) {
                    rows[1]++;
                    for (String name : codes(row.get(0))) {
                        MetricDescriptorDTO m = t.types.stream().map(type -> metric(types.get(type), name))
                                .filter(java.util.Objects::nonNull).findFirst().orElse(null);
                        if (m == null) {
                            wrong.add(page + ": metric " + name + " is not declared by " + t.types);
                        } else if (kind > 0 && !cell(row, kind).toLowerCase(Locale.ROOT).startsWith(m.kind)) {
                            wrong.add(page + ": metric " + name + " is a " + cell(row, kind) + " on the page, a "
                                    + m.kind + " declared");
                        }
                    }
                }
            }
        }
        Set<String> counters = codes(String.join("\n", section(lines, "Counters")));
        types.forEach((type, d) -> {
            Set<String> missing = new TreeSet<>();
            d.properties.forEach(p -> missing.add(p.name));
            missing.removeAll(listedProperties.getOrDefault(type, Set.of()));
            if (!missing.isEmpty()) {
                wrong.add(page + ": the attribute tables leave out " + type + "'s " + missing);
            }
            Set<String> unnamed = new TreeSet<>();
            d.metricDescriptors.stream().map(m -> m.name).filter(n -> !counters.contains(n)).forEach(unnamed::add);
            if (!unnamed.isEmpty()) {
                wrong.add(page + ": the Counters section does not name " + type + "'s " + unnamed);
            }
        });
    }

    /** @return what the page's default or range gets wrong, or {@code null} when both agree with the declaration */
    private static String disagreement(PropertyDescriptorDTO p, String shownDefault, String shownRange) {
        if (!same(p, p.defaultValue, shownDefault)) {
            return "default " + shownDefault + " on the page, " + p.defaultValue + " declared";
        }
        if (shownRange == null) {
            return null;
        }
        if (p.kind == PropertyDescriptorDTO.Kind.CHOICE && !shownRange.contains("–")) {
            List<String> options = List.of(shownRange.replace("`", "").split(",\\s*"));
            return options.equals(p.options) ? null : "options " + options + " on the page, " + p.options + " declared";
        }
        String[] bounds = shownRange.replace("`", "").split("\\s+–\\s+");
        if (bounds.length != 2 || value(p, bounds[0]) == null || bounds[1].equals("(none)") != (p.max == null)
                || !bounds[1].equals("(none)") && value(p, bounds[1]) == null) {
            return null; // a range in words (not blank, 1 MHz – 1 GHz): not checked
        }
        if (!same(p, p.min, bounds[0]) || !bounds[1].equals("(none)") && !same(p, p.max, bounds[1])) {
            return "range " + shownRange + " on the page, " + p.min + " – " + p.max + " declared";
        }
        return null;
    }

    /** @return whether a page's value is the declared one, compared in the kind's base unit where it has one */
    private static boolean same(PropertyDescriptorDTO p, String declared, String shown) {
        Object a = value(p, declared);
        Object b = value(p, shown.replace("`", "").strip());
        return a != null ? a.equals(b) : declared.equals(shown.replace("`", "").strip());
    }

    /** @return the text in the kind's base unit (thousands separators allowed), or {@code null} if it does not parse */
    private static Object value(PropertyDescriptorDTO p, String text) {
        String t = text.replace(",", "").strip();
        try {
            return switch (p.kind) {
                case INTEGER -> Units.parseInteger(t);
                case DURATION -> Units.parsePicos(t);
                case RATE -> Units.parseBitsPerSecond(t);
                case SIZE -> Units.parseBytes(t);
                case DECIMAL -> Units.parseDecimal(t);
                case BOOLEAN -> Units.parseBoolean(t);
                default -> null;
            };
        } catch (RuntimeException e) {
            return null;
        }
    }

    private static PropertyDescriptorDTO property(ElementDescriptorDTO d, String name) {
        return d.properties.stream().filter(p -> p.name.equals(name)).findFirst().orElse(null);
    }

    /** @return the declared metric the name is, or one of the family ({@code <i>}) it belongs to */
    private static MetricDescriptorDTO metric(ElementDescriptorDTO d, String name) {
        for (MetricDescriptorDTO m : d.metricDescriptors) {
            if (m.name.equals(name) || Pattern.matches(Pattern.quote(m.name).replace("<i>", "\\E[0-9]+\\Q"), name)) {
                return m;
            }
        }
        return null;
    }

    private static int column(List<String> header, String prefix) {
        for (int i = 1; i < header.size(); i++) {
            if (header.get(i).toLowerCase(Locale.ROOT).startsWith(prefix)) {
                return i;
            }
        }
        return -1;
    }

    private static String cell(List<String> row, int i) {
        return i < row.size() ? row.get(i) : "";
    }

    private static Set<String> codes(String text) {
        Set<String> out = new TreeSet<>();
        Matcher m = CODE.matcher(text);
        while (m.find()) {
            for (String part : m.group(1).split(",\\s*")) {
                out.add(part.strip());
            }
        }
        return out;
    }

    /** @return the lines of the sections whose heading starts with the title, each up to the next heading as high */
    private static List<String> section(List<String> lines, String title) {
        List<String> out = new ArrayList<>();
        int level = 0;
        for (String line : lines) {
            Matcher h = HEADING.matcher(line);
            if (h.matches() && level > 0 && h.group(1).length() <= level) {
                level = 0;
            }
            if (h.matches() && level == 0 && h.group(2).startsWith(title)) {
                level = h.group(1).length();
            } else if (level > 0) {
                out.add(line);
            }
        }
        return out;
    }

    /** @return the page's Markdown tables, each with the types it is about */
    private static List<Table> tables(List<String> lines, Set<String> pageTypes) {
        List<Table> out = new ArrayList<>();
        Set<String> headingTypes = pageTypes;
        for (int i = 0; i + 1 < lines.size(); i++) {
            Matcher h = HEADING.matcher(lines.get(i));
            if (h.matches()) {
                Set<String> named = new TreeSet<>(codes(h.group(2)));
                named.retainAll(pageTypes);
                headingTypes = named.size() == 1 ? named : pageTypes;
            }
            if (lines.get(i).startsWith("|") && lines.get(i + 1).matches("\\|[-| :]+\\|?\\s*")) {
                Set<String> types = headingTypes;
                for (int k = i - 1; k >= 0; k--) {
                    if (lines.get(k).isBlank()) {
                        continue;
                    }
                    Matcher label = LABEL.matcher(lines.get(k).strip());
                    if (label.matches() && pageTypes.contains(label.group(1))) {
                        types = Set.of(label.group(1));
                    }
                    break;
                }
                List<List<String>> rows = new ArrayList<>();
                int j = i + 2;
                for (; j < lines.size() && lines.get(j).startsWith("|"); j++) {
                    rows.add(cells(lines.get(j)));
                }
                out.add(new Table(types, cells(lines.get(i)), rows));
                i = j;
            }
        }
        return out;
    }

    /** @return a row's cells, trimmed; an escaped {@code \|} stays in its cell */
    private static List<String> cells(String row) {
        List<String> out = new ArrayList<>();
        for (String c : row.strip().replaceAll("^\\||\\|$", "").split("(?<!\\\\)\\|", -1)) {
            out.add(c.strip());
        }
        return out;
    }
}
