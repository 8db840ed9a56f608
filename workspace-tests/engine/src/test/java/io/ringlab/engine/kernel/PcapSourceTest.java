package io.ringlab.engine.kernel;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;

import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

import io.ringlab.pipeline.format.PipelineReader;
import io.ringlab.sim.api.PipelineException;
import io.ringlab.sim.api.dto.RunOptionsDTO;
import io.ringlab.sim.api.dto.RunResultDTO;

/**
 * {@code pcap-source} (issue 19, section 4) replays a capture Ringlab wrote: a Poisson source of mixed sizes, eight flows
 * and TOS 0x10 is captured at its output, the capture is replayed, and the replay's own capture has the same frame
 * times and lengths as tshark reads them, the same TOS and as many flows; looping and speed scale the times; a bad
 * capture is refused before the run, naming the file and the frame.
 */
class PcapSourceTest {
    @TempDir
    static Path dir;
    static RunResultDTO original;
    static RunResultDTO replay;

    static final String ORIGINAL = """
            name = "original"
            duration = 200ms
            element src : source {
                rate = 50Mbit
                arrivals = poisson
                sizes = uniform
                size = 64B
                sizeMax = 1518B
                flows = 8
                tos = 0x10
                burst = 3
            }
            element s : sink
            src -> s
            """;

    static String replayOf(Path capture, String extra) {
        return """
                name = "replay"
                duration = 400ms
                element r : pcap-source {
                    file = "%s"
                    %s
                }
                element s : sink
                r -> s
                """.formatted(capture, extra);
    }

    @BeforeAll
    static void captureASourceAndReplayIt() throws Exception {
        original = PcapTest.run(ORIGINAL, List.of("src.out=" + dir.resolve("original.pcapng")));
        replay = PcapTest.run(replayOf(dir.resolve("original.pcapng"), ""), List.of("r.out=" + dir.resolve("replay.pcapng")));
    }

    private static List<String> fields(String file, String... fields) throws Exception {
        String[] args = new String[fields.length * 2 + 2];
        args[0] = "-T";
        args[1] = "fields";
        for (int i = 0; i < fields.length; i++) {
            args[2 + 2 * i] = "-e";
            args[3 + 2 * i] = fields[i];
        }
        return Tshark.read(dir.resolve(file), dir, args).lines().toList();
    }

    @Test
    void theReplayHasTheCapturesTimesAndLengths() throws Exception {
        List<String> before = fields("original.pcapng", "frame.time_relative", "frame.len");
        List<String> after = fields("replay.pcapng", "frame.time_relative", "frame.len");
        assertTrue(before.size() > 500, "frames captured: " + before.size());
        assertEquals(before, after, "time after the first frame (ns) and length of every frame");
        assertEquals(original.elements.get("src").get("txPackets"), replay.elements.get("r").get("txPackets"));
        assertEquals(original.elements.get("s").get("rxBytes"), replay.elements.get("s").get("rxBytes"));
        assertEquals(1.0, replay.elements.get("r").get("loops"));
    }

    @Test
    void theReplayKeepsTheTosAndOneFlowPerFiveTuple() throws Exception {
        assertEquals(List.of("0x10"), fields("replay.pcapng", "ip.dsfield").stream().distinct().toList());
        long fiveTuples = fields("original.pcapng", "ip.src", "ip.dst", "udp.srcport", "udp.dstport").stream().distinct()
                .count();
        assertEquals(8, fiveTuples, "the source's eight flows");
        assertEquals(8.0, replay.elements.get("r").get("flows"));
        assertEquals(8, fields("replay.pcapng", "ip.src", "ip.dst", "udp.srcport", "udp.dstport").stream().distinct()
                .count(), "eight flows again");
    }

    @Test
    void loopsAndSpeedScaleTheTimes() throws Exception {
        Path capture = dir.resolve("original.pcapng");
        RunResultDTO fast = PcapTest.run(replayOf(capture, "speed = 2\n loop = 3"), List.of("r.out="
                + dir.resolve("fast.pcapng")));
        List<String> once = fields("original.pcapng", "frame.time_relative");
        List<String> thrice = fields("fast.pcapng", "frame.time_relative");
        int n = once.size();
        assertEquals(3 * n, thrice.size(), "three loops");
        assertEquals(3.0, fast.elements.get("r").get("loops"));
        double span = Double.parseDouble(once.get(n - 1)) / 2;
        double period = span + span / (n - 1);
        for (int k = 0; k < 3; k++) {
            for (int i = 0; i < n; i += 97) {
                double expected = k * period + Double.parseDouble(once.get(i)) / 2;
                assertEquals(expected, Double.parseDouble(thrice.get(k * n + i)), 2e-9, "loop " + k + " frame " + i);
            }
        }
    }

    @Test
    void aBadCaptureIsRefusedBeforeTheRunNamingTheFrame() throws Exception {
        byte[] whole = Files.readAllBytes(dir.resolve("original.pcapng"));
        Path cut = dir.resolve("cut.pcapng");
        Files.write(cut, java.util.Arrays.copyOf(whole, whole.length - 7));
        PipelineException e = assertThrows(PipelineException.class, () -> new PipelineBuilder(new TestRegistry())
                .build(PipelineReader.read("test.pipeline", replayOf(cut, "")), new RunOptionsDTO()));
        String message = e.problems().get(0).message;
        assertTrue(message.startsWith("element r: file = \"" + cut + "\": " + cut + ": frame "), message);
        assertTrue(message.contains(" is truncated"), message);
        assertEquals(3, e.problems().get(0).line, "the element's line");
        e = assertThrows(PipelineException.class, () -> new PipelineBuilder(new TestRegistry())
                .build(PipelineReader.read("test.pipeline", "element r : pcap-source\nelement s : sink\nr -> s\n"),
                        new RunOptionsDTO()));
        assertEquals("element r: file is not set: name a .pcap or .pcapng capture (file = \"x.pcapng\")",
                e.problems().get(0).message);
    }
}
