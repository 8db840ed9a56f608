package io.ringlab.cli;

import java.nio.file.Path;
import java.util.List;

/**
 * Plugin folders for one command ({@code --plugins DIR}): the bundles in them are installed and started before the
 * command reads its pipeline, and uninstalled when it ends. {@link FrameworkPluginLoader} is the OSGi implementation.
 */
interface PluginLoader {

    /** Refuses every folder: for a command line without an OSGi framework behind it. */
    PluginLoader NONE = folders -> {
        throw new PluginException("--plugins needs the OSGi runtime (ringlab run, ab, bench or the Gogo shell)");
    };

    /**
     * Installs and starts every {@code *.jar} of the folders and waits, bounded, until the components of those bundles
     * are up (their element factories registered).
     *
     * @param folders the folders, in command-line order; may be empty (nothing is installed)
     * @return what was installed; closing it uninstalls those bundles again
     * @throws PluginException naming each jar that was refused and why (what it misses), after uninstalling what this
     *         call installed
     */
    Session install(List<Path> folders) throws PluginException;

    /** The bundles one {@link #install} call installed. */
    interface Session extends AutoCloseable {
        /** Nothing installed. */
        Session EMPTY = () -> {
        };

        /** @return what the caller should be told (a bundle installed already and used as it is); never {@code null} */
        default List<String> notes() {
            return List.of();
        }

        /** Uninstalls the bundles, newest first; never throws. */
        @Override
        void close();
    }

    /** The bundles of a plugin folder cannot be used: the message names each jar and its problem, one per line. */
    final class PluginException extends Exception {
        private static final long serialVersionUID = 1L;

        PluginException(String message) {
            super(message);
        }
    }
}
