package io.ringlab.console;

import java.util.HashMap;
import java.util.Map;

import org.eclipse.jface.resource.JFaceResources;
import org.eclipse.swt.SWT;
import org.eclipse.swt.graphics.Color;
import org.eclipse.swt.graphics.GC;
import org.eclipse.swt.graphics.Transform;
import org.eclipse.swt.widgets.Display;

import io.ringlab.sim.api.dto.ConnectionDTO;
import io.ringlab.sim.api.dto.ElementDescriptorDTO;
import io.ringlab.sim.api.dto.ElementSpecDTO;
import io.ringlab.sim.api.dto.PortDescriptorDTO.Mode;

/**
 * Draws the pipeline editor's canvas: connections as polylines with an arrow head, element boxes coloured by their
 * type's category with name and type, ports (push filled, pull hollow), the selection thicker in the selection colour,
 * and a connection or rubber band being dragged ({@link EditorGestures}); a hint when the pipeline is empty. UI thread
 * only. Colours need no disposal (SWT 3.115+ colours hold no OS resource); fonts come from JFace's registry.
 */
final class EditorPainter {
    private final Display display;
    private final Map<String, Color> categoryColors = new HashMap<>();
    private final Color selectionColor;
    private Map<String, String> categories = Map.of();

    /** @param display the canvas's display */
    EditorPainter(Display display) {
        this.display = display;
        selectionColor = display.getSystemColor(SWT.COLOR_LIST_SELECTION);
        categoryColors.put(ElementDescriptorDTO.SOURCE, new Color(display, 0xd8, 0xea, 0xd3));
        categoryColors.put(ElementDescriptorDTO.QDISC, new Color(display, 0xfc, 0xe8, 0xb2));
        categoryColors.put(ElementDescriptorDTO.DRIVER, new Color(display, 0xc9, 0xda, 0xf8));
        categoryColors.put(ElementDescriptorDTO.LINK, new Color(display, 0xe6, 0xe6, 0xe6));
        categoryColors.put(ElementDescriptorDTO.SINK, new Color(display, 0xf4, 0xcc, 0xcc));
        categoryColors.put(ElementDescriptorDTO.HOST, new Color(display, 0xe4, 0xd7, 0xf5));
    }

    /** @param categoryOfType each installed type's category, for the box colours */
    void setCategories(Map<String, String> categoryOfType) {
        categories = Map.copyOf(categoryOfType);
    }

    /**
     * Paints the canvas.
     *
     * @param gc the canvas's graphics context
     * @param model the pipeline
     * @param geometry its geometry
     * @param selection what is selected
     * @param view the zoom and scroll position
     * @param gestures the drag going on, if any
     */
    void paint(GC gc, EditablePipeline model, EditorGeometry geometry, EditorSelection selection, EditorViewport view,
            EditorGestures gestures) {
        if (model.elements().isEmpty()) {
            gc.setForeground(display.getSystemColor(SWT.COLOR_DARK_GRAY));
            gc.drawText("Open a pipeline (File > Open, or a sample on the left), or place elements: double-click a type in the"
                    + " palette or drag it here.", 20, 20, true);
            return;
        }
        Transform t = view.transform();
        try {
            gc.setTransform(t);
            paintScaled(gc, model, geometry, selection, gestures);
        } finally {
            gc.setTransform(null);
            t.dispose();
        }
    }

    private void paintScaled(GC gc, EditablePipeline model, EditorGeometry geometry, EditorSelection selection,
            EditorGestures gestures) {
        Display d = display;
        gc.setAntialias(SWT.ON);
        gc.setFont(JFaceResources.getDefaultFont());
        for (ConnectionDTO c : model.connections()) {
            double[] pts = geometry.path(c);
            if (pts == null) {
                continue;
            }
            boolean sel = selection.has(c);
            gc.setLineWidth(sel ? 3 : 1);
            gc.setForeground(sel ? selectionColor : d.getSystemColor(SWT.COLOR_DARK_GRAY));
            int[] ip = new int[pts.length];
            for (int i = 0; i < pts.length; i++) {
                ip[i] = (int) Math.round(pts[i]);
            }
            gc.drawPolyline(ip);
            int x2 = ip[ip.length - 2], y2 = ip[ip.length - 1];
            gc.setBackground(gc.getForeground());
            gc.fillPolygon(new int[] { x2, y2, x2 - 8, y2 - 4, x2 - 8, y2 + 4 });
        }
        gc.setLineWidth(1);
        for (ElementSpecDTO e : model.elements()) {
            double[] xy = model.position(e.name);
            int x = (int) Math.round(xy[0]), y = (int) Math.round(xy[1]), h = geometry.height(e.name);
            Color fill = categoryColors.get(categories.get(e.type));
            gc.setBackground(fill != null ? fill : d.getSystemColor(SWT.COLOR_WIDGET_LIGHT_SHADOW));
            gc.fillRoundRectangle(x, y, EditorGeometry.BOX_W, h, 10, 10);
            boolean sel = selection.has(e.name);
            gc.setLineWidth(sel ? 3 : 1);
            gc.setForeground(sel ? selectionColor : d.getSystemColor(SWT.COLOR_DARK_GRAY));
            gc.drawRoundRectangle(x, y, EditorGeometry.BOX_W, h, 10, 10);
            gc.setLineWidth(1);
            gc.setForeground(d.getSystemColor(SWT.COLOR_BLACK));
            gc.setFont(JFaceResources.getFontRegistry().getBold(JFaceResources.DEFAULT_FONT));
            gc.drawText(e.name, x + 10, y + 5, true);
            gc.setFont(JFaceResources.getDefaultFont());
            gc.drawText(e.type, x + 10, y + 23, true);
        }
        // ports: push filled, pull hollow; the port under a connection drag's start is highlighted
        PortRef from = gestures.connectingFrom();
        for (EditorGeometry.PlacedPort p : geometry.ports()) {
            int r = EditorGeometry.PORT_RADIUS, px = (int) Math.round(p.at()[0]), py = (int) Math.round(p.at()[1]);
            gc.setBackground(p.descriptor().mode == Mode.PUSH ? d.getSystemColor(SWT.COLOR_DARK_GRAY) : d.getSystemColor(SWT.COLOR_WHITE));
            gc.fillOval(px - r, py - r, 2 * r, 2 * r);
            gc.setForeground(p.ref().equals(from) ? selectionColor : d.getSystemColor(SWT.COLOR_DARK_GRAY));
            gc.drawOval(px - r, py - r, 2 * r, 2 * r);
        }
        if (from != null) {
            double[] a = geometry.port(from.element(), from.direction(), from.port());
            gc.setForeground(selectionColor);
            gc.setLineStyle(SWT.LINE_DASH);
            gc.drawLine((int) a[0], (int) a[1], (int) gestures.lastX(), (int) gestures.lastY());
            gc.setLineStyle(SWT.LINE_SOLID);
        } else if (gestures.banding()) {
            double downX = gestures.downX(), downY = gestures.downY(), lastX = gestures.lastX(), lastY = gestures.lastY();
            gc.setForeground(selectionColor);
            gc.setLineStyle(SWT.LINE_DOT);
            gc.drawRectangle((int) Math.min(downX, lastX), (int) Math.min(downY, lastY), (int) Math.abs(lastX - downX),
                    (int) Math.abs(lastY - downY));
            gc.setLineStyle(SWT.LINE_SOLID);
        }
    }
}
