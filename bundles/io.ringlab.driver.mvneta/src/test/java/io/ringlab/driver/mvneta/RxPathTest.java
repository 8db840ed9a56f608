package io.ringlab.driver.mvneta;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertNotSame;
import static org.junit.jupiter.api.Assertions.assertSame;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.lang.reflect.Field;
import java.lang.reflect.Modifier;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.Set;

import org.junit.jupiter.api.Test;

import io.ringlab.buffer.api.BufferDestructor;
import io.ringlab.buffer.api.BufferPool;
import io.ringlab.engine.standalone.Standalone;
import io.ringlab.sim.api.CpuTask;
import io.ringlab.sim.api.Element;
import io.ringlab.sim.api.ElementContext;
import io.ringlab.sim.api.ElementFactory;
import io.ringlab.sim.api.ElementState;
import io.ringlab.sim.api.dto.ElementDescriptorDTO;
import io.ringlab.sim.api.dto.RunOptionsDTO;
import io.ringlab.sim.api.dto.RunResultDTO;

/**
 * The receive path is chosen once, from {@code kernel} and {@code bm}, as one {@link RxPath} type per kernel path; the
 * element keeps no flag to branch on per packet; a successor on another path, or with other RX pools, refuses the
 * predecessor's state without changing its own.
 */
class RxPathTest {

    /** The mvneta factory, remembering each element it made. */
    private static final class Recording implements ElementFactory {
        final MvnetaFactory factory = new MvnetaFactory();
        final List<MvnetaElement> made = new ArrayList<>();

        @Override
        public ElementDescriptorDTO descriptor() {
            return factory.descriptor();
        }

        @Override
        public Element create(ElementContext context) {
            Element e = factory.create(context);
            made.add((MvnetaElement) e);
            return e;
        }
    }

    /** Frames into one port whose stack ends in a sink (50 in 2 ms) with {@code props}; @return the port's element */
    private static MvnetaElement port(String props) throws Exception {
        Recording f = new Recording();
        RunOptionsDTO o = new RunOptionsDTO();
        o.seed = 1L;
        o.snapshotIntervalMillis = 0;
        RunResultDTO r = Standalone.builder().element(f).build().run("""
                duration = 2ms
                profile = armada-388
                element gen : source { rate = 200Mbit; size = 1000B }
                element eth0 : mvneta { %s }
                element up : sink
                gen -> eth0.rx
                eth0.stack -> up
                """.formatted(props), o);
        assertEquals("FINISHED", r.state, "the run: " + r.error);
        assertTrue(r.elements.get("up").get("rxPackets") > 40, "frames went up the stack: " + r.elements.get("up"));
        assertEquals(1, f.made.size());
        return f.made.get(0);
    }

    @Test
    void eachKernelPathIsItsOwnReceivePathType() throws Exception {
        assertEquals(SwRefillV46.class, port("bm = false").rxPath().getClass());
        assertEquals(BufferManager.class, port("bm = true").rxPath().getClass());
        assertEquals(PagePoolCurrent.class, port("kernel = current").rxPath().getClass());
        assertEquals(Set.of(SwRefillV46.class, BufferManager.class, PagePoolCurrent.class),
                Set.of(RxPath.class.getPermittedSubclasses()), "the three kernel paths, and no other");
    }

    @Test
    void theElementKeepsNoReceivePathFlag() {
        for (Field f : MvnetaElement.class.getDeclaredFields()) {
            if (!Modifier.isStatic(f.getModifiers())) {
                assertFalse(f.getType() == boolean.class && Set.of("bm", "current").contains(f.getName()),
                        "MvnetaElement." + f.getName() + ": the receive path is the RxPath, not a flag");
            }
        }
    }

    @Test
    void theStateNamesItsPathAndPoolsAndAnotherPathRefusesIt() throws Exception {
        MvnetaElement sw = port("bm = false");
        MvnetaElement bm = port("bm = true");
        MvnetaElement cur = port("kernel = current");
        for (MvnetaElement from : List.of(sw, bm, cur)) {
            MapState s = new MapState();
            assertTrue(from.exportState(s));
            assertEquals(from.rxPath().name(), s.get(RxPath.PATH_KEY, String.class));
            assertSame(from.rxPath().ringPool(), s.get(RxPath.RING_POOL_KEY, BufferPool.class));
            assertTrue(from.rxPath().accepts(s), "its own path and pools");
            for (MvnetaElement to : List.of(sw, bm, cur)) {
                if (to != from) {
                    MapState before = new MapState();
                    to.exportState(before);
                    assertFalse(to.importState(s), to.rxPath().name() + " takes over " + from.rxPath().name());
                    MapState after = new MapState();
                    to.exportState(after);
                    assertEquals(before.values.keySet(), after.values.keySet());
                    for (String k : before.values.keySet()) {
                        Object a = before.values.get(k);
                        Object b = after.values.get(k);
                        assertTrue(a == b || a.equals(b) || a instanceof Object[] x && b instanceof Object[] y
                                && java.util.Arrays.equals(x, y), "a refused import changed " + k);
                    }
                }
            }
        }
        // the same path in another run: other pools (an unfilled BM pool would drop every frame)
        MvnetaElement bm2 = port("bm = true");
        MapState s = new MapState();
        bm.exportState(s);
        assertNotSame(bm.rxPath().ringPool(), bm2.rxPath().ringPool());
        assertFalse(bm2.rxPath().accepts(s));
        assertFalse(bm2.importState(s));
    }

    @Test
    void onlyTheCurrentPathHandsOverARefillPosition() throws Exception {
        // mvneta_rx_refill_queue's refill_num and first_to_refill; the v4.6 paths refill per frame and keep none
        for (String v46 : List.of("bm = false", "bm = true")) {
            RxPath p = port(v46).rxPath();
            MapState s = new MapState();
            p.exportState(s);
            assertEquals(0, p.refillPending(), v46);
            assertFalse(s.has("mvneta.refillNum") || s.has("mvneta.firstToRefill"), v46 + ": " + s.keys());
        }
        PagePoolCurrent cur = (PagePoolCurrent) port("kernel = current").rxPath();
        MapState s = new MapState();
        cur.exportState(s);
        assertEquals(cur.refillPending(), s.getInt("mvneta.refillNum", -1));
        assertTrue(s.getInt("mvneta.firstToRefill", -1) >= 0, "first_to_refill: " + s.keys());
    }

    /** A predecessor's state as a plain map. */
    private static final class MapState implements ElementState {
        final Map<String, Object> values = new HashMap<>();

        @Override
        public String from() {
            return "eth0";
        }

        @Override
        public String fromType() {
            return "mvneta";
        }

        @Override
        public void put(String key, Object value) {
            values.put(key, value);
        }

        @Override
        public boolean has(String key) {
            return values.containsKey(key);
        }

        @Override
        public <T> T get(String key, Class<T> type) {
            return type.cast(values.get(key));
        }

        @Override
        public long getLong(String key, long absent) {
            return values.get(key) instanceof Number n ? n.longValue() : absent;
        }

        @Override
        public int getInt(String key, int absent) {
            return values.get(key) instanceof Number n ? n.intValue() : absent;
        }

        @Override
        public boolean getBoolean(String key, boolean absent) {
            return values.get(key) instanceof Boolean b ? b : absent;
        }

        @Override
        public Set<String> keys() {
            return values.keySet();
        }

        @Override
        public void putTask(String key, CpuTask task) {
            values.put(key, task);
        }

        @Override
        public int requeue(String key, CpuTask task) {
            return 0;
        }

        @Override
        public void putDestructors(String key, BufferDestructor... destructors) {
            values.put(key, destructors);
        }

        @Override
        public int replaceDestructors(String key, BufferDestructor... replacements) {
            return 0;
        }
    }
}
