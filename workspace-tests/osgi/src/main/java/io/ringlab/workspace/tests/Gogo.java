package io.ringlab.workspace.tests;

import static org.junit.jupiter.api.Assertions.assertTrue;

import java.io.ByteArrayOutputStream;
import java.io.PrintStream;
import java.lang.reflect.InvocationTargetException;
import java.nio.charset.StandardCharsets;

import org.osgi.framework.BundleContext;
import org.osgi.framework.ServiceReference;

/** Runs {@code ringlab} commands in the framework through the cli bundle's Gogo commands, capturing what they print. */
final class Gogo {
    /** Output and exit code of one command. */
    record Result(int code, String out, String err) {
        String all() {
            return out + err;
        }
    }

    private Gogo() {
    }

    /**
     * The cli bundle exports nothing, so the function is called by reflection on its service, as the Gogo shell does.
     * Standard output and error are the process's for the call: not for tests that run in parallel.
     */
    static Result ringlab(BundleContext context, String command, String... args) throws Exception {
        ServiceReference<?>[] refs = context.getServiceReferences("io.ringlab.cli.GogoCommands", null);
        assertTrue(refs != null && refs.length == 1, "the cli bundle's Gogo commands");
        Object commands = context.getService(refs[0]);
        ByteArrayOutputStream out = new ByteArrayOutputStream();
        ByteArrayOutputStream err = new ByteArrayOutputStream();
        PrintStream stdout = System.out;
        PrintStream stderr = System.err;
        System.setOut(new PrintStream(out, true, StandardCharsets.UTF_8));
        System.setErr(new PrintStream(err, true, StandardCharsets.UTF_8));
        try {
            int code = (Integer) commands.getClass().getMethod(command, String[].class).invoke(commands, (Object) args);
            return new Result(code, out.toString(StandardCharsets.UTF_8), err.toString(StandardCharsets.UTF_8));
        } catch (InvocationTargetException e) {
            throw (Exception) e.getCause();
        } finally {
            System.setOut(stdout);
            System.setErr(stderr);
            context.ungetService(refs[0]);
        }
    }
}
