package io.ringlab.console;

import java.util.LinkedHashMap;
import java.util.Map;

import org.eclipse.swt.graphics.Rectangle;
import org.eclipse.swt.graphics.Transform;
import org.eclipse.swt.widgets.Canvas;
import org.eclipse.swt.widgets.ScrollBar;

import io.ringlab.console.api.ConsoleService;
import io.ringlab.sim.api.dto.ElementSpecDTO;

/**
 * The pipeline editor's view onto its canvas: the zoom and the scroll position, the mapping between canvas pixels and
 * pipeline units (the layout block's), the scroll bars sized to the pipeline, and every element's box as drawn published
 * for tests and automation ({@link ConsoleService#BOUNDS_DATA}). UI thread only.
 */
final class EditorViewport {
    static final double MIN_ZOOM = 0.25, MAX_ZOOM = 4, ZOOM_STEP = 1.25;

    private final Canvas canvas;
    private double zoom = 1;
    /** The view's top left corner in zoomed pixels: what the scroll bars show. */
    private int originX, originY;

    /** @param canvas the editor's canvas, with both scroll bars */
    EditorViewport(Canvas canvas) {
        this.canvas = canvas;
    }

    /** @return the zoom factor now (1 = one canvas unit per pixel) */
    double zoom() {
        return zoom;
    }

    /**
     * @param z the zoom factor, kept within {@link #MIN_ZOOM} and {@link #MAX_ZOOM}
     * @return the zoom factor set
     */
    double zoomTo(double z) {
        zoom = Math.max(MIN_ZOOM, Math.min(MAX_ZOOM, z));
        return zoom;
    }

    /** The least zoom a fit goes to: below it a box's text and its run state are too small to read; scroll for the rest. */
    static final double FIT_MIN_ZOOM = 0.6;

    /**
     * Shows a pipeline just opened from its top left, zoomed out (never in) to fit the view, but not below
     * {@value #FIT_MIN_ZOOM}.
     *
     * @param geometry the pipeline's geometry
     */
    void fit(EditorGeometry geometry) {
        Rectangle view = canvas.getClientArea();
        double[] ext = geometry.extent();
        zoom = view.width <= 1 ? 1 : Math.max(FIT_MIN_ZOOM, Math.min(1.0, Math.min(view.width / ext[0], view.height / ext[1])));
        originX = originY = 0;
    }

    /** @return a canvas pixel's x in pipeline units, through the scroll position and the zoom */
    double ux(int x) {
        return (x + originX) / zoom;
    }

    /** @return a canvas pixel's y in pipeline units, through the scroll position and the zoom */
    double uy(int y) {
        return (y + originY) / zoom;
    }

    /** @return a pipeline x in canvas pixels */
    int px(double x) {
        return (int) Math.round(x * zoom) - originX;
    }

    /** @return a pipeline y in canvas pixels */
    int py(double y) {
        return (int) Math.round(y * zoom) - originY;
    }

    /** @return a pipeline length in canvas pixels */
    int scaled(double length) {
        return (int) Math.round(length * zoom);
    }

    /**
     * @return a new transform from pipeline units to canvas pixels, for painting; the caller disposes it
     */
    Transform transform() {
        Transform t = new Transform(canvas.getDisplay());
        t.translate(-originX, -originY);
        t.scale((float) zoom, (float) zoom);
        return t;
    }

    /**
     * Sizes the scroll bars to the pipeline at the current zoom against the view, and keeps the view's corner inside
     * the pipeline: a zoomed-in pipeline larger than the view scrolls (the bars and the mouse wheel), a smaller one shows
     * from its top left.
     *
     * @param geometry the pipeline's geometry, or {@code null} before there is one
     */
    void updateScrollBars(EditorGeometry geometry) {
        if (geometry == null) {
            return;
        }
        Rectangle view = canvas.getClientArea();
        double[] ext = geometry.extent();
        int w = (int) Math.ceil(ext[0] * zoom), h = (int) Math.ceil(ext[1] * zoom);
        originX = Math.max(0, Math.min(originX, w - view.width));
        originY = Math.max(0, Math.min(originY, h - view.height));
        ScrollBar hb = canvas.getHorizontalBar(), vb = canvas.getVerticalBar();
        hb.setValues(originX, 0, Math.max(w, view.width), Math.max(1, view.width), 16, Math.max(1, view.width - 16));
        vb.setValues(originY, 0, Math.max(h, view.height), Math.max(1, view.height), 16, Math.max(1, view.height - 16));
        hb.setEnabled(w > view.width);
        vb.setEnabled(h > view.height);
    }

    /** The scroll bars moved: the view's corner follows them. */
    void scrolled() {
        originX = canvas.getHorizontalBar().getSelection();
        originY = canvas.getVerticalBar().getSelection();
    }

    /**
     * Publishes every element's box as drawn ({@link ConsoleService#BOUNDS_DATA}), for tests and automation.
     *
     * @param model the pipeline
     * @param geometry its geometry
     */
    void publishBounds(EditablePipeline model, EditorGeometry geometry) {
        Map<String, int[]> b = new LinkedHashMap<>();
        for (ElementSpecDTO e : model.elements()) {
            double[] xy = model.position(e.name);
            b.put(e.name, new int[] { px(xy[0]), py(xy[1]), scaled(EditorGeometry.BOX_W),
                scaled(geometry.height(e.name)) });
        }
        canvas.setData(ConsoleService.BOUNDS_DATA, Map.copyOf(b));
    }
}
