package io.ringlab.console;

import java.util.ArrayList;
import java.util.LinkedHashSet;
import java.util.List;
import java.util.Set;

import io.ringlab.sim.api.dto.ConnectionDTO;
import io.ringlab.sim.api.dto.ElementDescriptorDTO;
import io.ringlab.sim.api.dto.ElementSpecDTO;
import io.ringlab.sim.api.dto.PortDescriptorDTO;
import io.ringlab.sim.api.dto.PortDescriptorDTO.Direction;

/**
 * Where things are on the editor's canvas, in canvas units (the unit of the file's layout block, before zoom): boxes,
 * ports (inputs on the left edge, outputs on the right, spread evenly), connection paths, and what a point or a
 * rectangle hits. The view draws with it and hit-tests with it, so what is drawn is what is hit.
 * <p>
 * Reads the model at each call (no cache). No SWT; not thread-safe.
 */
final class EditorGeometry {
    static final int BOX_W = 120, MIN_BOX_H = 44, PORT_SPACING = 16, PORT_RADIUS = 5;
    /** The height of one level row (a fill bar: {@link CanvasState.Level}) below a box's type line. */
    static final int LEVEL_ROW_H = 13;
    /** How far from a port or a connection a click still hits it. */
    static final double HIT = 7;

    private final EditablePipeline model;

    EditorGeometry(EditablePipeline model) {
        this.model = model;
    }

    /**
     * @return the box height of an element: room for its ports, and for a row per level its type declares (the fill bars
     *         of a run: the same before, during and after one, so that nothing moves when a run starts)
     */
    int height(String element) {
        ElementDescriptorDTO d = model.descriptor(element);
        if (d == null) {
            return MIN_BOX_H;
        }
        int n = Math.max(ConnectionRules.ports(d, Direction.IN).size(), ConnectionRules.ports(d, Direction.OUT).size());
        int levels = CanvasState.roles(d, io.ringlab.sim.api.dto.MetricDescriptorDTO.LEVEL).size();
        return Math.max(MIN_BOX_H + levels * LEVEL_ROW_H + (levels > 0 ? 3 : 0), (n + 1) * PORT_SPACING);
    }

    /** @return {x, y} of a port's centre, or {@code null} if the element or port is unknown */
    double[] port(String element, Direction dir, String port) {
        double[] xy = model.position(element);
        if (xy == null) {
            return null;
        }
        int h = height(element);
        ElementDescriptorDTO d = model.descriptor(element);
        double x = dir == Direction.IN ? xy[0] : xy[0] + BOX_W;
        if (d == null) {
            return new double[] { x, xy[1] + h / 2.0 };
        }
        List<PortDescriptorDTO> ports = ConnectionRules.ports(d, dir);
        for (int i = 0; i < ports.size(); i++) {
            if (port == null || ports.get(i).name.equals(port)) {
                return new double[] { x, xy[1] + h * (i + 1) / (double) (ports.size() + 1) };
            }
        }
        return new double[] { x, xy[1] + h / 2.0 };
    }

    /** @return every port of every element with a known type, with its centre */
    List<PlacedPort> ports() {
        List<PlacedPort> l = new ArrayList<>();
        for (ElementSpecDTO e : model.elements()) {
            ElementDescriptorDTO d = model.descriptor(e.name);
            if (d == null) {
                continue;
            }
            for (PortDescriptorDTO pd : d.ports) {
                l.add(new PlacedPort(new PortRef(e.name, pd.name, pd.direction), port(e.name, pd.direction, pd.name), pd));
            }
        }
        return l;
    }

    /** A port with its centre and descriptor. */
    record PlacedPort(PortRef ref, double[] at, PortDescriptorDTO descriptor) {
    }

    /**
     * @return the points of a connection's path: straight from the output to the input, or, when the input is left of the
     *         output (a reply path), around below both boxes; {@code null} if an end is unknown
     */
    double[] path(ConnectionDTO c) {
        double[] a = port(c.from, Direction.OUT, c.fromPort);
        double[] b = port(c.to, Direction.IN, c.toPort);
        if (a == null || b == null) {
            return null;
        }
        if (b[0] > a[0]) {
            return new double[] { a[0], a[1], b[0], b[1] };
        }
        double below = Math.max(model.position(c.from)[1] + height(c.from), model.position(c.to)[1] + height(c.to)) + 14;
        return new double[] { a[0], a[1], a[0] + 10, a[1], a[0] + 10, below, b[0] - 10, below, b[0] - 10, b[1], b[0], b[1] };
    }

    /** @return the port within {@link #HIT} of the point, the nearest if several, or {@code null} */
    PortRef portAt(double x, double y) {
        PortRef best = null;
        double bestD = HIT;
        for (PlacedPort p : ports()) {
            double d = Math.hypot(p.at()[0] - x, p.at()[1] - y);
            if (d <= bestD) {
                best = p.ref();
                bestD = d;
            }
        }
        return best;
    }

    /** @return the topmost (last drawn) element whose box holds the point, or {@code null} */
    String elementAt(double x, double y) {
        List<ElementSpecDTO> es = model.elements();
        for (int i = es.size() - 1; i >= 0; i--) {
            String n = es.get(i).name;
            double[] xy = model.position(n);
            if (x >= xy[0] && x <= xy[0] + BOX_W && y >= xy[1] && y <= xy[1] + height(n)) {
                return n;
            }
        }
        return null;
    }

    /** @return the last connection whose path passes within {@link #HIT} of the point, or {@code null} */
    ConnectionDTO connectionAt(double x, double y) {
        List<ConnectionDTO> cs = model.connections();
        for (int i = cs.size() - 1; i >= 0; i--) {
            double[] pts = path(cs.get(i));
            if (pts == null) {
                continue;
            }
            for (int k = 0; k + 3 < pts.length; k += 2) {
                if (distance(x, y, pts[k], pts[k + 1], pts[k + 2], pts[k + 3]) <= HIT) {
                    return cs.get(i);
                }
            }
        }
        return null;
    }

    /** @return the elements whose boxes intersect the rectangle spanned by two corners, in file order */
    Set<String> elementsIn(double x1, double y1, double x2, double y2) {
        double l = Math.min(x1, x2), r = Math.max(x1, x2), t = Math.min(y1, y2), b = Math.max(y1, y2);
        Set<String> s = new LinkedHashSet<>();
        for (ElementSpecDTO e : model.elements()) {
            double[] xy = model.position(e.name);
            if (xy[0] <= r && xy[0] + BOX_W >= l && xy[1] <= b && xy[1] + height(e.name) >= t) {
                s.add(e.name);
            }
        }
        return s;
    }

    /** @return {width, height} of the area the pipeline covers from the origin, with a margin; at least 1 x 1 */
    double[] extent() {
        double w = 1, h = 1;
        for (ElementSpecDTO e : model.elements()) {
            double[] xy = model.position(e.name);
            w = Math.max(w, xy[0] + BOX_W + PipelineLayout.MARGIN);
            h = Math.max(h, xy[1] + height(e.name) + 2 * PipelineLayout.MARGIN); // room for a reply path below
        }
        return new double[] { w, h };
    }

    /** @return a free spot for a new box: the first place on the layout's grid, column by column, that no box overlaps */
    double[] freeSpot() {
        for (int col = 0; col < 50; col++) {
            for (int row = 0; row < 6; row++) {
                double x = PipelineLayout.MARGIN + col * PipelineLayout.COLUMN, y = PipelineLayout.MARGIN + row * PipelineLayout.ROW;
                if (elementsIn(x - 10, y - 10, x + BOX_W + 10, y + MIN_BOX_H + 10).isEmpty()) {
                    return new double[] { x, y };
                }
            }
        }
        return new double[] { PipelineLayout.MARGIN, PipelineLayout.MARGIN };
    }

    private static double distance(double px, double py, double x1, double y1, double x2, double y2) {
        double dx = x2 - x1, dy = y2 - y1;
        double len2 = dx * dx + dy * dy;
        double t = len2 == 0 ? 0 : Math.max(0, Math.min(1, ((px - x1) * dx + (py - y1) * dy) / len2));
        return Math.hypot(px - (x1 + t * dx), py - (y1 + t * dy));
    }
}
