package io.ringlab.console;

import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.function.Consumer;
import java.util.stream.Stream;

import org.eclipse.jface.viewers.ITreeContentProvider;
import org.eclipse.jface.viewers.LabelProvider;
import org.eclipse.jface.viewers.TreeViewer;
import org.eclipse.swt.SWT;
import org.eclipse.swt.custom.SashForm;
import org.eclipse.swt.layout.GridData;
import org.eclipse.swt.widgets.Composite;
import org.eclipse.swt.widgets.Display;
import org.eclipse.swt.widgets.Group;

import io.ringlab.console.api.ConsoleService;
import io.ringlab.sim.api.dto.ElementDescriptorDTO;

/**
 * The window's left side: the palette of installed element types by category (a drag source for the editor), kept up
 * to date as bundles come and go, and the sample pipelines of ringlab.home, which a click opens.
 * <p>
 * Threads: element type changes come on a framework thread and are handed to the UI thread ({@link UiExecutor}), where
 * a refresh {@value #PALETTE_REFRESH_MILLIS} ms later shows them (a burst of changes is one refresh).
 */
final class PaletteView {
    /** Delay between an element type change and the palette's refresh (the engine learns of it in the same dispatch). */
    static final int PALETTE_REFRESH_MILLIS = 250;

    /** Told, on the UI thread, which element types are installed whenever they changed (and once at the start). */
    interface TypesChanged {
        /**
         * @param installed every installed element type
         * @param categoryOfType each type's palette category
         */
        void changed(List<ElementDescriptorDTO> installed, Map<String, String> categoryOfType);
    }

    private final ConsoleContext context;
    private final Display display;
    private final Feedback feedback;
    private final TypesChanged onTypes;
    private Composite root;
    private TreeViewer palette;
    private org.eclipse.swt.widgets.List samples;
    private final List<Path> sampleFiles = new ArrayList<>();
    private String paletteSignature = "";
    private Map<String, String> categoryOfType = Map.of();
    private AutoCloseable typesSubscription;
    private final Runnable refreshTask = this::refresh;

    PaletteView(Composite parent, ConsoleContext context, Display display, Feedback feedback, Consumer<Path> open,
            TypesChanged onTypes) {
        this.context = context;
        this.display = display;
        this.feedback = feedback;
        this.onTypes = onTypes;
        SashForm left = new SashForm(parent, SWT.VERTICAL);
        Group types = ConsoleWindow.group(left, "Element types");
        palette = new TreeViewer(types, SWT.BORDER | SWT.SINGLE | SWT.V_SCROLL | SWT.H_SCROLL);
        ConsoleWindow.id(palette.getTree(), ConsoleService.ID_PALETTE);
        palette.getTree().setLayoutData(new GridData(SWT.FILL, SWT.FILL, true, true));
        palette.setContentProvider(new PaletteContent());
        palette.setLabelProvider(new LabelProvider() {
            @Override
            public String getText(Object o) {
                return o instanceof ElementDescriptorDTO d ? PaletteModel.label(d) : o instanceof Category c ? c.label() : String.valueOf(o);
            }
        });
        palette.addSelectionChangedListener(e -> {
            if (e.getStructuredSelection().getFirstElement() instanceof ElementDescriptorDTO d) {
                palette.getTree().setToolTipText(PaletteModel.tooltip(d));
            }
        });
        Group sampleGroup = ConsoleWindow.group(left, "Sample pipelines (click to open)");
        samples = new org.eclipse.swt.widgets.List(sampleGroup, SWT.BORDER | SWT.SINGLE | SWT.V_SCROLL);
        ConsoleWindow.id(samples, ConsoleService.ID_SAMPLES);
        samples.setLayoutData(new GridData(SWT.FILL, SWT.FILL, true, true));
        samples.addListener(SWT.Selection, e -> {
            int i = samples.getSelectionIndex();
            if (i >= 0 && i < sampleFiles.size()) {
                open.accept(sampleFiles.get(i));
            }
        });
        left.setWeights(65, 35);
        root = left;
    }

    /** A palette category node. */
    record Category(String name, List<ElementDescriptorDTO> types) {
        String label() {
            return name + " (" + types.size() + ")";
        }
    }

    private static final class PaletteContent implements ITreeContentProvider {
        @Override
        public Object[] getElements(Object input) {
            return input instanceof PaletteModel m
                    ? m.categories().entrySet().stream().map(e -> new Category(e.getKey(), e.getValue())).toArray()
                    : new Object[0];
        }

        @Override
        public Object[] getChildren(Object parent) {
            return parent instanceof Category c ? c.types().toArray() : new Object[0];
        }

        @Override
        public Object getParent(Object element) {
            return null;
        }

        @Override
        public boolean hasChildren(Object element) {
            return element instanceof Category c && !c.types().isEmpty();
        }
    }

    /** Called on a framework thread when an element type came or went. */
    private void typesChanged() {
        // re-arming replaces a pending refresh
        UiExecutor.later(display, root, () -> display.timerExec(PALETTE_REFRESH_MILLIS, refreshTask));
    }

    /** Shows the element types installed now, if they changed. */
    void refresh() {
        if (root.isDisposed()) {
            return;
        }
        List<ElementDescriptorDTO> installed = context.simulator().elementTypes();
        PaletteModel m = PaletteModel.of(installed);
        if (m.signature().equals(paletteSignature)) {
            return;
        }
        boolean first = paletteSignature.isEmpty();
        paletteSignature = m.signature();
        Map<String, String> cats = new HashMap<>();
        m.categories().forEach((c, types) -> types.forEach(d -> cats.put(d.type, c)));
        categoryOfType = cats;
        onTypes.changed(installed, categoryOfType);
        palette.setInput(m);
        palette.expandAll();
        if (!first) {
            feedback.log("INFO", "element types changed: " + cats.size() + " installed");
        }
    }

    /** Lists the sample pipelines of ringlab.home's {@code pipelines} folder. */
    private void loadSamples() {
        Path home = context.home();
        if (home == null) {
            return;
        }
        Path dir = home.resolve("pipelines");
        if (!Files.isDirectory(dir)) {
            feedback.log("WARN", "no sample folder " + dir);
            return;
        }
        try (Stream<Path> s = Files.list(dir)) {
            s.filter(p -> p.getFileName().toString().endsWith(".pipeline")).sorted().forEach(p -> {
                sampleFiles.add(p);
                samples.add(p.getFileName().toString().replaceFirst("\\.pipeline$", ""));
            });
        } catch (IOException e) {
            feedback.error("Cannot list the sample pipelines", dir + ": " + e.getMessage());
        }
    }

    /** Shows the installed types, follows their changes from now on, and lists the samples. */
    void start() {
        refresh();
        typesSubscription = context.onElementTypesChanged(this::typesChanged);
        loadSamples();
    }

    /** @return the palette's viewer, the editor's drag source */
    TreeViewer viewer() {
        return palette;
    }

    /** @return how many element types the palette shows */
    int typeCount() {
        return categoryOfType.size();
    }

    /** The window closes: element type changes are no longer followed. */
    void close() {
        if (typesSubscription != null) {
            try {
                typesSubscription.close();
            } catch (Exception e) {
                System.err.println("ringlab console: closing the element type listener failed: " + ConsoleWindow.describe(e));
            }
        }
    }
}
