package io.ringlab.console;

import org.eclipse.jface.resource.JFaceResources;
import org.eclipse.swt.SWT;
import org.eclipse.swt.custom.ScrolledComposite;
import org.eclipse.swt.layout.GridData;
import org.eclipse.swt.layout.GridLayout;
import org.eclipse.swt.widgets.Button;
import org.eclipse.swt.widgets.Combo;
import org.eclipse.swt.widgets.Composite;
import org.eclipse.swt.widgets.Control;
import org.eclipse.swt.widgets.Label;
import org.eclipse.swt.widgets.Text;
import org.eclipse.swt.widgets.Widget;

import io.ringlab.console.PropertyFormModel.Field;
import io.ringlab.console.api.ConsoleService;
import io.ringlab.sim.api.dto.ElementDescriptorDTO;
import io.ringlab.sim.api.dto.ElementSpecDTO;

/**
 * The properties form of the selected element, generated from its type's descriptor by {@link PropertyFormModel}: per
 * property its name, a check box, combo or text field, a Default button, a hint with unit, default and range, and a
 * validation message under the field that follows every keystroke. Edits go to the model at once (and so into the
 * pipeline the next run uses).
 * <p>
 * UI thread only. Holds no resources of its own to dispose (fonts from JFace's registry, system colours).
 */
final class PropertiesView {
    /** Data key under which a field keeps its error label. */
    private static final String ERROR_LABEL = "ringlab.errorLabel";
    /** The field's hint label: units, default, range, and a rate's value in bit/s. */
    private static final String HINT_LABEL = "ringlab.hintLabel";

    private final ScrolledComposite scroll;
    private final Composite form;
    private PropertyFormModel model;
    private String element;
    /** Set while the view writes a field itself, so that its listener does not take that for an edit. */
    private boolean updating;

    /** @param parent the parent (a tab) */
    PropertiesView(Composite parent) {
        scroll = new ScrolledComposite(parent, SWT.V_SCROLL | SWT.H_SCROLL);
        scroll.setExpandHorizontal(true);
        scroll.setExpandVertical(true);
        form = new Composite(scroll, SWT.NONE);
        form.setData(ConsoleService.WIDGET_ID, ConsoleService.ID_PROPERTIES);
        scroll.setContent(form);
        scroll.addListener(SWT.Resize, e -> relayout());
        show(null, null);
    }

    Control control() {
        return scroll;
    }

    /**
     * Shows the form of an element.
     *
     * @param m the forms of the pipeline being edited, or {@code null} when no pipeline is open
     * @param elementName the element, or {@code null} for none selected
     */
    void show(PropertyFormModel m, String elementName) {
        this.model = m;
        this.element = elementName;
        for (Control c : form.getChildren()) {
            c.dispose();
        }
        form.setLayout(new GridLayout(3, false));
        ElementSpecDTO spec = m == null || elementName == null ? null : m.element(elementName);
        if (spec == null) {
            note(m == null ? "Open a pipeline, then select an element in it to edit its properties."
                    : "Select an element in the pipeline to edit its properties.");
        } else {
            Label title = new Label(form, SWT.NONE);
            title.setFont(JFaceResources.getFontRegistry().getBold(JFaceResources.DEFAULT_FONT));
            title.setText(spec.name + " : " + spec.type);
            title.setLayoutData(new GridData(SWT.FILL, SWT.CENTER, true, false, 3, 1));
            ElementDescriptorDTO d = m.descriptor(elementName);
            if (d == null) {
                note("Element type " + spec.type + " is not installed, so there is no form for it. Install the bundle that "
                        + "provides it (Bundles tab), or change the type in the file.");
            } else {
                note((d.summary == null ? "" : d.summary + " ") + "(" + d.bundle + " " + d.bundleVersion + ")");
                if (d.properties.isEmpty()) {
                    note("This type has no properties.");
                }
                for (Field f : m.fields(elementName)) {
                    row(f);
                }
            }
        }
        relayout();
    }

    /** Shows the form again from the model (after the element types changed). */
    void refresh() {
        show(model, element);
    }

    private void note(String text) {
        Label l = new Label(form, SWT.WRAP);
        l.setText(text);
        GridData gd = new GridData(SWT.FILL, SWT.CENTER, true, false, 3, 1);
        gd.widthHint = 200; // a wrapping label needs a width hint in a GridLayout, or it never wraps
        l.setLayoutData(gd);
    }

    private void row(Field f) {
        Label name = new Label(form, SWT.NONE);
        name.setText(f.name());
        name.setToolTipText(f.description());
        String id = ConsoleService.PROPERTY_PREFIX + f.name();
        Control field = switch (f.control()) {
            case CHECKBOX -> {
                Button b = new Button(form, SWT.CHECK);
                b.setSelection(Boolean.parseBoolean(model.effective(element, f.name())));
                b.addListener(SWT.Selection, e -> edit(f, Boolean.toString(b.getSelection())));
                yield b;
            }
            case CHOICE -> {
                Combo c = new Combo(form, SWT.READ_ONLY);
                c.setItems(f.options().toArray(String[]::new));
                c.select(f.options().indexOf(model.effective(element, f.name())));
                c.addListener(SWT.Selection, e -> edit(f, c.getText()));
                yield c;
            }
            case TEXT -> {
                Text t = new Text(form, SWT.BORDER | SWT.SINGLE);
                t.setText(model.text(element, f.name()));
                t.setMessage(f.defaultText());
                t.addListener(SWT.Modify, e -> edit(f, t.getText()));
                yield t;
            }
        };
        id(field, id);
        field.setToolTipText(f.description());
        field.setLayoutData(new GridData(SWT.FILL, SWT.CENTER, true, false));
        if (field instanceof Combo c) {
            ConsoleWindow.fitCombo(c);
        }
        Button reset = new Button(form, SWT.PUSH);
        reset.setText("Default");
        reset.setToolTipText("Remove " + f.name() + " from the element, so the default applies (" + f.defaultText() + ")");
        id(reset, id + ".default");
        reset.addListener(SWT.Selection, e -> reset(f, field));

        new Label(form, SWT.NONE); // under the name
        Label hint = new Label(form, SWT.WRAP);
        hint.setText(hint(f));
        field.setData(HINT_LABEL, hint);
        hint.setForeground(form.getDisplay().getSystemColor(SWT.COLOR_DARK_GRAY));
        GridData hd = new GridData(SWT.FILL, SWT.CENTER, true, false, 2, 1);
        hd.widthHint = 150;
        hint.setLayoutData(hd);

        Label error = new Label(form, SWT.WRAP);
        id(error, id + ".error");
        error.setForeground(form.getDisplay().getSystemColor(SWT.COLOR_RED));
        GridData ed = new GridData(SWT.FILL, SWT.CENTER, true, false, 3, 1);
        ed.widthHint = 200;
        error.setLayoutData(ed);
        field.setData(ERROR_LABEL, error);
        showError(field, model.error(element, f.name()));
    }

    /** @return the field's hint, and a rate's value in bit/s ({@code = 800 Mbit/s}) */
    private String hint(Field f) {
        String parsed = model.parsed(element, f.name());
        return parsed.isEmpty() ? f.hint() : parsed + "; " + f.hint();
    }

    private void edit(Field f, String text) {
        if (updating) {
            return;
        }
        String message = model.edit(element, f.name(), text);
        Control field = find(ConsoleService.PROPERTY_PREFIX + f.name());
        if (field != null) {
            ((Label) field.getData(HINT_LABEL)).setText(hint(f));
            showError(field, message);
        }
    }

    private void reset(Field f, Control field) {
        model.reset(element, f.name());
        updating = true;
        try {
            String value = model.effective(element, f.name());
            if (field instanceof Text t) {
                t.setText("");
            } else if (field instanceof Button b) {
                b.setSelection(Boolean.parseBoolean(value));
            } else if (field instanceof Combo c) {
                c.select(f.options().indexOf(value));
            }
        } finally {
            updating = false;
        }
        ((Label) field.getData(HINT_LABEL)).setText(hint(f));
        showError(field, null);
    }

    private void showError(Control field, String message) {
        Label error = (Label) field.getData(ERROR_LABEL);
        boolean show = message != null;
        error.setText(show ? message : "");
        ((GridData) error.getLayoutData()).exclude = !show;
        error.setVisible(show);
        relayout();
    }

    private Control find(String id) {
        for (Control c : form.getChildren()) {
            if (id.equals(c.getData(ConsoleService.WIDGET_ID))) {
                return c;
            }
        }
        return null;
    }

    private void relayout() {
        int width = Math.max(200, scroll.getClientArea().width);
        scroll.setMinSize(form.computeSize(width, SWT.DEFAULT));
        form.layout(true, true);
    }

    private static void id(Widget w, String id) {
        w.setData(ConsoleService.WIDGET_ID, id);
    }
}
