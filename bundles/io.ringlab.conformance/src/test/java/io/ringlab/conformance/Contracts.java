package io.ringlab.conformance;

import java.util.Map;
import java.util.TreeMap;

import org.junit.platform.engine.discovery.DiscoverySelectors;
import org.junit.platform.engine.support.descriptor.MethodSource;
import org.junit.platform.launcher.LauncherDiscoveryRequest;
import org.junit.platform.launcher.core.LauncherDiscoveryRequestBuilder;
import org.junit.platform.launcher.core.LauncherFactory;
import org.junit.platform.launcher.listeners.SummaryGeneratingListener;
import org.junit.platform.launcher.listeners.TestExecutionSummary;

/** Runs a contract's subclass with the JUnit Platform launcher, as a third party's build would, and reports each check. */
final class Contracts {
    private Contracts() {
    }

    /** What running a contract class gave. */
    record Outcome(long succeeded, long skipped, Map<String, Throwable> failures) {
    }

    static Outcome run(Class<?> contract) {
        LauncherDiscoveryRequest request = LauncherDiscoveryRequestBuilder.request()
                .selectors(DiscoverySelectors.selectClass(contract)).build();
        SummaryGeneratingListener listener = new SummaryGeneratingListener();
        LauncherFactory.create().execute(request, listener);
        TestExecutionSummary summary = listener.getSummary();
        Map<String, Throwable> failures = new TreeMap<>();
        for (TestExecutionSummary.Failure f : summary.getFailures()) {
            String name = f.getTestIdentifier().getSource().filter(MethodSource.class::isInstance)
                    .map(s -> ((MethodSource) s).getMethodName()).orElse(f.getTestIdentifier().getDisplayName());
            failures.put(name, f.getException());
        }
        return new Outcome(summary.getTestsSucceededCount(), summary.getTestsSkippedCount() + summary.getTestsAbortedCount(),
                failures);
    }
}
