package io.ringlab.console;

import java.util.Collection;
import java.util.Collections;
import java.util.IdentityHashMap;
import java.util.LinkedHashSet;
import java.util.List;
import java.util.Objects;
import java.util.Set;
import java.util.function.Consumer;

import io.ringlab.sim.api.dto.ConnectionDTO;

/**
 * What is selected in the pipeline editor: element names in selection order, and connections by identity (two
 * connections between the same ports are two). When the single selected element changes, the listener is told (the
 * properties form follows it) and the name is published ({@link io.ringlab.console.api.ConsoleService#SELECTION_DATA}).
 * SWT-free; UI thread only.
 */
final class EditorSelection {
    private final Set<String> elements = new LinkedHashSet<>();
    private final Set<ConnectionDTO> links = Collections.newSetFromMap(new IdentityHashMap<>());
    private final Consumer<String> publish;
    private Consumer<String> listener = name -> {
    };
    private String notified;

    /** @param publish takes the single selected element (or {@code null}) each time the selection may have changed */
    EditorSelection(Consumer<String> publish) {
        this.publish = publish;
    }

    /** @param l told the single selected element's name, or {@code null}, when it changes */
    void onChange(Consumer<String> l) {
        listener = l;
    }

    /** Selects nothing. */
    void clear() {
        elements.clear();
        links.clear();
    }

    /** @param element selected alone from now */
    void only(String element) {
        clear();
        elements.add(element);
    }

    /** @param element the only element selected from now; the selected connections stay selected */
    void onlyElement(String element) {
        elements.clear();
        elements.add(element);
    }

    /** @param element selected if it was not, unselected if it was */
    void toggle(String element) {
        if (!elements.remove(element)) {
            elements.add(element);
        }
    }

    /** @param link selected if it was not, unselected if it was */
    void toggle(ConnectionDTO link) {
        if (!links.remove(link)) {
            links.add(link);
        }
    }

    /** @param names selected too */
    void addAll(Collection<String> names) {
        elements.addAll(names);
    }

    /** @param connections selected too */
    void addLinks(Collection<ConnectionDTO> connections) {
        links.addAll(connections);
    }

    /** @return whether the element is selected */
    boolean has(String element) {
        return elements.contains(element);
    }

    /** @return whether the connection (this very object) is selected */
    boolean has(ConnectionDTO link) {
        return links.contains(link);
    }

    /** @return the selected element names, live, in selection order */
    Set<String> elements() {
        return elements;
    }

    /** @return the selected element names now, a copy in selection order */
    List<String> elementsNow() {
        return List.copyOf(elements);
    }

    /** @return the selected connections now, a copy */
    List<ConnectionDTO> linksNow() {
        return List.copyOf(links);
    }

    /** @return how many connections are selected */
    int linkCount() {
        return links.size();
    }

    /**
     * Forgets what the pipeline no longer has: elements by name, connections by identity.
     *
     * @param m the pipeline as it is now
     */
    void keepOnly(EditablePipeline m) {
        elements.removeIf(n -> m.element(n) == null);
        links.removeIf(c -> m.connections().stream().noneMatch(k -> k == c));
    }

    /** @return the one selected element, or {@code null} when none or several are selected */
    String single() {
        return elements.size() == 1 ? elements.iterator().next() : null;
    }

    /** Publishes the single selection and tells the listener if it changed. */
    void changed() {
        String now = single();
        publish.accept(now);
        if (!Objects.equals(now, notified)) {
            notified = now;
            listener.accept(now);
        }
    }
}
