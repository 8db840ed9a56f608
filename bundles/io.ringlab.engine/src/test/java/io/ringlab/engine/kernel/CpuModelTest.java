package io.ringlab.engine.kernel;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.util.ArrayList;
import java.util.List;

import org.junit.jupiter.api.Test;

import io.ringlab.sim.api.Core;
import io.ringlab.sim.api.CpuTask;

import io.ringlab.sim.api.dto.RunResultDTO;
import io.ringlab.sim.api.dto.RuntimeRowDTO;

/** Work on a simulated core costs cycles at the profile's frequency, and a busy core makes packets wait. */
class CpuModelTest {

    private static RunResultDTO run(String rate, long cycles) throws Exception {
        return Pipelines.build("""
                duration = 10ms
                element src : source { rate = %s; size = 64B }
                element sink : sink { cycles = %d; backlog = 100000 }
                src -> sink
                """.formatted(rate, cycles), 1).run();
    }

    @Test
    void cyclesPerPacketAreChargedAtTheProfileFrequency() throws Exception {
        RunResultDTO r = run("100Mbit", 400); // 400 cycles at 4 GHz = 100 ns per packet
        RuntimeRowDTO row = r.runtime.stream().filter(x -> x.element.equals("sink")).findFirst().orElseThrow();
        assertEquals(400.0, row.cyclesPerPacket, 1e-9);
        assertEquals(100.0, row.cpuNanosPerPacket, 1e-9);
        assertEquals(100.0, r.elements.get("sink").get("cpuNanosPerPacket"), 1e-9);
        // 100 Mbit/s of 64-byte frames = 148,809 packets/s; 100 ns each keeps the core 1.49 % busy
        assertEquals(1.488, r.elements.get("cpu0").get("utilisationPercent"), 0.01);
        // an idle core serves each packet at once: latency = service time
        assertEquals(0.1, r.elements.get("sink").get("latencyP50Micros"), 0.001);
    }

    /**
     * A cycle count's virtual time is cycles * 10^12 / f rounded to the nearest picosecond, by a multiplication where the
     * frequency divides 10^12 (4 GHz, 1.6 GHz, 1 GHz) and by the division otherwise (1.536 GHz, 3.3 GHz): both give what
     * the division gives, over counts from 0 to where the product leaves 63 bits.
     */
    @Test
    void cycleTimesAreTheRoundedDivisionAtEveryFrequency() {
        java.util.SplittableRandom r = new java.util.SplittableRandom(21);
        for (long f : new long[] {4_000_000_000L, 1_600_000_000L, 1_000_000_000L, 1_536_000_000L, 3_300_000_000L, 7L}) {
            Simulation sim = new Simulation(new TestRegistry(), new TestRegistry().profile("generic-x86-4ghz"), 1);
            CoreImpl core = new CoreImpl(sim, 0, f);
            for (int i = 0; i < 100_000; i++) {
                long cycles = i < 1000 ? i : r.nextLong(Long.MAX_VALUE / 1_000_000_000_000L);
                long expected = (cycles * 1_000_000_000_000L + f / 2) / f;
                assertEquals(expected, core.picosForCycles(cycles), cycles + " cycles at " + f + " Hz");
            }
            assertEquals(1e12 / f, core.picosPerCycle, 0.0, "the accounts' picoseconds per cycle");
        }
    }

    @Test
    void anOverloadedCoreLimitsThroughputAndQueues() throws Exception {
        // 148.8 kpps offered, 10 us of work each: the core serves 100 kpps at most
        RunResultDTO r = run("100Mbit", 40_000);
        double served = r.elements.get("sink").get("rxPackets");
        assertEquals(1000, served, 2, "10 ms at 100 kpps");
        assertTrue(r.elements.get("cpu0").get("utilisationPercent") > 99.9);
        assertTrue(r.elements.get("sink").get("latencyP99Micros") > 1000, "backlog builds up");
        assertTrue(r.invariants.packetConservation, r.invariants.violations.toString());
    }

    @Test
    void aHotSwapsNewTaskTakesTheOldOnesPlaceInItsQueue() {
        Simulation sim = new Simulation(new TestRegistry(), new TestRegistry().profile("generic-x86-4ghz"), 1);
        CoreImpl core = sim.cores[0];
        List<String> ran = new ArrayList<>();
        CpuTask a = c -> ran.add("a"), old = c -> ran.add("old"), b = c -> ran.add("b"), neu = c -> ran.add("new");
        core.view(1).submit(Core.SOFTIRQ, a);
        core.view(2).submit(Core.SOFTIRQ, old);
        core.view(1).submit(Core.SOFTIRQ, b);
        core.view(3).submit(Core.SOFTIRQ, neu); // submitted by the import as well: it waits only once
        assertEquals(1, core.replaceQueued(old, neu, 3));
        assertEquals(0, core.cancelOwned(2), "nothing of the old instance is left to cancel");
        sim.advance(Long.MAX_VALUE, Long.MAX_VALUE);
        assertEquals(List.of("a", "new", "b"), ran);
    }
}
