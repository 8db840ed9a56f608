package io.ringlab.workspace.tests;

import static org.junit.jupiter.api.Assertions.assertArrayEquals;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertNotNull;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.util.Hashtable;
import java.util.List;

import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.ExtendWith;
import org.osgi.framework.Bundle;
import org.osgi.framework.BundleContext;
import org.osgi.service.cm.Configuration;
import org.osgi.service.cm.ConfigurationAdmin;
import org.osgi.service.metatype.AttributeDefinition;
import org.osgi.service.metatype.MetaTypeInformation;
import org.osgi.service.metatype.MetaTypeService;
import org.osgi.service.metatype.ObjectClassDefinition;
import org.osgi.test.common.annotation.InjectBundleContext;
import org.osgi.test.common.annotation.InjectService;
import org.osgi.test.junit5.context.BundleContextExtension;
import org.osgi.test.junit5.service.ServiceExtension;

import io.ringlab.pipeline.format.PipelineReader;
import io.ringlab.sim.api.PipelineException;
import io.ringlab.sim.api.Simulator;
import io.ringlab.sim.api.dto.RunOptionsDTO;
import io.ringlab.sim.api.dto.RunResultDTO;

/** Element types are described through Metatype, and ConfigAdmin holds installation-wide defaults for them. */
@ExtendWith({BundleContextExtension.class, ServiceExtension.class})
class ConfigurationTest {
    private static final String OVERLOAD = """
            duration = 2ms
            element src : source { rate = 5Gbit; size = 1518B }
            element q : pfifo
            element eth0 : netdev
            element wire : link
            element sink : sink
            src -> q -> eth0 -> wire -> sink
            """;

    @InjectBundleContext
    BundleContext context;

    @Test
    void everyElementTypeIsDescribedThroughMetatype(@InjectService MetaTypeService metatype) {
        Bundle engine = null;
        for (Bundle b : context.getBundles()) {
            if ("io.ringlab.engine".equals(b.getSymbolicName())) {
                engine = b;
            }
        }
        MetaTypeInformation info = metatype.getMetaTypeInformation(engine);
        assertNotNull(info);
        assertTrue(List.of(info.getPids()).containsAll(List.of("ringlab.element.link", "ringlab.element.source",
                "ringlab.element.netdev", "ringlab.element.pfifo")), List.of(info.getPids()).toString());
        ObjectClassDefinition ocd = info.getObjectClassDefinition("ringlab.element.link", null);
        AttributeDefinition rate = null;
        for (AttributeDefinition ad : ocd.getAttributeDefinitions(ObjectClassDefinition.ALL)) {
            if (ad.getID().equals("rate")) {
                rate = ad;
            }
        }
        assertNotNull(rate);
        assertArrayEquals(new String[] {"1Gbit"}, rate.getDefaultValue());
        assertEquals("", rate.validate("10Gbit"));
        assertFalse(rate.validate("5000Gbit").isEmpty(), "out of range must not validate");
        assertFalse(rate.validate("fast").isEmpty(), "not a rate must not validate");
    }

    @Test
    void configAdminSetsInstallationDefaultsThatPipelineValuesOverride(@InjectService Simulator simulator,
            @InjectService ConfigurationAdmin cm) throws Exception {
        double atOneGbit = sinkPackets(simulator, OVERLOAD);
        Configuration c = cm.getConfiguration("ringlab.element.link", "?");
        try {
            Hashtable<String, Object> props = new Hashtable<>();
            props.put("rate", "10Gbit");
            c.update(props);
            double atTenGbit = sinkPackets(simulator, OVERLOAD);
            assertTrue(atTenGbit > 4 * atOneGbit, "default rate 10Gbit: " + atTenGbit + " vs " + atOneGbit);
            // a value in the pipeline file wins over the installation default
            double explicit = sinkPackets(simulator, OVERLOAD.replace("element wire : link", "element wire : link { rate = 1Gbit }"));
            assertEquals(atOneGbit, explicit);

            props.put("rate", "fast");
            c.update(props);
            PipelineException e = assertThrows(PipelineException.class,
                    () -> simulator.prepare(PipelineReader.read("cfg.pipeline", OVERLOAD), new RunOptionsDTO()));
            assertTrue(e.getMessage().contains("ringlab.element.link") && e.getMessage().contains("fast"), e.getMessage());
        } finally {
            c.delete();
        }
    }

    private static double sinkPackets(Simulator simulator, String text) throws Exception {
        RunResultDTO r = simulator.prepare(PipelineReader.read("cfg.pipeline", text), new RunOptionsDTO()).run();
        assertEquals("FINISHED", r.state, r.error);
        return r.elements.get("sink").get("rxPackets");
    }
}
