package io.ringlab.console;

import java.util.ArrayList;
import java.util.Collection;
import java.util.HashMap;
import java.util.LinkedHashMap;
import java.util.LinkedHashSet;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.regex.Pattern;

import io.ringlab.pipeline.format.PipelineCopy;
import io.ringlab.sim.api.dto.ConnectionDTO;
import io.ringlab.sim.api.dto.ElementDescriptorDTO;
import io.ringlab.sim.api.dto.ElementSpecDTO;
import io.ringlab.sim.api.dto.PipelineDTO;
import io.ringlab.sim.api.dto.PortDescriptorDTO.Direction;
import io.ringlab.sim.api.dto.ValueDTO;

/**
 * The pipeline the canvas editor edits: a private copy of a {@link PipelineDTO} with a position for every element, changed
 * only through commands (add, move, connect, delete, rename, arrange) on a {@link CommandStack}, so every edit can be
 * undone and redone and the model knows whether it differs from its file.
 * <p>
 * What is not edited here stays as read: the header keys, the properties and their value forms, the order of elements
 * and connections, and the port names a connection was written with. {@link #pipeline()} gives a copy to save or run:
 * the same semantics as the file plus a layout entry for every element, in element order. Positions of elements the
 * file's layout block did not place come from {@link PipelineLayout}.
 * <p>
 * Not thread-safe: the UI thread owns it. No SWT. Listeners run after every change, undo and redo.
 */
final class EditablePipeline {
    /** The format's element name pattern ({@code docs/pipeline-format.md}). */
    static final Pattern NAME = Pattern.compile("[A-Za-z][A-Za-z0-9_-]*");

    private final PipelineDTO p;
    private final Map<String, double[]> at = new LinkedHashMap<>();
    private final CommandStack stack = new CommandStack();
    private final List<Runnable> listeners = new ArrayList<>();
    private Map<String, ElementDescriptorDTO> types = Map.of();

    /**
     * @param source the pipeline as read; copied, never changed; never {@code null}
     * @param installed the installed element types (for ports); never {@code null}
     */
    EditablePipeline(PipelineDTO source, Collection<ElementDescriptorDTO> installed) {
        this.p = PipelineCopy.of(source);
        Map<String, int[]> computed = PipelineLayout.of(source);
        for (ElementSpecDTO e : p.elements) {
            double[] fixed = source.layout.get(e.name);
            int[] c = computed.get(e.name);
            at.put(e.name, fixed != null && fixed.length == 2 ? fixed.clone() : new double[] { c[0], c[1] });
        }
        p.layout.clear();
        setTypes(installed);
    }

    /** The name of a pipeline File > New made, until it is saved under a name of the user's. */
    static final String UNTITLED = "untitled";

    /** @return a new, empty pipeline named {@code untitled}, with no file */
    static EditablePipeline untitled(Collection<ElementDescriptorDTO> installed) {
        PipelineDTO p = new PipelineDTO();
        p.file = UNTITLED + ".pipeline";
        p.name = UNTITLED;
        return new EditablePipeline(p, installed);
    }

    /** Replaces the installed types (a bundle came or went); not an edit. */
    void setTypes(Collection<ElementDescriptorDTO> installed) {
        Map<String, ElementDescriptorDTO> m = new HashMap<>();
        for (ElementDescriptorDTO d : installed) {
            m.put(d.type, d);
        }
        types = m;
    }

    void addListener(Runnable r) {
        listeners.add(r);
    }

    // ------------------------------------------------------------------ reading

    /** @return the elements in file order; live, do not change */
    List<ElementSpecDTO> elements() {
        return p.elements;
    }

    /** @return the connections in file order; live, do not change */
    List<ConnectionDTO> connections() {
        return p.connections;
    }

    /** @return the element's {x, y} in canvas units (live), or {@code null} if there is no such element */
    double[] position(String element) {
        return at.get(element);
    }

    /** @return the element's type descriptor, or {@code null} if the element or its type is unknown */
    ElementDescriptorDTO descriptor(String element) {
        ElementSpecDTO e = element(element);
        return e == null ? null : types.get(e.type);
    }

    /** @return the element spec, or {@code null} */
    ElementSpecDTO element(String name) {
        for (ElementSpecDTO e : p.elements) {
            if (e.name.equals(name)) {
                return e;
            }
        }
        return null;
    }

    /** @return the pipeline's name; never {@code null} */
    String name() {
        return p.name != null ? p.name : "untitled";
    }

    /**
     * @return a deep copy to save or run: the semantics as read and edited, and a layout entry for every element in
     *         element order; never {@code null}
     */
    PipelineDTO pipeline() {
        PipelineDTO c = PipelineCopy.of(p);
        for (ElementSpecDTO e : c.elements) {
            c.layout.put(e.name, at.get(e.name).clone());
        }
        return c;
    }

    /** @return whether the pipeline differs from its file (or, untitled, was edited) */
    boolean dirty() {
        return stack.dirty();
    }

    /**
     * Records that the pipeline was saved.
     *
     * @param saved what was written (its {@link PipelineDTO#file} and {@link PipelineDTO#name} become this model's)
     */
    void saved(PipelineDTO saved) {
        p.file = saved.file;
        p.name = saved.name;
        stack.markSaved();
        fire();
    }

    /** @return the file name the pipeline was read from or saved to ({@link PipelineDTO#file}) */
    String file() {
        return p.file;
    }

    /**
     * Moves elements without a command, for the feedback of a drag: the view shows boxes where the mouse is, then takes
     * the preview back and commits one {@link #move}. Listeners are not told.
     */
    void preview(Collection<String> names, double dx, double dy) {
        for (String n : names) {
            double[] xy = at.get(n);
            if (xy != null) {
                xy[0] += dx;
                xy[1] += dy;
            }
        }
    }

    boolean undo() {
        boolean b = stack.undo();
        fire();
        return b;
    }

    boolean redo() {
        boolean b = stack.redo();
        fire();
        return b;
    }

    String undoLabel() {
        return stack.undoLabel();
    }

    String redoLabel() {
        return stack.redoLabel();
    }

    // ------------------------------------------------------------------ edits

    /**
     * Adds an element of a type with a new unique name: the type (dots as {@code _}) and the first free number.
     *
     * @return the new element's name
     */
    String add(String type, double x, double y) {
        String base = type.replace('.', '_');
        if (!NAME.matcher(base).matches()) {
            base = "e" + base;
        }
        int n = 1;
        while (element(base + n) != null) {
            n++;
        }
        ElementSpecDTO e = new ElementSpecDTO();
        e.type = type;
        e.name = base + n;
        run(new Command("Add " + e.name) {
            @Override
            public void apply() {
                p.elements.add(e);
                at.put(e.name, new double[] { x, y });
            }

            @Override
            public void revert() {
                p.elements.remove(e);
                at.remove(e.name);
            }
        });
        return e.name;
    }

    /** Moves elements by the same offset, as one command; unknown names are ignored; a zero offset does nothing. */
    void move(Collection<String> names, double dx, double dy) {
        List<String> known = names.stream().filter(at::containsKey).distinct().toList();
        if (known.isEmpty() || (dx == 0 && dy == 0)) {
            return;
        }
        run(new Command(known.size() == 1 ? "Move " + known.get(0) : "Move " + known.size() + " elements") {
            @Override
            public void apply() {
                shift(1);
            }

            @Override
            public void revert() {
                shift(-1);
            }

            private void shift(int sign) {
                for (String n : known) {
                    double[] xy = at.get(n);
                    xy[0] += sign * dx;
                    xy[1] += sign * dy;
                }
            }
        });
    }

    /** Sets the positions of the named elements (automatic layout), as one command. */
    void arrange(Map<String, double[]> positions) {
        Map<String, double[]> before = new HashMap<>();
        Map<String, double[]> after = new HashMap<>();
        positions.forEach((n, xy) -> {
            if (at.containsKey(n)) {
                before.put(n, at.get(n).clone());
                after.put(n, xy.clone());
            }
        });
        run(new Command("Auto layout") {
            @Override
            public void apply() {
                after.forEach((n, xy) -> at.put(n, xy.clone()));
            }

            @Override
            public void revert() {
                before.forEach((n, xy) -> at.put(n, xy.clone()));
            }
        });
    }

    /**
     * Connects two ports, if the engine's rules allow it ({@link ConnectionRules}). The connection names a port only where
     * it is not the element's first port of its direction (the file's default), so {@code src -> q} stays short.
     *
     * @param a the port the drag started on; must be the output
     * @param b the port the drag ended on; must be the input
     * @return why the connection is refused (the model is unchanged), or {@code null} if it was made
     */
    String connect(PortRef a, PortRef b) {
        String why = ConnectionRules.refusal(this::descriptor, p.connections, a, b);
        if (why != null) {
            return why;
        }
        ConnectionDTO c = new ConnectionDTO();
        c.from = a.element();
        c.fromPort = a.port().equals(ConnectionRules.portName(descriptor(a.element()), Direction.OUT, null)) ? null : a.port();
        c.to = b.element();
        c.toPort = b.port().equals(ConnectionRules.portName(descriptor(b.element()), Direction.IN, null)) ? null : b.port();
        run(new Command("Connect " + a + " -> " + b) {
            @Override
            public void apply() {
                p.connections.add(c);
            }

            @Override
            public void revert() {
                p.connections.remove(c);
            }
        });
        return null;
    }

    /**
     * Deletes elements (with every connection that touches them) and connections, as one command; undo puts each back
     * at its place in file order.
     *
     * @param names elements to delete; unknown names are ignored
     * @param links connections to delete (the instances of {@link #connections()}); others are ignored
     * @return whether anything was deleted
     */
    boolean delete(Collection<String> names, Collection<ConnectionDTO> links) {
        Set<String> gone = new LinkedHashSet<>();
        for (String n : names) {
            if (element(n) != null) {
                gone.add(n);
            }
        }
        List<Integer> elementIdx = new ArrayList<>();
        for (int i = 0; i < p.elements.size(); i++) {
            if (gone.contains(p.elements.get(i).name)) {
                elementIdx.add(i);
            }
        }
        List<Integer> linkIdx = new ArrayList<>();
        for (int i = 0; i < p.connections.size(); i++) {
            ConnectionDTO c = p.connections.get(i);
            if (gone.contains(c.from) || gone.contains(c.to) || links.stream().anyMatch(l -> l == c)) {
                linkIdx.add(i);
            }
        }
        if (elementIdx.isEmpty() && linkIdx.isEmpty()) {
            return false;
        }
        List<ElementSpecDTO> specs = elementIdx.stream().map(p.elements::get).toList();
        List<ConnectionDTO> conns = linkIdx.stream().map(p.connections::get).toList();
        Map<String, double[]> where = new HashMap<>();
        gone.forEach(n -> where.put(n, at.get(n)));
        String label = specs.size() == 1 && conns.isEmpty() ? "Delete " + specs.get(0).name
                : specs.isEmpty() ? "Delete " + conns.size() + " connection" + (conns.size() == 1 ? "" : "s")
                : "Delete " + specs.size() + " element" + (specs.size() == 1 ? "" : "s");
        run(new Command(label) {
            @Override
            public void apply() {
                p.elements.removeAll(specs);
                p.connections.removeIf(c -> conns.stream().anyMatch(k -> k == c));
                gone.forEach(at::remove);
            }

            @Override
            public void revert() {
                for (int k = 0; k < specs.size(); k++) { // ascending indices: each lands where it was
                    p.elements.add(elementIdx.get(k), specs.get(k));
                }
                for (int k = 0; k < conns.size(); k++) {
                    p.connections.add(linkIdx.get(k), conns.get(k));
                }
                // keep the element order in the position map too, so a saved layout lists elements in file order
                Map<String, double[]> old = new LinkedHashMap<>(at);
                old.putAll(where);
                at.clear();
                for (ElementSpecDTO e : p.elements) {
                    at.put(e.name, old.get(e.name));
                }
            }
        });
        return true;
    }

    /**
     * Renames an element, in its connections, its layout entry, the headline and the plot list ({@code OLD.metric}) too.
     *
     * @return why the name is refused (the model is unchanged), or {@code null} if renamed (or unchanged)
     */
    String rename(String from, String to) {
        ElementSpecDTO e = element(from);
        if (e == null) {
            return "no element " + from;
        }
        if (from.equals(to)) {
            return null;
        }
        if (to == null || !NAME.matcher(to).matches()) {
            return "'" + to + "' is not an element name: a letter, then letters, digits, '_' or '-'";
        }
        if (element(to) != null) {
            return "an element named " + to + " already exists";
        }
        run(new Command("Rename " + from + " to " + to) {
            @Override
            public void apply() {
                change(from, to);
            }

            @Override
            public void revert() {
                change(to, from);
            }

            private void change(String a, String b) {
                e.name = b;
                for (ConnectionDTO c : p.connections) {
                    if (c.from.equals(a)) {
                        c.from = b;
                    }
                    if (c.to.equals(a)) {
                        c.to = b;
                    }
                }
                Map<String, double[]> old = new LinkedHashMap<>(at);
                at.clear();
                old.forEach((n, xy) -> at.put(n.equals(a) ? b : n, xy));
                if (p.headline != null && p.headline.text.startsWith(a + ".")) {
                    p.headline.text = b + p.headline.text.substring(a.length());
                }
                for (ValueDTO v : p.plot) {
                    if (v.text.startsWith(a + ".")) {
                        v.text = b + v.text.substring(a.length());
                    }
                }
            }
        });
        return null;
    }

    /**
     * Sets or removes a property of an element (an edit in its properties form), as one undoable command.
     *
     * @param element the element's name
     * @param property the property's name
     * @param value the new value, or {@code null} to remove the property so that its default applies
     * @throws IllegalArgumentException if there is no such element
     */
    void setProperty(String element, String property, ValueDTO value) {
        ElementSpecDTO e = element(element);
        if (e == null) {
            throw new IllegalArgumentException("no element " + element + " in pipeline " + name());
        }
        ValueDTO old = e.properties.get(property);
        if (old == null ? value == null : value != null && old.text.equals(value.text)) {
            return;
        }
        run(new Command((value == null ? "Reset " : "Set ") + element + "." + property) {
            @Override
            public void apply() {
                put(value);
            }

            @Override
            public void revert() {
                put(old);
            }

            private void put(ValueDTO v) {
                if (v == null) {
                    e.properties.remove(property);
                } else {
                    e.properties.put(property, v);
                }
            }
        });
    }

    /**
     * @return the pipeline being edited itself, not a copy, for views that read it live (the properties form, which
     *         writes through {@link #setProperty}); never to be changed directly
     */
    PipelineDTO live() {
        return p;
    }

    // ------------------------------------------------------------------ plumbing

    private abstract static class Command implements CommandStack.Command {
        private final String label;

        Command(String label) {
            this.label = label;
        }

        @Override
        public String label() {
            return label;
        }
    }

    private void run(Command c) {
        stack.execute(c);
        fire();
    }

    private void fire() {
        for (Runnable r : List.copyOf(listeners)) {
            r.run();
        }
    }
}
