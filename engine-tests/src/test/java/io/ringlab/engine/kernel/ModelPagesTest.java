package io.ringlab.engine.kernel;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.TreeMap;
import java.util.TreeSet;
import java.util.regex.Matcher;
import java.util.regex.Pattern;

import org.junit.jupiter.api.Test;

import io.ringlab.sim.api.dto.ElementDescriptorDTO;
import io.ringlab.sim.api.dto.MetricDescriptorDTO;
import io.ringlab.sim.api.dto.PropertyDescriptorDTO;

/**
 * The model pages (docs/models/) agree with the declarations, as {@code GuideExcerptsTest} holds the driver guide to the
 * sample's code: on each built-in type's {@link ElementDescriptorDTO#modelPage}, the attribute tables (a first column
 * {@code property} or {@code name} and a {@code default} column) name exactly the properties of the page's types, each
 * row's first default the declared one, and the counter tables (first column {@code metric}) name only metrics the
 * page's types declare. So a property or metric renamed, added or given another default in a factory fails here until
 * its page says so too.
 */
class ModelPagesTest {
    private static final Pattern CODE = Pattern.compile("`([^`]+)`");

    /** One table of a page: its header cells and its rows' cells. */
    private record Table(List<String> header, List<List<String>> rows) {
    }

    @Test
    void everyPagesTablesAgreeWithItsTypesDeclarations() throws IOException {
        Map<String, List<ElementDescriptorDTO>> byPage = new TreeMap<>();
        for (ElementDescriptorDTO d : new TestRegistry().types()) {
            byPage.computeIfAbsent(d.modelPage, k -> new ArrayList<>()).add(d);
        }
        List<String> wrong = new ArrayList<>();
        int attributeRows = 0;
        int metricRows = 0;
        for (Map.Entry<String, List<ElementDescriptorDTO>> e : byPage.entrySet()) {
            String page = e.getKey();
            List<Table> tables = tables(Files.readAllLines(DocsIndexTest.repository().resolve(page)));
            Map<String, List<PropertyDescriptorDTO>> properties = new TreeMap<>();
            List<Pattern> metrics = new ArrayList<>();
            for (ElementDescriptorDTO d : e.getValue()) {
                d.properties.forEach(p -> properties.computeIfAbsent(p.name, k -> new ArrayList<>()).add(p));
                for (MetricDescriptorDTO m : d.metricDescriptors) {
                    metrics.add(Pattern.compile(Pattern.quote(m.name).replace("<i>", "\\E[0-9]+\\Q")));
                }
            }
            Set<String> listed = new TreeSet<>();
            for (Table t : tables) {
                String first = t.header.get(0).toLowerCase(java.util.Locale.ROOT);
                int def = defaultColumn(t.header);
                if ((first.equals("property") || first.equals("name")) && def > 0) {
                    for (List<String> row : t.rows) {
                        attributeRows++;
                        for (String name : codes(row.get(0))) {
                            listed.add(name);
                            List<PropertyDescriptorDTO> declared = properties.get(name);
                            String shown = row.size() > def ? row.get(def).replace("`", "").strip() : "";
                            if (declared == null) {
                                wrong.add(page + ": property " + name + " is no property of " + types(e.getValue()));
                            } else if (declared.stream().noneMatch(p -> sameDefault(p.defaultValue, shown))) {
                                wrong.add(page + ": property " + name + " has default " + shown + " on the page, "
                                        + declared.get(0).defaultValue + " declared");
                            }
                        }
                    }
                } else if (first.equals("metric")) {
                    for (List<String> row : t.rows) {
                        metricRows++;
                        for (String name : codes(row.get(0))) {
                            if (metrics.stream().noneMatch(p -> p.matcher(name).matches())) {
                                wrong.add(page + ": metric " + name + " is not declared by " + types(e.getValue()));
                            }
                        }
                    }
                }
            }
            if (!listed.isEmpty() && !listed.equals(properties.keySet())) {
                Set<String> missing = new TreeSet<>(properties.keySet());
                missing.removeAll(listed);
                if (!missing.isEmpty()) {
                    wrong.add(page + ": the attribute tables leave out " + missing);
                }
            }
        }
        assertEquals(List.of(), wrong, "model pages that disagree with the declarations");
        assertTrue(attributeRows >= 40 && metricRows >= 30, "the pages' tables were read: " + attributeRows
                + " attribute rows, " + metricRows + " metric rows");
    }

    /** @return the index of the table's first column whose header starts with "default", or -1 */
    private static int defaultColumn(List<String> header) {
        for (int i = 1; i < header.size(); i++) {
            if (header.get(i).toLowerCase(java.util.Locale.ROOT).startsWith("default")) {
                return i;
            }
        }
        return -1;
    }

    /** A page's default agrees with the declared one, written as the file grammar or with thousands separators. */
    private static boolean sameDefault(String declared, String shown) {
        String s = shown.replace(",", "").replace(" ", "");
        return s.equals(declared) || s.startsWith(declared + "(") || shown.startsWith(declared + " ");
    }

    private static List<String> codes(String cell) {
        List<String> out = new ArrayList<>();
        Matcher m = CODE.matcher(cell);
        while (m.find()) {
            out.add(m.group(1));
        }
        return out;
    }

    private static String types(List<ElementDescriptorDTO> types) {
        return types.stream().map(d -> d.type).toList().toString();
    }

    /** @return the page's Markdown tables: a header row, a {@code |---|} row, then rows until a line that is not one */
    private static List<Table> tables(List<String> lines) {
        List<Table> out = new ArrayList<>();
        for (int i = 0; i + 1 < lines.size(); i++) {
            if (lines.get(i).startsWith("|") && lines.get(i + 1).matches("\\|[-| :]+\\|?\\s*")) {
                List<List<String>> rows = new ArrayList<>();
                int j = i + 2;
                for (; j < lines.size() && lines.get(j).startsWith("|"); j++) {
                    rows.add(cells(lines.get(j)));
                }
                out.add(new Table(cells(lines.get(i)), rows));
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
