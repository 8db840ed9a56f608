package io.ringlab.console;

import java.nio.file.Path;

import org.osgi.framework.BundleContext;

import io.ringlab.experiment.api.ExperimentService;
import io.ringlab.sim.api.Simulator;

/** What a console window needs from its surroundings (the OSGi component, or a test). Thread-safe. */
interface ConsoleContext {
    /** @return the engine; never {@code null} while the window is open. */
    Simulator simulator();

    /**
     * @return the experiment service for the A/B panel; {@code null} while none is registered (the bundle
     *         {@code io.ringlab.experiment} is not installed or not active): the rest of the console works without it
     */
    ExperimentService experiments();

    /**
     * @return the results databases' reader for the A/B panel's browser; {@code null} while none is registered (the
     *         bundle {@code io.ringlab.results} is not installed or not active)
     */
    io.ringlab.experiment.api.ResultsService results();

    /**
     * Registers a callback for changes of the installed element types (a bundle came or went).
     *
     * @param callback called on whatever thread the change happened on, so it must hop to the UI thread itself
     * @return closes the registration
     */
    AutoCloseable onElementTypesChanged(Runnable callback);

    /** @return the install folder ({@code ringlab.home}), where {@code pipelines/} holds the samples; {@code null} if unknown. */
    Path home();

    /** @return the console bundle's context, for the bundles view (install, update, uninstall, framework errors). */
    BundleContext bundleContext();
}
