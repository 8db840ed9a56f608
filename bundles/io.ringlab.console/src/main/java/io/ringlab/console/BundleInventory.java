package io.ringlab.console;

import java.util.ArrayList;
import java.util.List;

import org.osgi.framework.Bundle;
import org.osgi.framework.InvalidSyntaxException;
import org.osgi.framework.ServiceReference;

import io.ringlab.sim.api.dto.PipelineDTO;

/**
 * The bundles installed here that a pipeline needs and Ringlab does not ship: what the Separate-process default and a
 * child process's class path are made of ({@link ThirdPartyBundle}).
 */
final class BundleInventory {
    private final ConsoleContext context;

    BundleInventory(ConsoleContext context) {
        this.context = context;
    }

    /** @return the bundles of the pipeline's element types that are not Ringlab's own, with their locations here */
    List<ThirdPartyBundle> thirdParty(PipelineDTO p) {
        return ThirdPartyBundle.of(p, context.simulator().elementTypes(), this::location);
    }

    /**
     * @return what a child process needs that is not Ringlab's own: the bundles of the pipeline's element types, then
     *         every bundle providing a pool kind, a qdisc kind or queue limits (the pipeline does not say which kinds its
     *         elements use, so all of them: the child installs them and uses what it needs)
     */
    List<ThirdPartyBundle> forAChild(PipelineDTO p) {
        return ThirdPartyBundle.forAChild(thirdParty(p), this::providers);
    }

    /** @return the bundles that register a service of that class, as they are installed here */
    private List<ThirdPartyBundle> providers(String service) {
        List<ThirdPartyBundle> out = new ArrayList<>();
        try {
            ServiceReference<?>[] refs = context.bundleContext().getServiceReferences(service, null);
            for (ServiceReference<?> r : refs == null ? new ServiceReference<?>[0] : refs) {
                Bundle b = r.getBundle();
                if (b != null) { // null: unregistered meanwhile
                    out.add(new ThirdPartyBundle(b.getSymbolicName(), b.getVersion().toString(), b.getLocation()));
                }
            }
        } catch (InvalidSyntaxException e) {
            throw new IllegalStateException(e); // no filter: cannot happen
        }
        return out;
    }

    /** @return the location of the installed bundle with that symbolic name and version, or {@code null} */
    private String location(String symbolicName, String version) {
        for (Bundle b : context.bundleContext().getBundles()) {
            if (symbolicName.equals(b.getSymbolicName()) && version.equals(b.getVersion().toString())) {
                return b.getLocation();
            }
        }
        return null;
    }
}
