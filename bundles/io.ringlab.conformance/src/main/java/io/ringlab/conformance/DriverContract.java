package io.ringlab.conformance;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;
import static org.junit.jupiter.api.Assertions.fail;
import static org.junit.jupiter.api.Assumptions.assumeTrue;

import java.util.ArrayList;
import java.util.Collections;
import java.util.IdentityHashMap;
import java.util.List;
import java.util.Map;
import java.util.Objects;
import java.util.Set;
import java.util.TreeMap;

import org.junit.jupiter.api.Test;

import io.ringlab.buffer.api.Buffer;
import io.ringlab.driver.api.DescriptorRing;
import io.ringlab.driver.api.NicDriver;
import io.ringlab.engine.standalone.Standalone;
import io.ringlab.pipeline.format.Units;
import io.ringlab.queue.api.QueueLimitsProvider;
import io.ringlab.sim.api.Element;
import io.ringlab.sim.api.ElementFactory;
import io.ringlab.sim.api.dto.ElementDescriptorDTO;
import io.ringlab.sim.api.dto.PortDescriptorDTO;
import io.ringlab.sim.api.dto.PortDescriptorDTO.Direction;
import io.ringlab.sim.api.dto.PortDescriptorDTO.Mode;
import io.ringlab.sim.api.dto.RunResultDTO;
import io.ringlab.sim.api.dto.SwapDTO;

/**
 * The contract of a NIC-driver element factory (category {@code drivers}; its elements usually {@link NicDriver}s). Extend
 * it in a JUnit 5 test and return the factory:
 *
 * <pre>
 * class MyNicConformanceTest extends DriverContract {
 *     &#64;Override
 *     protected ElementFactory factory() {
 *         return new MyNicFactory();
 *     }
 * }
 * </pre>
 *
 * Each check runs the driver, as element {@value #DUT}, in short pipelines the kit builds around it with the engine's
 * {@code Standalone} (milliseconds of virtual time): the kit's FIFO in front of its TX input, a {@code link} and a
 * {@code sink} behind its wire output, and, when it has a receive side, a {@code source} into its RX input and a
 * {@code sink} on its stack output. A probe beside it looks at its rings between events. The checks:
 * <ul>
 * <li><b>ring invariants</b>: each {@link DescriptorRing}'s {@code used()} stays in [0, {@code size()}], its
 * {@code forEachHeld} visits allocated buffers, none twice and none in both rings, and the element's own
 * {@code forEachHeld} (the invariant walk) visits every buffer of its rings and none twice;</li>
 * <li><b>buffer ownership</b>: packets and buffers are conserved (generated = delivered + dropped + in flight; no leak,
 * with its owner; no double free) in a loaded run, an idle one and one with GSO traffic from the {@code tcp} element;</li>
 * <li><b>BQL hooks</b>, when the type has a boolean property {@code bql}: every byte reported sent
 * ({@code netdev_tx_sent_queue}) is reported completed ({@code netdev_tx_completed_queue}) once the traffic stops and the
 * TX ring drains, BQL's in-flight bytes return to 0 and the queue is not left stopped; and with {@code bql = true} the
 * device holds far fewer bytes than without;</li>
 * <li><b>determinism</b>: two runs of random traffic with the same seed give the same results; two seeds give the driver
 * other results;</li>
 * <li><b>handover</b>: a same-version swap of the driver in the middle of a loaded run ({@code --swap}) is applied with a
 * handover, drops nothing, keeps the run conserved, and leaves every metric as the run without it;</li>
 * <li><b>declarations</b>: every metric the driver reports in a loaded run is declared by its factory
 * ({@link ElementDescriptorDTO#metricDescriptors}) with a kind, a meaning and a unit, and every metric it declares is
 * reported, so that {@code ringlab elements} lists what a run reports ({@link MetricDeclarations}).</li>
 * </ul>
 * The hooks below fit the pipelines to the driver (its properties, cost profile, line rate, ports); a driver the default
 * pipelines do not fit returns its own from {@link #pipeline}. See docs/conformance.md.
 */
public abstract class DriverContract {

    /** The element under test's name in every pipeline of the contract. */
    protected static final String DUT = "dut";

    /** What a pipeline of the contract must carry; see {@link DriverContract#pipeline}. */
    public enum Traffic {
        /** More than the wire takes into the TX input (the queue in front fills), and half of it into the RX input. */
        LOADED,
        /** A trickle both ways: a frame every few hundred microseconds. */
        IDLE,
        /** TCP with GSO from the {@code tcp} element through the TX input, its ACKs back on another path. */
        GSO,
        /** Random traffic both ways (Poisson arrivals, uniform sizes, several flows), so that the seed matters. */
        RANDOM,
        /** {@link #LOADED} for about {@link DriverContract#duration()}, then none: the rest of the run is for draining. */
        DRAIN
    }

    /** @return the factory under test; a new instance or a shared one, it is only asked for its descriptor and elements */
    protected abstract ElementFactory factory();

    /**
     * @return the properties of the element under test in the pipeline-file grammar ({@code "ring" -> "256"}); the kit
     *         sets {@code bql} itself in the BQL checks. Default: none (the type's defaults).
     */
    protected Map<String, String> properties() {
        return Map.of();
    }

    /** @return the cost profile of the pipelines ({@code profile = NAME}); default {@code generic-x86-4ghz} */
    protected String profile() {
        return "generic-x86-4ghz";
    }

    /**
     * @return the wire's rate in bits per second: the loaded traffic offers 1.5 times it. Default 1 Gbit/s; a driver that
     *         cannot keep up with its wire (a CPU-bound model) needs a slower one, so that its queue fills.
     */
    protected long lineRateBits() {
        return 1_000_000_000L;
    }

    /** @return the virtual time of each run, in the pipeline-file grammar; default {@code 10ms} */
    protected String duration() {
        return "10ms";
    }

    /**
     * @return how long the BQL check's run goes on after its traffic stops, for the driver to clean its TX ring (its
     *         completion timer must fire within it); default {@code 100ms}
     */
    protected String drainTime() {
        return "100ms";
    }

    /** @return the TX input's name: default the type's first pull input */
    protected String txInput() {
        return port(Direction.IN, Mode.PULL);
    }

    /** @return the wire output's name: default the type's first pull output */
    protected String wireOutput() {
        return port(Direction.OUT, Mode.PULL);
    }

    /** @return the RX input's name, or {@code null} for a driver that only transmits: default the first push input */
    protected String rxInput() {
        return port(Direction.IN, Mode.PUSH);
    }

    /** @return the stack output's name, or {@code null}: default the type's first push output */
    protected String stackOutput() {
        return port(Direction.OUT, Mode.PUSH);
    }

    private String port(Direction direction, Mode mode) {
        for (PortDescriptorDTO p : factory().descriptor().ports) {
            if (p.direction == direction && p.mode == mode) {
                return p.name;
            }
        }
        return null;
    }

    /**
     * The pipeline of one run, in the file format. The default puts the driver between the kit's FIFO
     * ({@code conformance.fifo}), a {@code link} of {@link #lineRateBits()} and a {@code sink}, with {@code source}s for
     * the traffic. An override must name the element under test {@value #DUT}, give it {@code extra} after
     * {@link #properties()}, set {@code duration = runTime} and carry the traffic {@code traffic} names; the kit adds its
     * probe.
     *
     * @param traffic what the run is for
     * @param runTime the run's duration, in the file grammar
     * @param extra properties the check sets on the element under test (such as {@code bql}), in the file grammar
     * @return the pipeline's text
     */
    protected String pipeline(Traffic traffic, String runTime, Map<String, String> extra) {
        ElementDescriptorDTO d = factory().descriptor();
        long line = lineRateBits();
        String full = "size = 1518B; flows = 4";
        String random = "sizes = uniform; size = 64B; sizeMax = 1518B; arrivals = poisson; flows = 8";
        StringBuilder p = new StringBuilder();
        p.append("name = \"conformance\"\nduration = ").append(runTime).append("\nprofile = ").append(profile()).append('\n');
        String tx;
        String rx;
        switch (traffic) {
            case IDLE -> {
                tx = source("txsrc", line / 100, full);
                rx = source("rxsrc", line / 100, full);
            }
            case RANDOM -> {
                tx = source("txsrc", line * 6 / 5, random);
                rx = source("rxsrc", line / 2, random);
            }
            case DRAIN -> {
                // as many frames as the wire takes in about the duration: the traffic stops at about that time
                long frames = Math.max(1, (long) (Units.parsePicos(duration()) / 1e12 * line / ((1518 + 20) * 8)));
                tx = source("txsrc", line * 3 / 2, full + "; count = " + frames);
                rx = source("rxsrc", line / 2, full + "; count = " + Math.max(1, frames / 3));
            }
            default -> {
                tx = source("txsrc", line * 3 / 2, full);
                rx = source("rxsrc", line / 2, full);
            }
        }
        p.append(traffic == Traffic.GSO ? "element txsrc : tcp { streams = 2; gso = true }\n" : tx);
        p.append("element q : ").append(Fifo.TYPE).append(" { limit = 1000 }\n");
        Map<String, String> props = new TreeMap<>(properties());
        props.putAll(extra);
        p.append("element ").append(DUT).append(" : ").append(d.type);
        if (!props.isEmpty()) {
            List<String> kv = new ArrayList<>();
            props.forEach((k, v) -> kv.add(k + " = " + v));
            p.append(" { ").append(String.join("; ", kv)).append(" }");
        }
        p.append("\nelement wire : link { rate = ").append(Units.formatBitsPerSecond(line)).append("; delay = 10us }\n");
        p.append("txsrc -> q -> ").append(DUT).append('.').append(txInput()).append('\n');
        if (traffic == Traffic.GSO) { // the receiving host's ACKs go back to the sender on a path of their own
            p.append("element far : host\n");
            p.append("element acks : ").append(Fifo.TYPE).append(" { limit = 1000 }\n");
            p.append("element rwire : link { rate = ").append(Units.formatBitsPerSecond(line)).append("; delay = 10us }\n");
            p.append(DUT).append('.').append(wireOutput()).append(" -> wire -> far\n");
            p.append("far.out -> acks -> rwire -> txsrc.in\n");
        } else {
            p.append("element sink : sink\n");
            p.append(DUT).append('.').append(wireOutput()).append(" -> wire -> sink\n");
        }
        if (rxInput() != null) {
            p.append(traffic == Traffic.GSO ? source("rxsrc", line / 2, full) : rx);
            p.append("rxsrc -> ").append(DUT).append('.').append(rxInput()).append('\n');
        }
        if (stackOutput() != null) {
            p.append("element up : sink\n").append(DUT).append('.').append(stackOutput()).append(" -> up\n");
        }
        return p.toString();
    }

    private static String source(String name, long bits, String rest) {
        return "element " + name + " : source { rate = " + Units.formatBitsPerSecond(Math.max(1000, bits)) + "; " + rest
                + " }\n";
    }

    // ------------------------------------------------------------------ running

    /** How often the probe looks at the driver, in picoseconds of virtual time. */
    private static final long PROBE_PICOS = 5_000_000L;

    /** One run of the contract: its result, the elements the factory made, the TX queues BQL saw, the probe's samples. */
    private record Run(RunResultDTO result, UnderTest made, BqlRecorder bql, List<long[]> heldTxBytes) {
    }

    private Run run(Traffic traffic, String what, long seed, Map<String, String> extra, List<String> swaps) {
        String runTime = traffic == Traffic.DRAIN
                ? Units.formatPicos(Units.parsePicos(duration()) + Units.parsePicos(drainTime()))
                : duration();
        UnderTest made = new UnderTest(factory());
        KitElement.Failure failure = new KitElement.Failure();
        List<long[]> held = new ArrayList<>();
        QueueLimitsProvider dql = Standalone.builder().build().provider(QueueLimitsProvider.class, QueueLimitsProvider.KIND,
                "dql");
        Standalone.Builder b = Standalone.builder().element(made).element(new Fifo())
                .element(KitElement.probe(PROBE_PICOS, now -> held.add(new long[] {now, look(made.latest(), now)}), failure));
        BqlRecorder bql = dql == null ? null : new BqlRecorder(dql);
        if (bql != null) {
            b.provider(QueueLimitsProvider.class, "dql", bql);
        }
        String text = pipeline(traffic, runTime, extra) + "element probe : " + KitElement.PROBE + "\n";
        RunResultDTO r = Runs.run(b.build(), what, text, seed, swaps);
        failure.rethrow();
        return new Run(r, made, bql, held);
    }

    /**
     * The probe's look at the element under test between two events: the ring invariants, and the bytes its TX ring (or,
     * for an element that is not a NicDriver, the element) holds.
     *
     * @return the bytes held for transmission
     */
    private static long look(Element e, long now) {
        if (e == null) {
            return 0;
        }
        Set<Buffer> walked = Collections.newSetFromMap(new IdentityHashMap<>());
        String at = " at " + Units.formatPicos(now);
        e.forEachHeld(b -> {
            if (!walked.add(b)) {
                fail("ring invariants: " + DUT + ".forEachHeld visits buffer " + b.id() + " twice" + at
                        + " (the invariant walk would count it twice)");
            }
            if (!b.allocated()) {
                fail("ring invariants: " + DUT + ".forEachHeld visits buffer " + b.id() + ", which is free" + at);
            }
        });
        if (!(e instanceof NicDriver d)) {
            long[] bytes = {0};
            e.forEachHeld(b -> bytes[0] += b.length());
            return bytes[0];
        }
        Set<Buffer> inRings = Collections.newSetFromMap(new IdentityHashMap<>());
        long tx = ring(d.txRing(), "TX", walked, inRings, at);
        ring(d.rxRing(), "RX", walked, inRings, at);
        return tx;
    }

    /** Checks one ring; @return the bytes its buffers hold */
    private static long ring(DescriptorRing r, String which, Set<Buffer> walked, Set<Buffer> inRings, String at) {
        if (r == null) {
            fail("ring invariants: " + DUT + "." + which.toLowerCase(java.util.Locale.ROOT) + "Ring() is null" + at);
        }
        int size = r.size();
        int used = r.used();
        if (used < 0 || used > size) {
            fail("ring invariants: the " + which + " ring's used() = " + used + " is outside [0, size() = " + size + "]" + at);
        }
        long[] bytes = {0};
        int[] count = {0};
        r.forEachHeld(b -> {
            count[0]++;
            bytes[0] += b.length();
            if (!inRings.add(b)) {
                fail("ring invariants: buffer " + b.id() + " is held twice by the rings (the " + which + " ring visits it"
                        + " again)" + at);
            }
            if (!b.allocated()) {
                fail("ring invariants: the " + which + " ring holds buffer " + b.id() + ", which is free" + at);
            }
            if (!walked.contains(b)) {
                fail("ring invariants: the " + which + " ring holds buffer " + b.id() + ", which " + DUT + ".forEachHeld"
                        + " does not visit: the invariant walk would miss it" + at);
            }
        });
        if (count[0] > size) {
            fail("ring invariants: the " + which + " ring visits " + count[0] + " buffers but has " + size + " descriptors"
                    + at);
        }
        return bytes[0];
    }

    private boolean hasBql() {
        return factory().descriptor().properties.stream()
                .anyMatch(p -> p.name.equals("bql") && p.kind == io.ringlab.sim.api.dto.PropertyDescriptorDTO.Kind.BOOLEAN);
    }

    // ------------------------------------------------------------------ ring invariants

    @Test
    public void ringsKeepTheirInvariantsUnderLoad() {
        Run run = run(Traffic.LOADED, "the loaded run", 1, Map.of(), List.of());
        Runs.finished(run.result, "the loaded run");
        assertTrue(run.heldTxBytes.stream().anyMatch(s -> s[1] > 0),
                "ring invariants: the TX ring never held a buffer in the loaded run: the traffic did not reach it");
    }

    // ------------------------------------------------------------------ buffer ownership

    @Test
    public void buffersAndPacketsAreConservedUnderLoad() {
        Runs.conserved(run(Traffic.LOADED, "the loaded run", 1, Map.of(), List.of()).result, "the loaded run");
    }

    @Test
    public void buffersAndPacketsAreConservedWhenIdle() {
        Runs.conserved(run(Traffic.IDLE, "the idle run", 1, Map.of(), List.of()).result, "the idle run");
    }

    @Test
    public void buffersAndPacketsAreConservedWithGsoTraffic() {
        RunResultDTO r = run(Traffic.GSO, "the GSO run", 1, Map.of(), List.of()).result;
        Runs.conserved(r, "the GSO run");
        Map<String, Double> tcp = r.elements.get("txsrc");
        if (tcp != null && tcp.containsKey("segmentsSent")) {
            assertTrue(tcp.get("segmentsSent") > tcp.get("skbsSent"), "the GSO run sent no GSO skb (tcp segmentsSent = "
                    + tcp.get("segmentsSent") + ", skbsSent = " + tcp.get("skbsSent") + "): check its pipeline");
        }
    }

    // ------------------------------------------------------------------ BQL

    @Test
    public void bqlCompletesEveryByteReportedSentOnceTheRingDrains() {
        assumeTrue(hasBql(), DUT + " has no boolean property bql: the BQL checks do not apply");
        Run run = run(Traffic.DRAIN, "the drain run", 1, Map.of("bql", "true"), List.of());
        Runs.conserved(run.result, "the drain run");
        String after = drainTime() + " after the traffic stopped";
        if (run.made.latest() instanceof NicDriver d) {
            assertEquals(0, d.txRing().used(), "BQL hooks: the TX ring still holds " + d.txRing().used()
                    + " descriptor(s) " + after + ": its completions were never cleaned");
        }
        assertTrue(run.bql != null, "BQL hooks: no queue limits of kind dql on the class path (io.ringlab.bql)");
        List<BqlRecorder.Recorded> used = run.bql.queues().stream().filter(q -> q.sentCalls > 0).toList();
        assertTrue(!used.isEmpty(), "BQL hooks: with bql = true " + DUT + " never reported a byte sent to its TX queue"
                + " (netdev_tx_sent_queue) in the drain run");
        for (BqlRecorder.Recorded q : used) {
            assertEquals(q.sentBytes, q.completedBytes, "BQL hooks: " + DUT + " reported " + q.sentBytes + " bytes sent"
                    + " (netdev_tx_sent_queue) but " + q.completedBytes + " completed (netdev_tx_completed_queue) " + after
                    + " with its ring drained: " + (q.sentBytes - q.completedBytes) + " bytes were never completed");
            if (q.limits() != null) {
                assertEquals(0, q.limits().inflight(), "BQL hooks: BQL's inflight is " + q.limits().inflight()
                        + " bytes " + after + ", not 0");
            }
            assertTrue(!q.stopped(), "BQL hooks: the TX queue is left stopped " + after + " (stopped by the driver: "
                    + q.driverStopped() + ", by BQL: " + q.stackStopped() + "): the qdisc would never run again");
        }
    }

    @Test
    public void bqlKeepsFarFewerBytesInTheDevice() {
        assumeTrue(hasBql(), DUT + " has no boolean property bql: the BQL checks do not apply");
        double on = heldInSecondHalf(run(Traffic.LOADED, "the loaded run with bql = true", 1, Map.of("bql", "true"),
                List.of()));
        double off = heldInSecondHalf(run(Traffic.LOADED, "the loaded run with bql = false", 1, Map.of("bql", "false"),
                List.of()));
        assertTrue(off > 0, "BQL hooks: without BQL the device held no bytes in the loaded run: the load did not reach it");
        assertTrue(on <= off / 2, String.format(java.util.Locale.ROOT, "BQL hooks: BQL does not limit the device's queue:"
                + " over the second half of the loaded run the device held %.0f bytes on average with bql = true and %.0f"
                + " without (at most half expected)", on, off));
    }

    private double heldInSecondHalf(Run run) {
        Runs.finished(run.result, "the loaded run");
        long half = Units.parsePicos(duration()) / 2;
        return run.heldTxBytes.stream().filter(s -> s[0] >= half).mapToLong(s -> s[1]).average().orElse(0);
    }

    // ------------------------------------------------------------------ determinism

    @Test
    public void theSameSeedGivesTheSameResults() {
        RunResultDTO a = run(Traffic.RANDOM, "the random run", 7, Map.of(), List.of()).result;
        RunResultDTO b = run(Traffic.RANDOM, "the random run", 7, Map.of(), List.of()).result;
        Runs.finished(a, "the random run");
        List<String> diff = Runs.differences(a, b);
        assertTrue(diff.isEmpty(), "determinism: two runs with seed 7 differ: " + Runs.firstOf(diff, 5) + " (a model"
                + " takes its randomness from ElementContext.random() and its time from nowPicos(), never from wall time"
                + " or an unseeded Random)");
    }

    @Test
    public void anotherSeedGivesOtherResults() {
        RunResultDTO a = run(Traffic.RANDOM, "the random run", 7, Map.of(), List.of()).result;
        RunResultDTO b = run(Traffic.RANDOM, "the random run", 8, Map.of(), List.of()).result;
        Runs.finished(a, "the random run");
        Runs.finished(b, "the random run");
        // the driver's own metrics; for a driver that has none, what reached the wire's far end through it
        String seen = a.elements.getOrDefault(DUT, Map.of()).isEmpty() ? "sink" : DUT;
        assertTrue(!Objects.equals(a.elements.get(seen), b.elements.get(seen)), "determinism: seeds 7 and 8 give " + seen
                + " the same metrics with random traffic: the traffic does not reach " + DUT + ", or it ignores it");
    }

    // ------------------------------------------------------------------ handover

    @Test
    public void aSameVersionSwapUnderLoadHandsOverAndChangesNothing() {
        String at = Units.formatPicos(Units.parsePicos(duration()) / 2);
        RunResultDTO plain = run(Traffic.LOADED, "the loaded run", 3, Map.of(), List.of()).result;
        RunResultDTO swapped = run(Traffic.LOADED, "the loaded run with a swap at " + at, 3, Map.of(),
                List.of(at + ":" + DUT)).result;
        Runs.finished(plain, "the loaded run");
        handedOver(swapped, at);
        List<String> diff = Runs.differences(plain, swapped);
        assertTrue(diff.isEmpty(), "handover: a same-version swap at " + at + " changed the results: "
                + Runs.firstOf(diff, 5));
    }

    // ------------------------------------------------------------------ declarations

    @Test
    public void everyMetricItReportsIsDeclared() {
        RunResultDTO r = run(Traffic.LOADED, "the loaded run", 1, hasBql() ? Map.of("bql", "true") : Map.of(),
                List.of()).result;
        Runs.finished(r, "the loaded run");
        Set<String> reported = r.elements.getOrDefault(DUT, Map.of()).keySet();
        List<String> bad = MetricDeclarations.undeclared(MetricDeclarations.listed(factory()), reported);
        assertTrue(bad.isEmpty(), "declarations: " + DUT + " reports metrics its factory does not declare with a kind,"
                + " a meaning and a unit (ElementDescriptorDTO.metricDescriptors): " + Runs.firstOf(bad, 5));
        List<String> unreported = MetricDeclarations.unreported(factory().descriptor(), reported);
        assertTrue(unreported.isEmpty(), "declarations: " + DUT + "'s factory declares metrics the loaded run does not"
                + " report: " + Runs.firstOf(unreported, 5));
        List<String> roles = MetricDeclarations.canvasRoles(MetricDeclarations.listed(factory()));
        assertTrue(roles.isEmpty(), "declarations: canvas roles (MetricDescriptorDTO.canvas): " + Runs.firstOf(roles, 5));
    }

    /**
     * Checks what every handover must give: one swap, applied, with a handover, nothing dropped or drained, buffers
     * handed over, the run conserved. Shared with {@link QdiscContract}.
     */
    static SwapDTO handedOver(RunResultDTO swapped, String at) {
        String what = "the run with a swap at " + at;
        Runs.finished(swapped, what);
        assertEquals(1, swapped.swaps.size(), "handover: " + what + " records " + swapped.swaps.size() + " swaps");
        SwapDTO d = swapped.swaps.get(0);
        assertTrue(d.applied, "handover: the swap at " + at + " was not applied: " + d.message);
        assertTrue(d.handover, "handover: the swap at " + at + " fell back to drain and restart: " + d.message);
        long drained = swapped.invariants.droppedByReason.getOrDefault(Runs.SWAP_DRAIN, 0L);
        assertTrue(d.packetsDropped == 0 && drained == 0, "handover: the swap at " + at + " dropped " + d.packetsDropped
                + " packet(s) (" + Runs.SWAP_DRAIN + ": " + drained + "): the new instance did not take them over"
                + (d.message == null ? "" : "; " + d.message));
        assertTrue(d.buffersTransferred > 0, "handover: the swap at " + at + " handed no buffer over: the element held"
                + " none, so the round trip checked nothing");
        Runs.conserved(swapped, what);
        return d;
    }
}
