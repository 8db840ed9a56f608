package io.ringlab.console;

import java.nio.file.Path;
import java.util.Hashtable;
import java.util.List;
import java.util.Map;
import java.util.concurrent.Callable;
import java.util.concurrent.CopyOnWriteArrayList;

import org.eclipse.swt.SWTError;
import org.eclipse.swt.widgets.Display;
import org.eclipse.swt.widgets.Shell;
import org.osgi.framework.BundleContext;
import org.osgi.framework.InvalidSyntaxException;
import org.osgi.framework.ServiceEvent;
import org.osgi.framework.ServiceListener;
import org.osgi.framework.ServiceReference;
import org.osgi.framework.ServiceRegistration;
import org.osgi.service.component.annotations.Activate;
import org.osgi.service.component.annotations.Component;
import org.osgi.service.component.annotations.Deactivate;
import org.osgi.service.component.annotations.Reference;
import org.osgi.service.component.annotations.ReferenceCardinality;
import org.osgi.service.component.annotations.ReferencePolicy;

import io.ringlab.console.api.ConsoleService;
import io.ringlab.experiment.api.ExperimentService;
import io.ringlab.sim.api.ElementFactory;
import io.ringlab.sim.api.Simulator;

/**
 * The console's OSGi face. Provides {@link ConsoleService}; where the framework property {@value #GUI_PROPERTY} is
 * {@code true} (app/console.bndrun) it also takes over the launcher's main thread, as the command line does with
 * {@code ringlab.main}: it registers a {@link Callable} with {@code main.thread=true}, the bnd launcher's contract, and
 * the launcher calls it on the JVM's main thread once the framework has started. The call creates the SWT display there,
 * opens a window with the file named by the first launcher argument, runs the event loop until the window closes, and
 * returns the exit code (0, or 1 when no display can be opened).
 * <p>
 * Palette updates: a {@link ServiceListener} on {@link ElementFactory} registrations tells open windows that the
 * element types changed; each window re-reads {@link Simulator#elementTypes()} a moment later on its UI thread.
 */
@Component(service = ConsoleService.class, immediate = true)
public class ConsoleComponent implements ConsoleService, Callable<Integer> {
    /** Framework property that makes this bundle open the console on the launcher's main thread. */
    static final String GUI_PROPERTY = "ringlab.gui";
    /** Framework or system property naming the install folder, whose {@code pipelines/} holds the samples. */
    static final String HOME_PROPERTY = "ringlab.home";

    @Reference
    Simulator simulator;

    /**
     * The A/B panel's experiments: optional and dynamic, so that the console opens without the experiment bundle (the
     * panel then says so) and follows it coming and going.
     */
    @Reference(cardinality = ReferenceCardinality.OPTIONAL, policy = ReferencePolicy.DYNAMIC)
    volatile ExperimentService experiments;

    /** The A/B panel's results databases: optional and dynamic as the experiments are. */
    @Reference(cardinality = ReferenceCardinality.OPTIONAL, policy = ReferencePolicy.DYNAMIC)
    volatile io.ringlab.experiment.api.ResultsService results;

    private BundleContext context;
    private ServiceRegistration<?> mainThread;
    private final List<ConsoleWindow> windows = new CopyOnWriteArrayList<>();

    @Activate
    void activate(BundleContext bc) {
        this.context = bc;
        if (Boolean.parseBoolean(bc.getProperty(GUI_PROPERTY))) {
            mainThread = bc.registerService(Callable.class, this, new Hashtable<>(Map.of("main.thread", "true")));
        }
    }

    @Deactivate
    void deactivate() {
        if (mainThread != null) {
            mainThread.unregister();
        }
        for (ConsoleWindow w : windows) { // the engine went away: close the windows on their own thread
            Shell s = w.shell();
            UiExecutor.later(w.display(), s, s::dispose);
        }
    }

    @Override
    public Shell open(Display display, Path pipeline) {
        ConsoleWindow w = new ConsoleWindow(context(), display);
        Shell shell = w.open(pipeline);
        windows.add(w);
        shell.addDisposeListener(e -> windows.remove(w));
        return shell;
    }

    private ConsoleContext context() {
        BundleContext bc = context;
        String home = bc.getProperty(HOME_PROPERTY);
        Path homePath = home == null || home.isBlank() ? null : Path.of(home).toAbsolutePath().normalize();
        return new ConsoleContext() {
            @Override
            public Simulator simulator() {
                return simulator;
            }

            @Override
            public ExperimentService experiments() {
                return experiments;
            }

            @Override
            public io.ringlab.experiment.api.ResultsService results() {
                return results;
            }

            @Override
            public AutoCloseable onElementTypesChanged(Runnable callback) {
                ServiceListener l = e -> {
                    if (e.getType() != ServiceEvent.MODIFIED) {
                        callback.run();
                    }
                };
                try {
                    bc.addServiceListener(l, "(objectClass=" + ElementFactory.class.getName() + ")");
                } catch (InvalidSyntaxException e) {
                    throw new IllegalStateException(e); // the filter is a constant
                }
                return () -> {
                    try {
                        bc.removeServiceListener(l);
                    } catch (IllegalStateException stopping) {
                        // the bundle is stopping: its listeners go with it
                    }
                };
            }

            @Override
            public Path home() {
                return homePath;
            }

            @Override
            public BundleContext bundleContext() {
                return bc;
            }
        };
    }

    /** The launcher's main thread: the console's UI thread. */
    @Override
    public Integer call() {
        String[] args = launcherArguments();
        Path file = args.length > 0 ? Path.of(args[0]) : null;
        Display display;
        try {
            display = new Display();
        } catch (SWTError e) {
            System.err.println("ringlab gui: cannot open a window: " + e.getMessage() + " (DISPLAY="
                    + System.getenv("DISPLAY") + "; without a screen, run it under xvfb-run)");
            return 1;
        }
        try {
            Shell shell = open(display, file);
            ConsoleWindow window = windows.isEmpty() ? null : windows.get(windows.size() - 1);
            while (!shell.isDisposed()) {
                try {
                    if (!display.readAndDispatch()) {
                        display.sleep();
                    }
                } catch (RuntimeException e) { // a bug in a handler must not end the console: report it, go on
                    e.printStackTrace();
                    if (window != null) {
                        window.internalError(e);
                    }
                }
            }
        } finally {
            display.dispose();
        }
        return 0;
    }

    private String[] launcherArguments() {
        try {
            ServiceReference<?>[] refs = context.getServiceReferences((String) null, "(launcher.arguments=*)");
            if (refs != null) {
                for (ServiceReference<?> r : refs) {
                    if (r.getProperty("launcher.arguments") instanceof String[] a) {
                        return a;
                    }
                }
            }
        } catch (InvalidSyntaxException e) {
            throw new IllegalStateException(e); // the filter is a constant
        }
        return new String[0];
    }
}
