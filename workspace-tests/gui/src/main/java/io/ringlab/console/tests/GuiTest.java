package io.ringlab.console.tests;

import org.eclipse.swt.widgets.Display;
import org.eclipse.swt.widgets.Shell;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.extension.ExtendWith;
import org.osgi.framework.BundleContext;
import org.osgi.test.common.annotation.InjectBundleContext;
import org.osgi.test.common.annotation.InjectService;
import org.osgi.test.junit5.context.BundleContextExtension;
import org.osgi.test.junit5.service.ServiceExtension;

import io.ringlab.console.api.ConsoleService;
import io.ringlab.sim.api.Simulator;

/**
 * What every GUI test class shares: the one test display ({@link Gui#display()}), the console and engine services
 * inside the framework, the window under test, and its teardown.
 */
@ExtendWith({ BundleContextExtension.class, ServiceExtension.class })
abstract class GuiTest {
    static Display display;
    static Gui gui;

    @InjectBundleContext
    BundleContext context;

    @InjectService
    ConsoleService console;

    @InjectService
    Simulator simulator;

    /** The window the test opened, or {@code null}. */
    Shell shell;

    @BeforeAll
    static void openDisplay() {
        display = Gui.display();
        gui = new Gui(display);
    }

    /** Each test opens the window's default layout: no layout remembered from another test. */
    @org.junit.jupiter.api.BeforeEach
    void forgetTheLayout() throws Exception {
        String f = context.getProperty("ringlab.console.state");
        org.junit.jupiter.api.Assertions.assertNotNull(f, "ringlab.console.state is not set");
        java.nio.file.Files.deleteIfExists(java.nio.file.Path.of(f));
    }

    /**
     * Closes any error dialog, then disposes the window: not close(), which asks to save a dirty pipeline and would block
     * a test that edited one or failed half-way.
     */
    @AfterEach
    void closeWindow() {
        for (Shell s : gui.errorDialogs()) {
            s.close();
        }
        if (shell != null && !shell.isDisposed()) {
            shell.dispose();
        }
        gui.settle();
    }
}
