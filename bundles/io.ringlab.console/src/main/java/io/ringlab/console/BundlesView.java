package io.ringlab.console;

import java.nio.file.Path;
import java.util.List;
import java.util.function.BiConsumer;

import org.eclipse.swt.SWT;
import org.eclipse.swt.layout.GridData;
import org.eclipse.swt.layout.GridLayout;
import org.eclipse.swt.widgets.Button;
import org.eclipse.swt.widgets.Composite;
import org.eclipse.swt.widgets.Control;
import org.eclipse.swt.widgets.Display;
import org.eclipse.swt.widgets.Table;
import org.eclipse.swt.widgets.TableColumn;
import org.eclipse.swt.widgets.TableItem;
import org.osgi.framework.BundleContext;
import org.osgi.framework.BundleListener;
import org.osgi.framework.FrameworkEvent;
import org.osgi.framework.FrameworkListener;

import io.ringlab.console.BundleActions.ActionException;
import io.ringlab.console.BundleActions.Row;
import io.ringlab.console.api.ConsoleService;

/**
 * The bundles view: the installed bundles (id, symbolic name, state, version; the state before the long version so that
 * it shows in a narrow tab), kept current by a bundle listener, with
 * Install (from a file, then start), Update (the selected bundle, from a file) and Uninstall. A failed action, and every
 * {@link FrameworkEvent#ERROR} the framework reports (a bundle that fails to start or resolve, a listener that throws),
 * opens an error dialog and goes to the log; warnings go to the log.
 * <p>
 * Threads: actions run on the UI thread ({@link BundleActions}). Bundle and framework events come on framework threads
 * and are handed over with {@link Display#asyncExec}; table refreshes are coalesced with a short {@code timerExec}.
 */
final class BundlesView {
    /** Delay between a bundle event and the table's refresh, so that a burst of events refreshes once. */
    static final int REFRESH_MILLIS = 100;

    private final Composite root;
    private final Table table;
    private final Button update, uninstall;
    private final BundleActions actions;
    private final BiConsumer<String, String> error;
    private final BiConsumer<String, String> log;
    private final Runnable refreshTask = this::refresh;
    private final BundleListener bundleListener;
    private final FrameworkListener frameworkListener;

    /**
     * @param parent the parent (a tab)
     * @param context the console bundle's context
     * @param error shows an error (title, message) in a dialog and the log; UI thread
     * @param log writes a line to the log (level, message); UI thread
     */
    BundlesView(Composite parent, BundleContext context, BiConsumer<String, String> error, BiConsumer<String, String> log) {
        this.actions = new BundleActions(context);
        this.error = error;
        this.log = log;
        root = new Composite(parent, SWT.NONE);
        root.setLayout(new GridLayout(3, true));
        table = new Table(root, SWT.BORDER | SWT.SINGLE | SWT.FULL_SELECTION | SWT.V_SCROLL | SWT.H_SCROLL);
        table.setData(ConsoleService.WIDGET_ID, ConsoleService.ID_BUNDLES);
        table.setHeaderVisible(true);
        table.setLayoutData(new GridData(SWT.FILL, SWT.FILL, true, true, 3, 1));
        for (String[] c : new String[][] { { "Id", "36" }, { "Symbolic name", "170" }, { "State", "72" }, { "Version", "130" } }) {
            TableColumn col = new TableColumn(table, SWT.LEFT);
            col.setText(c[0]);
            col.setWidth(Integer.parseInt(c[1]));
        }
        table.addListener(SWT.Selection, e -> updateButtons());
        button("Install...", ConsoleService.ID_BUNDLE_INSTALL, this::install);
        update = button("Update...", ConsoleService.ID_BUNDLE_UPDATE, this::update);
        uninstall = button("Uninstall", ConsoleService.ID_BUNDLE_UNINSTALL, this::uninstall);

        Display display = parent.getDisplay();
        bundleListener = e -> later(display, () -> display.timerExec(REFRESH_MILLIS, refreshTask));
        frameworkListener = e -> {
            if (e.getType() == FrameworkEvent.ERROR) {
                String m = BundleActions.describe(e);
                later(display, () -> error.accept("A bundle reported an error", m));
            } else if (e.getType() == FrameworkEvent.WARNING) {
                String m = BundleActions.describe(e);
                later(display, () -> log.accept("WARN", m));
            }
        };
        context.addBundleListener(bundleListener);
        context.addFrameworkListener(frameworkListener);
        root.addDisposeListener(e -> {
            try {
                context.removeBundleListener(bundleListener);
                context.removeFrameworkListener(frameworkListener);
            } catch (IllegalStateException stopping) {
                // the console bundle is stopping: its listeners go with it
            }
        });
        refresh();
    }

    Control control() {
        return root;
    }

    private Button button(String text, String id, Runnable action) {
        Button b = new Button(root, SWT.PUSH);
        b.setText(text);
        b.setData(ConsoleService.WIDGET_ID, id);
        b.setLayoutData(new GridData(SWT.FILL, SWT.CENTER, true, false));
        b.addListener(SWT.Selection, e -> action.run());
        return b;
    }

    /** Runs {@code r} on the UI thread unless the view is gone; callable from any thread. */
    private void later(Display display, Runnable r) {
        UiExecutor.later(display, root, r);
    }

    private void refresh() {
        if (root.isDisposed()) {
            return;
        }
        Long selected = selectedId();
        List<Row> rows = actions.rows();
        table.setRedraw(false);
        try {
            table.removeAll();
            for (Row r : rows) {
                TableItem i = new TableItem(table, SWT.NONE);
                i.setText(new String[] { Long.toString(r.id()), r.symbolicName(), r.state(), r.version() });
                i.setData(r);
                if (selected != null && selected == r.id()) {
                    table.setSelection(i);
                }
            }
        } finally {
            table.setRedraw(true);
        }
        updateButtons();
    }

    private Long selectedId() {
        TableItem[] sel = table.getSelection();
        return sel.length == 0 || !(sel[0].getData() instanceof Row r) ? null : r.id();
    }

    private void updateButtons() {
        boolean any = selectedId() != null;
        update.setEnabled(any);
        uninstall.setEnabled(any);
    }

    private void install() {
        Path file = chooseFile(table.getParent(), ConsoleService.ID_BUNDLE_INSTALL, "Install a bundle");
        if (file != null) {
            act("Cannot install the bundle", () -> actions.install(file));
        }
    }

    private void update() {
        Long id = selectedId();
        if (id == null) {
            return;
        }
        Path file = chooseFile(table.getParent(), ConsoleService.ID_BUNDLE_UPDATE, "Update bundle " + id + " from a file");
        if (file != null) {
            act("Cannot update the bundle", () -> actions.update(id, file));
        }
    }

    private void uninstall() {
        Long id = selectedId();
        if (id != null) {
            act("Cannot uninstall the bundle", () -> actions.uninstall(id));
        }
    }

    private interface Action {
        String run() throws ActionException;
    }

    private void act(String title, Action a) {
        try {
            log.accept("INFO", a.run());
        } catch (ActionException e) {
            error.accept(title, e.getMessage());
        }
        refresh();
    }

    /** @return the file from the automation hook on the button, or from a file dialog; {@code null} if cancelled. */
    private Path chooseFile(Composite parent, String buttonId, String title) {
        Control button = null;
        for (Control c : root.getChildren()) {
            if (buttonId.equals(c.getData(ConsoleService.WIDGET_ID))) {
                button = c;
            }
        }
        return FileChooser.choose(button, parent.getShell(), SWT.OPEN, title, "jar", null, null);
    }
}
