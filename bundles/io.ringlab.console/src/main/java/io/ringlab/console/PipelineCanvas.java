package io.ringlab.console;

import java.util.HashMap;
import java.util.LinkedHashMap;
import java.util.Map;
import java.util.function.Consumer;

import org.eclipse.jface.resource.JFaceResources;
import org.eclipse.swt.SWT;
import org.eclipse.swt.graphics.Color;
import org.eclipse.swt.graphics.GC;
import org.eclipse.swt.graphics.Point;
import org.eclipse.swt.graphics.Rectangle;
import org.eclipse.swt.graphics.Transform;
import org.eclipse.swt.widgets.Canvas;
import org.eclipse.swt.widgets.Composite;

import io.ringlab.console.api.ConsoleService;
import io.ringlab.sim.api.dto.ConnectionDTO;
import io.ringlab.sim.api.dto.ElementDescriptorDTO;
import io.ringlab.sim.api.dto.ElementSpecDTO;
import io.ringlab.sim.api.dto.PipelineDTO;

/**
 * Draws a pipeline: one box per element (name, type, coloured by category), one arrow per connection, port names where a
 * connection names them. Positions come from {@link PipelineLayout}; a pipeline larger than the view is scaled down to
 * fit it. A click on a box selects that element (drawn with a thick border) and tells the selection listener; a click
 * elsewhere clears the selection. Editing and zoom come later.
 * <p>
 * For tests and automation the canvas widget carries the selected element's name under
 * {@link ConsoleService#SELECTION_DATA} and every box's bounds as drawn under {@link ConsoleService#BOUNDS_DATA}.
 * <p>
 * UI thread only. Colours need no disposal (SWT 3.115+ colours hold no OS resource); fonts come from JFace's registry.
 */
final class PipelineCanvas {
    static final int BOX_W = 120, BOX_H = 44;

    private final Canvas canvas;
    private final Map<String, Color> categoryColors = new HashMap<>();
    private PipelineDTO pipeline;
    private Map<String, int[]> at = Map.of();
    private Map<String, String> categories = Map.of();
    private int width, height;
    private String selected;
    private Consumer<String> selectionListener = name -> {
    };

    PipelineCanvas(Composite parent) {
        canvas = new Canvas(parent, SWT.DOUBLE_BUFFERED | SWT.BORDER);
        canvas.setData(ConsoleService.WIDGET_ID, ConsoleService.ID_PIPELINE);
        canvas.setBackground(canvas.getDisplay().getSystemColor(SWT.COLOR_LIST_BACKGROUND));
        canvas.addPaintListener(e -> paint(e.gc));
        canvas.addListener(SWT.Resize, e -> {
            publishBounds();
            canvas.redraw();
        });
        canvas.addListener(SWT.MouseDown, e -> {
            if (e.button == 1) {
                clicked(e.x, e.y);
            }
        });
        var d = parent.getDisplay();
        categoryColors.put(ElementDescriptorDTO.SOURCE, new Color(d, 0xd8, 0xea, 0xd3));
        categoryColors.put(ElementDescriptorDTO.QDISC, new Color(d, 0xfc, 0xe8, 0xb2));
        categoryColors.put(ElementDescriptorDTO.DRIVER, new Color(d, 0xc9, 0xda, 0xf8));
        categoryColors.put(ElementDescriptorDTO.LINK, new Color(d, 0xe6, 0xe6, 0xe6));
        categoryColors.put(ElementDescriptorDTO.SINK, new Color(d, 0xf4, 0xcc, 0xcc));
        categoryColors.put(ElementDescriptorDTO.HOST, new Color(d, 0xe4, 0xd7, 0xf5));
    }

    Canvas control() {
        return canvas;
    }

    /**
     * Shows a pipeline.
     *
     * @param p the pipeline, or {@code null} to clear
     * @param categoryOfType element type to its palette category (for the colours); types not in it are drawn grey
     */
    void show(PipelineDTO p, Map<String, String> categoryOfType) {
        this.pipeline = p;
        this.categories = Map.copyOf(categoryOfType);
        this.at = p == null ? Map.of() : PipelineLayout.of(p);
        if (selected != null && !at.containsKey(selected)) {
            selected = null; // the element is gone from the pipeline shown now
            canvas.setData(ConsoleService.SELECTION_DATA, null);
        }
        width = 0;
        height = 0;
        for (int[] xy : at.values()) {
            width = Math.max(width, xy[0] + BOX_W + PipelineLayout.MARGIN);
            height = Math.max(height, xy[1] + BOX_H + 2 * PipelineLayout.MARGIN); // room for a reply path below
        }
        publishBounds();
        canvas.redraw();
    }

    /**
     * Sets the listener told of selection changes by the user: called on the UI thread with the selected element's name,
     * or {@code null} when a click cleared the selection.
     */
    void onSelection(Consumer<String> listener) {
        selectionListener = listener;
    }

    /** @return the selected element's name, or {@code null}. */
    String selection() {
        return selected;
    }

    private void clicked(int x, int y) {
        double s = scale();
        String hit = null;
        for (Map.Entry<String, int[]> e : at.entrySet()) {
            int[] xy = e.getValue();
            double bx = xy[0] * s, by = xy[1] * s;
            if (x >= bx && x <= bx + BOX_W * s && y >= by && y <= by + BOX_H * s) {
                hit = e.getKey();
            }
        }
        if (java.util.Objects.equals(hit, selected)) {
            return;
        }
        selected = hit;
        canvas.setData(ConsoleService.SELECTION_DATA, hit);
        canvas.redraw();
        selectionListener.accept(hit);
    }

    /** @return the factor the pipeline is drawn at: 1, or less to fit a large pipeline into the view. */
    private double scale() {
        Rectangle view = canvas.getClientArea();
        return Math.min(1.0, Math.min(view.width / (double) Math.max(1, width), view.height / (double) Math.max(1, height)));
    }

    private void publishBounds() {
        double s = scale();
        Map<String, int[]> b = new LinkedHashMap<>();
        at.forEach((name, xy) -> b.put(name, new int[] { (int) Math.round(xy[0] * s), (int) Math.round(xy[1] * s),
                (int) Math.round(BOX_W * s), (int) Math.round(BOX_H * s) }));
        canvas.setData(ConsoleService.BOUNDS_DATA, Map.copyOf(b));
    }

    /** @return element name to box position, as drawn; empty when no pipeline is shown. */
    Map<String, int[]> positions() {
        return at;
    }

    private void paint(GC gc) {
        if (pipeline == null) {
            gc.setForeground(canvas.getDisplay().getSystemColor(SWT.COLOR_DARK_GRAY));
            gc.drawText("Open a pipeline: File > Open, or a sample on the left.", 20, 20, true);
            return;
        }
        double scale = scale();
        Transform fit = null;
        if (scale < 1.0) {
            fit = new Transform(canvas.getDisplay());
            fit.scale((float) scale, (float) scale);
            gc.setTransform(fit);
        }
        try {
            paintScaled(gc);
        } finally {
            if (fit != null) {
                gc.setTransform(null);
                fit.dispose();
            }
        }
    }

    private void paintScaled(GC gc) {
        gc.setAntialias(SWT.ON);
        gc.setLineWidth(1);
        gc.setForeground(canvas.getDisplay().getSystemColor(SWT.COLOR_DARK_GRAY));
        gc.setFont(JFaceResources.getDefaultFont());
        for (ConnectionDTO c : pipeline.connections) {
            int[] a = at.get(c.from);
            int[] b = at.get(c.to);
            if (a == null || b == null) {
                continue;
            }
            int x1 = a[0] + BOX_W, y1 = a[1] + BOX_H / 2, x2 = b[0], y2 = b[1] + BOX_H / 2;
            if (x2 <= x1) { // backwards (a reply path): go around below the boxes
                int yBelow = Math.max(a[1], b[1]) + BOX_H + 14;
                gc.drawPolyline(new int[] { x1, y1, x1 + 10, y1, x1 + 10, yBelow, x2 - 10, yBelow, x2 - 10, y2, x2, y2 });
            } else {
                gc.drawLine(x1, y1, x2, y2);
            }
            arrowHead(gc, x2, y2);
            if (c.fromPort != null) {
                gc.drawText(c.fromPort, x1 + 3, y1 - 16, true);
            }
            if (c.toPort != null) {
                Point ext = gc.textExtent(c.toPort);
                gc.drawText(c.toPort, x2 - ext.x - 6, y2 + 2, true);
            }
        }
        for (ElementSpecDTO e : pipeline.elements) {
            int[] xy = at.get(e.name);
            Color fill = categoryColors.get(categories.get(e.type));
            gc.setBackground(fill != null ? fill : canvas.getDisplay().getSystemColor(SWT.COLOR_WIDGET_LIGHT_SHADOW));
            gc.fillRoundRectangle(xy[0], xy[1], BOX_W, BOX_H, 10, 10);
            gc.setForeground(canvas.getDisplay().getSystemColor(SWT.COLOR_DARK_GRAY));
            if (e.name.equals(selected)) {
                gc.setLineWidth(3);
                gc.setForeground(canvas.getDisplay().getSystemColor(SWT.COLOR_LIST_SELECTION));
            }
            gc.drawRoundRectangle(xy[0], xy[1], BOX_W, BOX_H, 10, 10);
            gc.setLineWidth(1);
            gc.setForeground(canvas.getDisplay().getSystemColor(SWT.COLOR_BLACK));
            gc.setFont(JFaceResources.getFontRegistry().getBold(JFaceResources.DEFAULT_FONT));
            gc.drawText(e.name, xy[0] + 8, xy[1] + 5, true);
            gc.setFont(JFaceResources.getDefaultFont());
            gc.drawText(e.type, xy[0] + 8, xy[1] + 23, true);
        }
    }

    private static void arrowHead(GC gc, int x, int y) {
        gc.setBackground(gc.getForeground());
        gc.fillPolygon(new int[] { x, y, x - 8, y - 4, x - 8, y + 4 });
    }
}
