package io.ringlab.workspace.tests;

import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;

import org.osgi.framework.BundleContext;

/** The command line of {@code app/target/ringlab.jar} of this checkout, for tests that run it in a process of its own. */
final class App {
    private App() {
    }

    /**
     * @param context the test bundle's context, whose {@code ringlab.home} is the checkout
     * @param dir a scratch folder; its {@code plugins} folder becomes the child's (empty) plug-in folder
     * @param args the {@code ringlab} arguments, for example {@code run FILE}
     * @return the command: this JVM's java, the jar, the arguments
     */
    static List<String> command(BundleContext context, Path dir, String... args) throws IOException {
        Path home = home(context);
        List<String> cmd = new ArrayList<>(List.of(ProcessHandle.current().info().command().orElse("java"),
                "--enable-native-access=ALL-UNNAMED", "-Dringlab.home=" + home,
                "-Dfelix.fileinstall.dir=" + Files.createDirectories(dir.resolve("plugins"))));
        if (Runtime.version().feature() >= 24) {
            cmd.add("--sun-misc-unsafe-memory-access=allow");
        }
        cmd.addAll(List.of("-jar", home.resolve("app/target/ringlab.jar").toString()));
        cmd.addAll(List.of(args));
        return cmd;
    }

    /** @return the checkout's folder */
    static Path home(BundleContext context) {
        return Path.of(context.getProperty("ringlab.home"));
    }
}
