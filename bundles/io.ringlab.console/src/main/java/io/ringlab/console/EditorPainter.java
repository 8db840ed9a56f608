package io.ringlab.console;

import java.util.HashMap;
import java.util.Map;

import org.eclipse.jface.resource.JFaceResources;
import org.eclipse.swt.SWT;
import org.eclipse.swt.graphics.Color;
import org.eclipse.swt.graphics.Font;
import org.eclipse.swt.graphics.FontData;
import org.eclipse.swt.graphics.GC;
import org.eclipse.swt.graphics.Point;
import org.eclipse.swt.graphics.Transform;
import org.eclipse.swt.widgets.Display;

import io.ringlab.sim.api.dto.ConnectionDTO;
import io.ringlab.sim.api.dto.ElementDescriptorDTO;
import io.ringlab.sim.api.dto.ElementSpecDTO;
import io.ringlab.sim.api.dto.PortDescriptorDTO.Mode;

/**
 * Draws the pipeline editor's canvas: connections as polylines with an arrow head, element boxes coloured by their
 * type's category with name and type, ports (push filled, pull hollow), the selection thicker in the selection colour,
 * and a connection or rubber band being dragged ({@link EditorGestures}); a hint when the pipeline is empty. During and
 * after a run, the run's state ({@link CanvasState}): a fill bar per level below the type line (green to half, amber to
 * 90 %, red above), the pools an element owns as small upright gauges at the right of its type line, its throughput
 * below the box, a link's utilisation as the width and colour of its connections, and a red badge of its drops by
 * reason on its top right corner. UI thread only. Colours need no disposal (SWT 3.115+ colours hold no OS resource);
 * fonts come from JFace's registry, but for the small one of the state, which {@link #dispose} frees.
 */
final class EditorPainter {
    private final Display display;
    private final Map<String, Color> categoryColors = new HashMap<>();
    private final Color selectionColor;
    private Map<String, String> categories = Map.of();
    private final Color barGreen, barAmber, barRed, badge, busy;
    private final Font small;
    private CanvasState state = CanvasState.EMPTY;

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
        barGreen = new Color(display, 0x4c, 0xaf, 0x50);
        barAmber = new Color(display, 0xff, 0xa0, 0x00);
        barRed = new Color(display, 0xe5, 0x39, 0x35);
        badge = new Color(display, 0xc6, 0x28, 0x28);
        busy = new Color(display, 0xd8, 0x43, 0x15);
        FontData fd = JFaceResources.getDefaultFont().getFontData()[0];
        small = new Font(display, fd.getName(), Math.max(6, fd.getHeight() - 2), SWT.NORMAL);
    }

    /** Frees the small font; called when the canvas is disposed. */
    void dispose() {
        small.dispose();
    }

    /** @param s what a run shows now; {@link CanvasState#EMPTY} without a run */
    void setState(CanvasState s) {
        state = s;
    }

    /** @return what the canvas shows of a run now */
    CanvasState state() {
        return state;
    }

    /** @return the colour of a bar filled to {@code fill} (0 to 1) */
    Color fillColor(double fill) {
        return fill < 0.5 ? barGreen : fill < 0.9 ? barAmber : barRed;
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

    /**
     * @return the element's utilisation: its busy share of the last interval, or the highest share of a throughput's
     *         capacity; NaN without either
     */
    private double utilisation(String element) {
        CanvasState.Element st = state.elements().get(element);
        double u = st == null ? Double.NaN : st.utilisation();
        if (st != null) {
            for (CanvasState.Flow f : st.flows()) {
                if (!Double.isNaN(f.utilisation()) && !(u >= f.utilisation())) {
                    u = f.utilisation();
                }
            }
        }
        return u;
    }

    /** Draws an element's run state on and around its box (top left at x, y; height h). */
    private void paintState(GC gc, CanvasState.Element st, int x, int y, int h) {
        Display d = display;
        gc.setFont(small);
        int rowY = y + EditorGeometry.MIN_BOX_H - 2;
        for (CanvasState.Level l : st.levels()) {
            int bx = x + 8, bw = EditorGeometry.BOX_W - 16, bh = EditorGeometry.LEVEL_ROW_H - 2;
            if (!Double.isNaN(l.capacity())) { // a level without a bound is its number only
                gc.setBackground(d.getSystemColor(SWT.COLOR_WHITE));
                gc.fillRectangle(bx, rowY, bw, bh);
                double fill = l.fill();
                if (!Double.isNaN(fill) && fill > 0) {
                    gc.setBackground(fillColor(fill));
                    gc.fillRectangle(bx, rowY, Math.max(1, (int) Math.round(bw * fill)), bh);
                }
                gc.setForeground(d.getSystemColor(SWT.COLOR_GRAY));
                gc.drawRectangle(bx, rowY, bw, bh);
            }
            gc.setForeground(d.getSystemColor(SWT.COLOR_BLACK));
            gc.drawText(CanvasText.level(l), bx + 2, rowY - 1, true);
            rowY += EditorGeometry.LEVEL_ROW_H;
        }
        // the pools: upright gauges at the right of the type line, the last pool rightmost
        int px = x + EditorGeometry.BOX_W - 8 - 7 * st.pools().size();
        for (CanvasState.Level p : st.pools()) {
            int gy = y + 24, gh = 14;
            gc.setBackground(d.getSystemColor(SWT.COLOR_WHITE));
            gc.fillRectangle(px, gy, 5, gh);
            double fill = p.fill();
            if (!Double.isNaN(fill) && fill > 0) {
                int fh = Math.max(1, (int) Math.round(gh * fill));
                gc.setBackground(fillColor(fill));
                gc.fillRectangle(px, gy + gh - fh, 5, fh);
            }
            gc.setForeground(d.getSystemColor(SWT.COLOR_DARK_GRAY));
            gc.drawRectangle(px, gy, 5, gh);
            px += 7;
        }
        String flows = CanvasText.flows(st.flows(), st.utilisation());
        if (!flows.isEmpty()) {
            gc.setForeground(d.getSystemColor(SWT.COLOR_DARK_GRAY));
            gc.drawText(flows, x + 2, y + h + 1, true);
        }
        if (st.dropped() > 0) { // a badge on the top right corner, half above the box, growing to the left
            String text = CanvasText.badge(st.drops());
            Point ext = gc.textExtent(text);
            int bw = ext.x + 8, bh = ext.y + 2, bx = x + EditorGeometry.BOX_W - bw + 6, by = y - bh / 2 - 1;
            gc.setBackground(badge);
            gc.fillRoundRectangle(bx, by, bw, bh, 8, 8);
            gc.setForeground(d.getSystemColor(SWT.COLOR_WHITE));
            gc.drawText(text, bx + 4, by + 1, true);
        }
        gc.setFont(JFaceResources.getDefaultFont());
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
            double uf = utilisation(c.from), ut = utilisation(c.to); // a link's wire, either side of it
            double u = Double.isNaN(uf) ? ut : Double.isNaN(ut) ? uf : Math.max(uf, ut);
            int width = Double.isNaN(u) ? 1 : 1 + (int) Math.round(5 * Math.min(1, u));
            gc.setLineWidth(sel ? Math.max(3, width) : width);
            gc.setForeground(sel ? selectionColor : Double.isNaN(u) || u < 0.05 ? d.getSystemColor(SWT.COLOR_DARK_GRAY) : busy);
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
        for (ElementSpecDTO e : model.elements()) { // after every box, so that no box hides a badge
            CanvasState.Element st = state.elements().get(e.name);
            double[] xy = model.position(e.name);
            if (st != null && xy != null) {
                paintState(gc, st, (int) Math.round(xy[0]), (int) Math.round(xy[1]), geometry.height(e.name));
            }
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
