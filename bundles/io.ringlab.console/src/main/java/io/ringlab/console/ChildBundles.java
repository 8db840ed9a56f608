package io.ringlab.console;

import java.io.IOException;
import java.net.URI;
import java.nio.file.FileSystemNotFoundException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.StandardCopyOption;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.regex.Pattern;

/**
 * The jars a separate-process run's child gets copies of ({@link IsolatedRun}): every bundle not Ringlab's own that
 * provides one of the pipeline's element types, pool kinds, qdisc kinds or queue limits ({@link ThirdPartyBundle#of}),
 * unless its jar is in a folder the child installs by itself ({@link ChildCommand#childFolders}). A bundle whose location
 * is not a jar file cannot be copied: a required one is a problem that fails the run before the child starts, saying
 * which bundle and why; a kind provider the run may not use is left out. Immutable.
 */
final class ChildBundles {
    /**
     * Location prefixes that wrap a file location: Felix's {@code reference:} (install in place), and the one Ringlab's
     * own {@code --plugins} installs use ({@code io.ringlab.cli}'s {@code FrameworkPluginLoader.LOCATION_PREFIX}).
     */
    private static final List<String> LOCATION_WRAPPERS = List.of("reference:", "ringlab-plugins:");
    /** A URL scheme of two letters or more (one letter is a Windows drive). */
    private static final Pattern SCHEME = Pattern.compile("^[A-Za-z][A-Za-z0-9+.-]+:");

    private final Path home;
    private final List<ThirdPartyBundle> bundles;

    /**
     * @param home the Ringlab installation, whose {@code plugins} folder the child installs by itself
     * @param bundles the bundles not Ringlab's own that the run may need
     */
    ChildBundles(Path home, List<ThirdPartyBundle> bundles) {
        this.home = home;
        this.bundles = List.copyOf(bundles);
    }

    /**
     * @param location a bundle location
     * @return the file it names (a {@code file:} URL or a path, possibly wrapped in {@link #LOCATION_WRAPPERS}), or
     *         {@code null} when it names no file (another URL scheme, or a name the installer chose)
     */
    static Path file(String location) {
        String l = location;
        for (String w : LOCATION_WRAPPERS) {
            if (l.startsWith(w)) {
                l = l.substring(w.length());
            }
        }
        try {
            if (l.startsWith("file:")) {
                return Path.of(URI.create(l));
            }
            return SCHEME.matcher(l).find() ? null : Path.of(l);
        } catch (IllegalArgumentException | FileSystemNotFoundException e) {
            return null; // not a well-formed file URL or path
        }
    }

    /**
     * Decides which bundles the child needs copies of: those whose jar is not in one of the child's own folders.
     *
     * @param problems receives one sentence per bundle that cannot be given to the child, saying why
     * @return the jars to copy, by bundle, in the order of the bundles; empty when the child has them all
     */
    Map<ThirdPartyBundle, Path> jarsToGive(List<String> problems) {
        Map<ThirdPartyBundle, Path> out = new LinkedHashMap<>();
        for (ThirdPartyBundle b : bundles) {
            String why = whyNotCopyable(b);
            if (why != null) {
                if (b.required()) { // a kind provider the run may not use is left out: a run that needs it says so
                    problems.add("bundle " + b.label() + " cannot be given to a separate process: " + why);
                }
            } else if (!inChildFolder(file(b.location()))) {
                out.put(b, file(b.location()));
            }
        }
        return out;
    }

    /** @return why the bundle's jar cannot be copied, or {@code null} when its location is a jar file that exists */
    private static String whyNotCopyable(ThirdPartyBundle b) {
        if (b.location() == null) {
            return "it is no longer installed in the console";
        }
        Path jar = file(b.location());
        if (jar == null) {
            return "its location " + b.location() + " is not a file (only a file: URL or a path can be copied)";
        }
        if (!Files.isRegularFile(jar)) {
            return "its jar " + jar + (Files.exists(jar) ? " is not a file (a folder cannot be copied as a bundle)"
                    : " is not there any more");
        }
        return null;
    }

    private boolean inChildFolder(Path jar) {
        Path parent = jar.toAbsolutePath().normalize().getParent();
        for (Path f : ChildCommand.childFolders(home)) {
            Path folder = f.toAbsolutePath().normalize();
            try {
                if (parent.equals(folder) || Files.isDirectory(folder) && Files.isSameFile(parent, folder)) {
                    return true;
                }
            } catch (IOException e) {
                // cannot compare: copy the jar, which is at worst one install the child skips
            }
        }
        return false;
    }

    /**
     * Copies the jars the child needs ({@link #jarsToGive}) into {@code folder}, one {@code NAME-VERSION.jar} per bundle.
     *
     * @param folder a folder to create, used for no other files
     * @param problems receives the bundles that cannot be given, as {@link #jarsToGive} says
     * @return {@code folder}, or {@code null} when there is nothing to copy or something cannot be given
     * @throws IOException when a copy fails
     */
    Path give(Path folder, List<String> problems) throws IOException {
        Map<ThirdPartyBundle, Path> jars = jarsToGive(problems);
        if (jars.isEmpty() || !problems.isEmpty()) {
            return null;
        }
        Files.createDirectories(folder);
        for (Map.Entry<ThirdPartyBundle, Path> e : jars.entrySet()) {
            ThirdPartyBundle b = e.getKey();
            Files.copy(e.getValue(), folder.resolve(b.symbolicName() + "-" + b.version() + ".jar"),
                    StandardCopyOption.REPLACE_EXISTING);
        }
        return folder;
    }
}
