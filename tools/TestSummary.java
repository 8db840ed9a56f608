import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;
import java.util.regex.Matcher;
import java.util.regex.Pattern;
import java.util.stream.Stream;

/**
 * Sums the JUnit XML reports of a Ringlab build: unit tests (Surefire, target/surefire-reports, the samples' included),
 * OSGi integration tests (bnd-testing, target/test-reports) and script checks (target/check-reports, such as
 * tools/baseline-check.sh). Prints one line per kind, then "N passed, N failed, N skipped" as the last line. Exits 1 when
 * a test failed, when no OSGi report exists, or when an OSGi report counts zero tests (bnd's tester can report success
 * after finding no tests).
 * <p>
 * Usage: java tools/TestSummary.java ROOT
 */
public class TestSummary {
    private static final Pattern SUITE = Pattern.compile("<testsuite\\b([^>]*)>");

    public static void main(String[] args) throws IOException {
        Path root = Path.of(args.length > 0 ? args[0] : ".");
        long[] unit = new long[4];
        long[] osgi = new long[4];
        long[] checks = new long[4];
        int osgiReports = 0;
        boolean zeroOsgi = false;
        List<Path> reports;
        Path marker = root.resolve(".test-start");
        long since = Files.exists(marker) ? Files.getLastModifiedTime(marker).toMillis() : 0;
        try (Stream<Path> s = Files.walk(root)) {
            reports = s.filter(p -> p.getFileName().toString().matches("TEST-.*\\.xml"))
                    .filter(p -> modified(p) >= since) // stale reports of modules this build never reached
                    .filter(p -> p.toString().contains("/target/surefire-reports/") || p.toString().contains("/target/test-reports/")
                            || p.toString().contains("/target/check-reports/"))
                    .sorted().toList();
        }
        for (Path p : reports) {
            String xml = Files.readString(p);
            Matcher m = SUITE.matcher(xml);
            long[] c = new long[4];
            while (m.find()) {
                String attrs = m.group(1);
                c[0] += attr(attrs, "tests");
                c[1] += attr(attrs, "failures");
                c[2] += attr(attrs, "errors");
                c[3] += attr(attrs, "skipped");
            }
            boolean isOsgi = p.toString().contains("/test-reports/");
            long[] into = isOsgi ? osgi : p.toString().contains("/check-reports/") ? checks : unit;
            for (int i = 0; i < 4; i++) {
                into[i] += c[i];
            }
            if (isOsgi) {
                osgiReports++;
                if (c[0] == 0) {
                    zeroOsgi = true;
                    System.out.println("OSGi test report with zero tests: " + root.relativize(p));
                }
            }
        }
        System.out.printf("unit tests: %d run, %d failed, %d errors, %d skipped%n", unit[0], unit[1], unit[2], unit[3]);
        System.out.printf("OSGi integration tests: %d run in %d report(s), %d failed, %d errors, %d skipped%n", osgi[0],
                osgiReports, osgi[1], osgi[2], osgi[3]);
        if (checks[0] > 0) {
            System.out.printf("script checks: %d run, %d failed, %d errors, %d skipped%n", checks[0], checks[1], checks[2],
                    checks[3]);
        }
        long run = unit[0] + osgi[0] + checks[0];
        long failed = unit[1] + unit[2] + osgi[1] + osgi[2] + checks[1] + checks[2];
        long skipped = unit[3] + osgi[3] + checks[3];
        boolean bad = failed > 0 || zeroOsgi || osgiReports == 0;
        if (osgiReports == 0) {
            System.out.println("no OSGi test report found: the integration tests did not run");
        }
        System.out.printf("%d passed, %d failed, %d skipped%n", run - failed - skipped, failed, skipped);
        System.exit(bad ? 1 : 0);
    }

    private static long modified(Path p) {
        try {
            return Files.getLastModifiedTime(p).toMillis();
        } catch (IOException e) {
            return 0;
        }
    }

    private static long attr(String attrs, String name) {
        Matcher m = Pattern.compile("\\b" + name + "=\"(\\d+)\"").matcher(attrs);
        return m.find() ? Long.parseLong(m.group(1)) : 0;
    }
}
