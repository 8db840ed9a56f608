package io.ringlab.cli;

import java.nio.file.Path;
import java.util.Hashtable;
import java.util.Map;
import java.util.concurrent.Callable;

import org.osgi.framework.BundleContext;
import org.osgi.framework.InvalidSyntaxException;
import org.osgi.framework.ServiceReference;
import org.osgi.framework.ServiceRegistration;
import org.osgi.service.component.annotations.Deactivate;
import org.osgi.service.component.annotations.Activate;
import org.osgi.service.component.annotations.Component;
import org.osgi.service.component.annotations.Reference;
import org.osgi.service.component.annotations.ReferenceCardinality;
import org.osgi.service.component.annotations.ReferencePolicy;
import org.osgi.service.component.runtime.ServiceComponentRuntime;

import io.ringlab.experiment.api.ClusterService;
import io.ringlab.experiment.api.ExperimentService;
import io.ringlab.experiment.api.ResultsService;
import io.ringlab.sim.api.Simulator;

/**
 * Takes over the launcher's main thread ({@code main.thread=true}, the bnd launcher's contract) and runs the command line
 * given in the launcher service's {@code launcher.arguments}; the return value is the process's exit code. It does so only
 * where the framework property {@code ringlab.main=true} is set (the app's bndruns), so that other launches of the same
 * bundles (the OSGi test runner, which needs the main thread itself) are left alone.
 */
@Component(service = {}, immediate = true)
public class MainComponent implements Callable<Integer> {
    /** Framework property that makes this bundle the launcher's main program. */
    static final String MAIN_PROPERTY = "ringlab.main";

    @Reference
    Simulator simulator;
    @Reference
    ExperimentService experiments;
    @Reference
    ResultsService results;
    /** The cluster ({@code ringlab worker}, {@code ab --cluster}); optional, and nothing of Hazelcast loads until used. */
    @Reference(cardinality = ReferenceCardinality.OPTIONAL, policy = ReferencePolicy.DYNAMIC)
    volatile ClusterService cluster;
    /** Declarative Services' runtime: tells {@code --plugins} why a plugin's component is not up. */
    @Reference(cardinality = ReferenceCardinality.OPTIONAL, policy = ReferencePolicy.DYNAMIC)
    volatile ServiceComponentRuntime scr;

    private BundleContext context;

    private ServiceRegistration<?> registration;

    @Activate
    void activate(BundleContext bc) {
        this.context = bc;
        if (Boolean.parseBoolean(bc.getProperty(MAIN_PROPERTY))) {
            registration = bc.registerService(Callable.class, this, new Hashtable<>(Map.of("main.thread", "true")));
        }
    }

    @Deactivate
    void deactivate() {
        if (registration != null) {
            registration.unregister();
        }
    }

    @Override
    public Integer call() {
        String[] args = launcherArguments();
        Path home = Path.of(System.getProperty("ringlab.home", "."));
        Runner runner = new Runner(simulator, experiments, results, new FrameworkPluginLoader(context, () -> scr));
        runner.cluster = () -> cluster;
        return Commands.execute(runner, System.out, System.err, home, args);
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
            throw new IllegalStateException(e);
        }
        return new String[0];
    }
}
