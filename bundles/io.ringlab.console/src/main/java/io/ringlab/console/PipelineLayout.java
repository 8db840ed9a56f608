package io.ringlab.console;

import java.util.ArrayList;
import java.util.HashMap;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;

import io.ringlab.sim.api.dto.ConnectionDTO;
import io.ringlab.sim.api.dto.ElementSpecDTO;
import io.ringlab.sim.api.dto.PipelineDTO;

/**
 * Where the pipeline view draws each element, without widgets. A position from the file's {@code layout} block wins;
 * the other elements are placed in layers by their longest path from an element with no input (a source goes left, a
 * sink right), one row per element of a layer in file order. Cycles (a host answering a source) are cut by taking
 * connections in file order and ignoring one that would make a layer grow past the element count.
 */
final class PipelineLayout {
    /**
     * Canvas units between two layers, and between two rows (a box with three level rows is 86 high, with its flows'
     * line below it 98).
     */
    static final int COLUMN = 160, ROW = 110, MARGIN = 20;

    private PipelineLayout() {
    }

    /**
     * @param p the pipeline; never {@code null}
     * @return element name to {x, y} of the box's top left corner, in file order; never {@code null}
     */
    static Map<String, int[]> of(PipelineDTO p) {
        Map<String, Integer> layer = new HashMap<>();
        for (ElementSpecDTO e : p.elements) {
            layer.put(e.name, 0);
        }
        int n = p.elements.size();
        // Bellman-Ford style relaxation of longest paths, bounded so that a cycle cannot push a layer past n - 1
        for (int round = 0; round < n; round++) {
            boolean changed = false;
            for (ConnectionDTO c : p.connections) {
                Integer from = layer.get(c.from);
                Integer to = layer.get(c.to);
                if (from != null && to != null && to < from + 1 && from + 1 < n) {
                    layer.put(c.to, from + 1);
                    changed = true;
                }
            }
            if (!changed) {
                break;
            }
        }
        Map<Integer, List<String>> rows = new HashMap<>();
        Map<String, int[]> at = new LinkedHashMap<>();
        for (ElementSpecDTO e : p.elements) {
            double[] fixed = p.layout.get(e.name);
            if (fixed != null && fixed.length >= 2) {
                at.put(e.name, new int[] { (int) Math.round(fixed[0]), (int) Math.round(fixed[1]) });
                continue;
            }
            int l = layer.get(e.name);
            List<String> row = rows.computeIfAbsent(l, k -> new ArrayList<>());
            at.put(e.name, new int[] { MARGIN + l * COLUMN, MARGIN + row.size() * ROW });
            row.add(e.name);
        }
        return at;
    }
}
