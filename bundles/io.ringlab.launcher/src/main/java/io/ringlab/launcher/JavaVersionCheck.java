package io.ringlab.launcher;

import org.osgi.framework.BundleActivator;
import org.osgi.framework.BundleContext;

/**
 * Stops the executable jars ({@code ringlab.jar}, {@code console.jar}, {@code shell.jar}) at once, with a message, when the
 * Java running them is older than their bundles need. Without it, {@code java -jar app/target/ringlab.jar} on Java 17
 * (Debian 12's default {@code java}) started the framework, whose bundles could not resolve (they require JavaSE-21),
 * and then waited for ever, silently, for the command line's main service. The {@code ringlab} script picks a JDK that is
 * new enough; this covers starting a jar by hand.
 * <p>
 * The minimum is the framework property {@value #MINIMUM}, set from the same macro as the bndrun's {@code -runee}. This
 * class is compiled for Java 8, so that it loads on the Java it refuses.
 */
public final class JavaVersionCheck implements BundleActivator {
    /** The framework property holding the oldest Java feature release the bundles run on, for example {@code 21}. */
    public static final String MINIMUM = "ringlab.java.minimum";

    /**
     * When the bnd launcher starts this activator (its {@code EmbeddedActivatorPhase}, read from this field by name): as
     * soon as the framework is initialised, before any bundle is installed or started. Started after the bundles, as
     * activators are by default, it came after a page of resolution errors, one per bundle.
     */
    public static final String IMMEDIATE = "AFTER_FRAMEWORK_INIT";

    /** The exit status when the Java is too old (as for a command line the tool cannot run). */
    static final int TOO_OLD = 2;

    @Override
    public void start(BundleContext context) {
        String message = refusal(System.getProperty("java.specification.version"), context.getProperty(MINIMUM),
                System.getProperty("java.home"));
        if (message != null) {
            System.err.println(message);
            System.err.flush();
            Runtime.getRuntime().halt(TOO_OLD); // nothing of Ringlab has started: no shutdown work to wait for
        }
    }

    @Override
    public void stop(BundleContext context) {
    }

    /**
     * @param specification {@code java.specification.version}: {@code 1.8} up to Java 8, then the feature release
     * @param minimum the framework property {@value #MINIMUM}, or null when the launch does not ask for one
     * @param javaHome {@code java.home}, named in the message
     * @return the message refusing this Java, or null when it is new enough (or either version cannot be read)
     */
    static String refusal(String specification, String minimum, String javaHome) {
        int have = feature(specification);
        int need = feature(minimum);
        if (have < 0 || need < 0 || have >= need) {
            return null;
        }
        return "ringlab: this is Java " + have + " (" + javaHome + "); Ringlab needs Java " + need + " or newer.\n"
                + "  Start it with ./ringlab, which finds a JDK " + need + "+ under JAVA_HOME or /usr/lib/jvm, or run the jar"
                + " with the java of a JDK " + need + " or newer (for example Eclipse Temurin " + need + ").";
    }

    /** @return the feature release of {@code 1.8}, {@code 17} or {@code 21.0.2}, or -1 when it is not a version */
    static int feature(String version) {
        if (version == null) {
            return -1;
        }
        String v = version.trim();
        if (v.startsWith("1.")) {
            v = v.substring(2);
        }
        int end = 0;
        while (end < v.length() && Character.isDigit(v.charAt(end))) {
            end++;
        }
        if (end == 0 || end > 4) {
            return -1;
        }
        return Integer.parseInt(v.substring(0, end));
    }
}
