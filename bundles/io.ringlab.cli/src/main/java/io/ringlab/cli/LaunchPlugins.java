package io.ringlab.cli;

import java.io.File;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;

import org.osgi.framework.BundleContext;
import org.osgi.service.component.annotations.Activate;
import org.osgi.service.component.annotations.Component;
import org.osgi.service.component.annotations.Reference;
import org.osgi.service.component.annotations.ReferenceCardinality;
import org.osgi.service.component.annotations.ReferencePolicy;
import org.osgi.service.component.runtime.ServiceComponentRuntime;

/**
 * {@code --plugins DIR} of the interactive launches ({@code ringlab gui}, {@code ringlab shell}): the launcher script
 * passes the folders as the framework property {@value #PROPERTY} (separated by the platform's path separator), and this
 * component installs and starts their bundles at startup, for the whole session, on a thread of its own so that Declarative
 * Services is not held up. What cannot be used is reported on standard error with each jar and what it misses; the
 * session goes on without it. The command line's own {@code --plugins} ({@code run}, {@code ab}, {@code bench},
 * {@code elements}, {@code pools}) is the option itself, which waits before the command goes on.
 */
@Component(service = {}, immediate = true)
public class LaunchPlugins {
    /** Framework property naming the folders, set by the launcher script. */
    static final String PROPERTY = "ringlab.plugins";

    /** Declarative Services' runtime: tells why a plugin's component is not up. */
    @Reference(cardinality = ReferenceCardinality.OPTIONAL, policy = ReferencePolicy.DYNAMIC)
    volatile ServiceComponentRuntime scr;

    @Activate
    void activate(BundleContext bc) {
        String value = bc.getProperty(PROPERTY);
        if (value == null || value.isBlank()) {
            return;
        }
        List<Path> folders = new ArrayList<>();
        for (String f : value.split(File.pathSeparator)) {
            if (!f.isBlank()) {
                folders.add(Path.of(f.strip()));
            }
        }
        Thread t = new Thread(() -> {
            try {
                PluginLoader.Session s = new FrameworkPluginLoader(bc, () -> scr).install(folders);
                s.notes().forEach(n -> System.err.println("ringlab: --plugins: " + n));
            } catch (PluginLoader.PluginException e) {
                e.getMessage().lines().forEach(l -> System.err.println("ringlab: --plugins: " + l));
            } catch (IllegalStateException e) {
                // the framework stopped while the bundles were installed
            }
        }, "ringlab-plugins");
        t.setDaemon(true);
        t.start();
    }
}
