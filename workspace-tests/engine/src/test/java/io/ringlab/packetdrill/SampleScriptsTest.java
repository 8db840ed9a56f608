package io.ringlab.packetdrill;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

import io.ringlab.packetdrill.Event.AssertEvent;
import io.ringlab.packetdrill.Event.PacketEvent;
import io.ringlab.packetdrill.Event.ShellEvent;
import io.ringlab.packetdrill.Event.SyscallEvent;
import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;
import java.util.stream.Stream;
import org.junit.jupiter.api.Test;

/** Every sample script in {@code samples/} reads, and together they hold every kind of event. */
class SampleScriptsTest {

	/** Surefire runs in the module's folder; the samples are test sources, not class-path resources. */
	static final Path SAMPLES = Path.of("src/test/java/io/ringlab/packetdrill/samples");

	static List<Path> samples() throws IOException {
		assertTrue(Files.isDirectory(SAMPLES), () -> "no sample folder " + SAMPLES.toAbsolutePath());
		try (Stream<Path> files = Files.list(SAMPLES)) {
			return files.filter(p -> p.toString().endsWith(".pkt")).sorted().toList();
		}
	}

	@Test
	void everySampleReadsAndTheyCoverEveryEventKind() throws IOException {
		List<Path> samples = samples();
		assertEquals(5, samples.size(), samples::toString);
		int packets = 0;
		int calls = 0;
		int shells = 0;
		int blocks = 0;
		for (Path sample : samples) {
			Script script = Script.read(sample);
			assertEquals(sample.toString(), script.name());
			assertFalse(script.events().isEmpty(), sample::toString);
			for (int i = 1; i < script.events().size(); i++) {
				assertTrue(script.nominalMicros(i) >= script.nominalMicros(i - 1) || script.events().get(i).time()
						.kind() == Time.Kind.ABSOLUTE, sample + " event " + i);
			}
			for (Event e : script.events()) {
				switch (e) {
					case PacketEvent p -> packets++;
					case SyscallEvent s -> calls++;
					case ShellEvent s -> shells++;
					case AssertEvent a -> blocks++;
				}
			}
		}
		assertEquals(List.of(45, 42, 1, 5), List.of(packets, calls, shells, blocks));
	}
}
