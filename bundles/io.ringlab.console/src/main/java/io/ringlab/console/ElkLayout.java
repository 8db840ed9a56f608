package io.ringlab.console;

import java.util.HashMap;
import java.util.LinkedHashMap;
import java.util.Map;

import org.eclipse.elk.alg.layered.options.LayeredMetaDataProvider;
import org.eclipse.elk.core.RecursiveGraphLayoutEngine;
import org.eclipse.elk.core.data.LayoutMetaDataService;
import org.eclipse.elk.core.options.CoreOptions;
import org.eclipse.elk.core.options.Direction;
import org.eclipse.elk.core.options.PortConstraints;
import org.eclipse.elk.core.options.PortSide;
import org.eclipse.elk.core.util.BasicProgressMonitor;
import org.eclipse.elk.graph.ElkNode;
import org.eclipse.elk.graph.ElkPort;
import org.eclipse.elk.graph.util.ElkGraphUtil;

import io.ringlab.sim.api.dto.ConnectionDTO;
import io.ringlab.sim.api.dto.ElementSpecDTO;
import io.ringlab.sim.api.dto.PortDescriptorDTO;

/**
 * Automatic layout with ELK's layered algorithm (Sugiyama: cycle breaking, layering, crossing minimisation, node
 * placement), left to right, with each element's ports where the editor draws them (inputs on the west side, outputs on
 * the east, in port order), so connections cross as little as ELK can make them.
 * <p>
 * ELK finds its algorithms with {@code ServiceLoader}, which works where ELK sits on the framework class path (cnf/swt.bnd);
 * if that lookup found nothing (a class loader that does not see ELK's {@code META-INF/services}), the layered
 * algorithm's metadata is registered by hand, once. No SWT; not thread-safe (the UI thread calls it).
 */
final class ElkLayout {
    static final String ALGORITHM = "org.eclipse.elk.layered";

    private ElkLayout() {
    }

    /** @return element name to the {x, y} ELK gives its box, offset by the layout margin; every element of the model */
    static Map<String, double[]> of(EditablePipeline model) {
        LayoutMetaDataService service = LayoutMetaDataService.getInstance();
        if (service.getAlgorithmData(ALGORITHM) == null) {
            service.registerLayoutMetaDataProviders(new LayeredMetaDataProvider());
        }
        EditorGeometry g = new EditorGeometry(model);
        ElkNode graph = ElkGraphUtil.createGraph();
        graph.setProperty(CoreOptions.ALGORITHM, ALGORITHM);
        graph.setProperty(CoreOptions.DIRECTION, Direction.RIGHT);
        graph.setProperty(CoreOptions.SPACING_NODE_NODE, 30.0);
        Map<String, ElkNode> nodes = new LinkedHashMap<>();
        Map<String, ElkPort> ports = new HashMap<>();
        for (ElementSpecDTO e : model.elements()) {
            ElkNode n = ElkGraphUtil.createNode(graph);
            n.setIdentifier(e.name);
            n.setDimensions(EditorGeometry.BOX_W, g.height(e.name));
            n.setProperty(CoreOptions.PORT_CONSTRAINTS, PortConstraints.FIXED_POS);
            nodes.put(e.name, n);
            if (model.descriptor(e.name) == null) {
                continue;
            }
            for (PortDescriptorDTO pd : model.descriptor(e.name).ports) {
                ElkPort p = ElkGraphUtil.createPort(n);
                double[] at = g.port(e.name, pd.direction, pd.name);
                double[] box = model.position(e.name);
                p.setDimensions(1, 1);
                p.setLocation(at[0] - box[0] - (pd.direction == PortDescriptorDTO.Direction.OUT ? 1 : 0), at[1] - box[1]);
                p.setProperty(CoreOptions.PORT_SIDE, pd.direction == PortDescriptorDTO.Direction.IN ? PortSide.WEST : PortSide.EAST);
                ports.put(key(e.name, pd.direction, pd.name), p);
            }
        }
        for (ConnectionDTO c : model.connections()) {
            ElkNode a = nodes.get(c.from), b = nodes.get(c.to);
            if (a == null || b == null) {
                continue;
            }
            ElkPort pa = ports.get(key(c.from, PortDescriptorDTO.Direction.OUT, name(model, c.from, PortDescriptorDTO.Direction.OUT, c.fromPort)));
            ElkPort pb = ports.get(key(c.to, PortDescriptorDTO.Direction.IN, name(model, c.to, PortDescriptorDTO.Direction.IN, c.toPort)));
            ElkGraphUtil.createSimpleEdge(pa != null ? pa : a, pb != null ? pb : b);
        }
        new RecursiveGraphLayoutEngine().layout(graph, new BasicProgressMonitor());
        Map<String, double[]> at = new LinkedHashMap<>();
        nodes.forEach((name, n) -> at.put(name, new double[] { Math.round(n.getX()) + PipelineLayout.MARGIN,
                Math.round(n.getY()) + PipelineLayout.MARGIN }));
        return at;
    }

    private static String name(EditablePipeline model, String element, PortDescriptorDTO.Direction dir, String port) {
        var d = model.descriptor(element);
        return d == null ? null : ConnectionRules.portName(d, dir, port);
    }

    private static String key(String element, PortDescriptorDTO.Direction dir, String port) {
        return element + (dir == PortDescriptorDTO.Direction.IN ? "<" : ">") + port;
    }
}
