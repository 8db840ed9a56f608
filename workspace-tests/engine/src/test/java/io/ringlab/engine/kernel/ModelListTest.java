package io.ringlab.engine.kernel;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.io.IOException;
import java.io.UncheckedIOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.TreeSet;
import java.util.regex.Matcher;
import java.util.regex.Pattern;
import java.util.stream.Stream;

import org.junit.jupiter.api.Test;

/**
 * The model bundles are listed once for Maven (cnf/models/pom.xml) and once for bnd (cnf/models.bnd), which the app and
 * the cross-bundle tests include: the two lists name the same bundles, each a module of the root pom, and every bundle
 * whose components serve a model's service (an element type, a pool kind, queue limits, a qdisc kind) is in them, so a
 * new model bundle left out of a list fails here rather than missing from the app.
 */
class ModelListTest {
    /** The services a model bundle's components provide. */
    private static final Pattern MODEL_SERVICE = Pattern.compile(
            "@Component\\([^)]*service\\s*=\\s*\\{?[^)]*\\b(ElementFactory|BufferPoolProvider|QueueLimitsProvider|QdiscProvider)\\.class",
            Pattern.DOTALL);

    private static TreeSet<String> matches(Path file, String regex) throws IOException {
        TreeSet<String> out = new TreeSet<>();
        Matcher m = Pattern.compile(regex).matcher(Files.readString(file));
        while (m.find()) {
            out.add(m.group(1));
        }
        return out;
    }

    @Test
    void theMavenAndBndListsNameTheSameModuleBundles() throws IOException {
        Path repo = DocsIndexTest.repository();
        TreeSet<String> maven = matches(repo.resolve("cnf/models/pom.xml"), "<artifactId>(io\\.ringlab\\.[\\w.]+)</artifactId>");
        maven.remove("io.ringlab.models");
        TreeSet<String> bnd = matches(repo.resolve("cnf/models.bnd"), "bnd\\.identity;id='(io\\.ringlab\\.[\\w.]+)'");
        assertTrue(maven.size() >= 10, "model bundles in cnf/models/pom.xml: " + maven);
        assertEquals(maven, bnd, "cnf/models/pom.xml against cnf/models.bnd");
        TreeSet<String> modules = matches(repo.resolve("pom.xml"), "<module>bundles/([\\w.]+)</module>");
        List<String> notModules = maven.stream().filter(b -> !modules.contains(b)).toList();
        assertEquals(List.of(), notModules, "listed model bundles that are not modules of the root pom");
    }

    @Test
    void everyBundleServingAModelIsListed() throws IOException {
        Path repo = DocsIndexTest.repository();
        TreeSet<String> listed = matches(repo.resolve("cnf/models.bnd"), "bnd\\.identity;id='(io\\.ringlab\\.[\\w.]+)'");
        TreeSet<String> serving = new TreeSet<>();
        try (Stream<Path> bundles = Files.list(repo.resolve("bundles"))) {
            for (Path bundle : bundles.toList()) {
                Path src = bundle.resolve("src/main/java");
                if (!Files.isDirectory(src)) {
                    continue;
                }
                try (Stream<Path> files = Files.walk(src)) {
                    boolean serves = files.filter(f -> f.toString().endsWith(".java")).anyMatch(f -> {
                        try {
                            return MODEL_SERVICE.matcher(Files.readString(f)).find();
                        } catch (IOException e) {
                            throw new UncheckedIOException(e);
                        }
                    });
                    if (serves) {
                        serving.add(bundle.getFileName().toString());
                    }
                }
            }
        }
        // the engine serves pool kind fixed itself and is required by every bndrun by name
        serving.remove("io.ringlab.engine");
        assertTrue(serving.contains("io.ringlab.driver.stmmac") && serving.contains("io.ringlab.qdisc"),
                "the scan found the model bundles: " + serving);
        List<String> missing = new ArrayList<>(serving);
        missing.removeAll(listed);
        assertEquals(List.of(), missing, "bundles serving a model that cnf/models.bnd and cnf/models/pom.xml do not list");
        List<String> extra = new ArrayList<>(listed);
        extra.removeAll(serving);
        assertEquals(List.of(), extra, "listed bundles that serve no model");
    }
}
