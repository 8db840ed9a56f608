package io.ringlab.console;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.util.List;
import java.util.Map;
import java.util.TreeMap;

import org.junit.jupiter.api.Test;

import io.ringlab.sim.api.dto.RuntimeRowDTO;

class CpuTableTest {
    @Test
    void theResultsRuntimeRowsInTheCommandLinesFormat() {
        RuntimeRowDTO r = new RuntimeRowDTO();
        r.element = "eth0";
        r.calls = 98_181;
        r.packets = 23_936;
        r.cycles = 8_349_696;
        r.cpuNanos = 2_087_424;
        r.cyclesPerPacket = 348.83422459893046;
        r.cpuNanosPerPacket = 87.20855614973262;
        List<CpuTable> rows = CpuTable.ofResult(List.of(r));
        assertEquals(List.of("eth0", "98,181", "23,936", "8,349,696", "348.8", "87.21"), rows.get(0).cells());
        assertTrue(CpuTable.ofResult(null).isEmpty());
    }

    @Test
    void liveRowsComeFromTheSnapshotsCpuMetricsWithCallsUnknown() {
        Map<String, Map<String, Double>> m = new TreeMap<>();
        m.put("eth0", Map.of("cpuCycles", 8_349_696.0, "cpuNanos", 2_087_424.0, "cpuCyclesPerPacket", 8_349_696.0 / 23_936,
                "cpuNanosPerPacket", 2_087_424.0 / 23_936, "rxPackets", 23_936.0));
        m.put("gen", Map.of("txPackets", 5.0)); // charges no CPU: no row
        m.put("cpu0", Map.of("busyNanos", 1.0));
        m.put("idle", Map.of("cpuCycles", 300.0, "cpuNanos", 75.0)); // charged, no packets yet
        List<CpuTable> rows = CpuTable.ofSnapshot(m);
        assertEquals(2, rows.size());
        assertEquals(List.of("eth0", "-", "23,936", "8,349,696", "348.8", "87.21"), rows.get(0).cells());
        assertEquals(List.of("idle", "-", "0", "300", "0.0", "0.00"), rows.get(1).cells());
    }
}
