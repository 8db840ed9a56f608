package io.ringlab.pipeline.format;

import io.ringlab.sim.api.dto.ConnectionDTO;
import io.ringlab.sim.api.dto.ElementSpecDTO;
import io.ringlab.sim.api.dto.PipelineDTO;
import io.ringlab.sim.api.dto.ValueDTO;

/**
 * Deep copies of pipelines: the engine applies a run's overrides to its own copy, and the console's editor edits one,
 * so neither ever changes the caller's pipeline.
 *
 * @since 1.3
 */
public final class PipelineCopy {
    private PipelineCopy() {
    }

    /**
     * @param p the pipeline; not changed
     * @return a copy sharing nothing changeable with {@code p}: its values, elements, connections, plot list and
     *         layout are new; every position in the file is kept
     */
    public static PipelineDTO of(PipelineDTO p) {
        PipelineDTO c = new PipelineDTO();
        c.file = p.file;
        c.name = p.name;
        c.description = p.description;
        c.headline = of(p.headline);
        p.plot.forEach(v -> c.plot.add(of(v)));
        c.duration = of(p.duration);
        c.seed = of(p.seed);
        c.profile = of(p.profile);
        for (ElementSpecDTO e : p.elements) {
            ElementSpecDTO k = new ElementSpecDTO();
            k.type = e.type;
            k.name = e.name;
            k.line = e.line;
            k.column = e.column;
            e.properties.forEach((n, v) -> k.properties.put(n, of(v)));
            c.elements.add(k);
        }
        for (ConnectionDTO x : p.connections) {
            ConnectionDTO k = new ConnectionDTO();
            k.from = x.from;
            k.fromPort = x.fromPort;
            k.to = x.to;
            k.toPort = x.toPort;
            k.line = x.line;
            k.column = x.column;
            c.connections.add(k);
        }
        p.layout.forEach((n, xy) -> c.layout.put(n, xy.clone()));
        return c;
    }

    /**
     * @param v a value, or {@code null}
     * @return a copy of it, or {@code null}
     */
    public static ValueDTO of(ValueDTO v) {
        if (v == null) {
            return null;
        }
        ValueDTO k = new ValueDTO(v.text, v.line, v.column);
        k.quoted = v.quoted;
        return k;
    }
}
