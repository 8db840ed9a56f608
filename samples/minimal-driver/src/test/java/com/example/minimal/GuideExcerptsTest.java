package com.example.minimal;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.regex.Matcher;
import java.util.regex.Pattern;

import org.junit.jupiter.api.Test;

import io.ringlab.conformance.Prerequisites;

/**
 * Every excerpt of docs/writing-a-driver.md is this sample's code as it compiles and runs: a code block whose first line
 * names a file of the sample ({@code // samples/minimal-driver/...java: transmit}, {@code # samples/...pipeline},
 * {@code <!-- samples/minimal-driver/pom.xml: pom -->}) must equal that file, or its region between
 * {@code tag::NAME[]} and {@code end::NAME[]}, without the region markers and with the region's common indentation
 * removed. Skipped outside a Ringlab checkout.
 */
class GuideExcerptsTest {
    private static final Pattern BLOCK = Pattern.compile("(?ms)^```[a-z]*\\n(.*?)^```$");
    private static final Pattern HEADER = Pattern.compile(
            "^(?://|#|<!--)\\s*(samples/minimal-driver/\\S+?)(?::\\s*([\\w-]+))?\\s*(?:-->)?$");
    private static final Pattern MARKER = Pattern.compile("^\\s*(?://|#|<!--)\\s*(?:tag|end)::[\\w-]+\\[\\]\\s*(?:-->)?$");

    @Test
    void everyExcerptEqualsTheSampleCode() throws IOException {
        Path home = Path.of(System.getProperty("ringlab.home", "../.."));
        Path guide = home.resolve("docs/writing-a-driver.md");
        Prerequisites.require(Files.isRegularFile(guide), "no " + guide);
        Matcher m = BLOCK.matcher(Files.readString(guide, StandardCharsets.UTF_8));
        int checked = 0;
        List<String> wrong = new ArrayList<>();
        while (m.find()) {
            List<String> lines = new ArrayList<>(List.of(m.group(1).split("\n", -1)));
            lines.remove(lines.size() - 1); // the block's last newline
            Matcher h = HEADER.matcher(lines.get(0));
            if (!h.matches()) {
                continue; // commands, output: not code of the sample
            }
            Path file = home.resolve(h.group(1));
            assertTrue(Files.isRegularFile(file), lines.get(0) + ": no such file");
            List<String> expected = excerpt(Files.readAllLines(file, StandardCharsets.UTF_8), h.group(2), lines.get(0));
            if (!expected.equals(lines.subList(1, lines.size()))) {
                wrong.add(lines.get(0) + "\n--- in the sample:\n" + String.join("\n", expected) + "\n--- in the guide:\n"
                        + String.join("\n", lines.subList(1, lines.size())));
            }
            checked++;
        }
        assertEquals(List.of(), wrong, "excerpts that differ from the sample");
        assertTrue(checked >= 10, "the guide quotes the sample (" + checked + " excerpts)");
    }

    /** @return the region (or the whole file without markers) with its common indentation removed */
    private static List<String> excerpt(List<String> file, String region, String header) {
        List<String> out = new ArrayList<>();
        boolean in = region == null;
        boolean found = region == null;
        for (String line : file) {
            if (region != null && line.strip().matches("(?://|#|<!--)\\s*tag::" + Pattern.quote(region) + "\\[\\].*")) {
                in = true;
                found = true;
                continue;
            }
            if (region != null && line.strip().matches("(?://|#|<!--)\\s*end::" + Pattern.quote(region) + "\\[\\].*")) {
                in = false;
                continue;
            }
            if (in && !MARKER.matcher(line).matches()) {
                out.add(line.stripTrailing());
            }
        }
        assertTrue(found, header + ": no region " + region);
        int indent = out.stream().filter(l -> !l.isBlank()).mapToInt(l -> l.length() - l.stripLeading().length()).min()
                .orElse(0);
        out.replaceAll(l -> l.isBlank() ? "" : l.substring(indent));
        while (!out.isEmpty() && out.get(out.size() - 1).isEmpty()) {
            out.remove(out.size() - 1);
        }
        return out;
    }
}
