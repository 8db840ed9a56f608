package io.ringlab.packetdrill;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;
import static org.junit.jupiter.api.Assertions.fail;

import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;
import java.util.regex.Matcher;
import java.util.regex.Pattern;
import java.util.stream.Stream;
import org.junit.jupiter.api.DynamicTest;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.TestFactory;

/**
 * Every script of {@code src/test/resources/packetdrill/} against Ringlab's model, one JUnit test each: those in the
 * folder must pass; those in {@code pending/} (what the model cannot pass yet) must still fail, at the line their
 * {@code // ringlab-pending: LINE: why} comment names, so that none passes, or fails elsewhere, unnoticed. Each
 * pending failure is printed with its reason.
 */
class PacketdrillScriptsTest {

	/** Surefire runs in the module's folder. */
	static final Path SCRIPTS = Path.of("src/test/resources/packetdrill");
	static final Path PENDING = SCRIPTS.resolve("pending");
	private static final Pattern PENDING_LINE = Pattern.compile("(?m)^//\\s*ringlab-pending:\\s*(\\d+):\\s*(.*)$");

	static List<Path> scripts(Path folder) throws IOException {
		if (folder.equals(PENDING) && !Files.exists(folder)) {
			return List.of(); // git keeps no empty folder: no pending script, no folder
		}
		assertTrue(Files.isDirectory(folder), () -> "no folder " + folder.toAbsolutePath());
		try (Stream<Path> files = Files.list(folder)) {
			return files.filter(p -> p.toString().endsWith(".pkt")).sorted().toList();
		}
	}

	@Test
	void theEightPacketdrillReproductionsAndTenMoreAreThere() throws IOException {
		List<String> names = Stream.concat(scripts(SCRIPTS).stream(), scripts(PENDING).stream())
				.map(p -> p.getFileName().toString()).toList();
		for (String required : List.of("fr-4pkt.pkt", "fr-4pkt-sack.pkt", "fr-4pkt-fack-last-mss.pkt",
				"fr-4pkt-fack-last-byte.pkt", "prr-ss-10pkt-lost-1.pkt", "prr-ss-30pkt-lost1_4.pkt",
				"prr-ss-30pkt-lost-1_4-11_16.pkt", "prr-ss-ack-below-snd_una-cubic.pkt")) {
			assertTrue(names.contains(required), required);
		}
		assertTrue(names.size() >= 18, names::toString);
		assertEquals(names.size(), names.stream().distinct().count(), "a script in both folders: " + names);
	}

	@TestFactory
	Stream<DynamicTest> passing() throws IOException {
		return scripts(SCRIPTS).stream().map(p -> DynamicTest.dynamicTest(p.getFileName().toString(), () -> {
			Executor.Result r = Executor.run(p);
			r.notes().forEach(n -> System.out.println(p.getFileName() + ": note: " + n));
			if (!r.passed()) {
				fail(r.failure() + "\n--- trace ---\n" + String.join("\n", r.trace()));
			}
		}));
	}

	@TestFactory
	Stream<DynamicTest> pending() throws IOException {
		return scripts(PENDING).stream().map(p -> DynamicTest.dynamicTest(p.getFileName().toString(), () -> {
			String text = Files.readString(p, StandardCharsets.UTF_8);
			Matcher m = PENDING_LINE.matcher(text);
			assertTrue(m.find(), p + ": a pending script says where it fails: // ringlab-pending: LINE: why");
			int line = Integer.parseInt(m.group(1));
			Executor.Result r = Executor.run(p);
			assertFalse(r.passed(), p + " passes now: move it out of pending/");
			System.out.println("pending " + p.getFileName() + " (" + m.group(2) + "): " + r.failure());
			assertEquals(line, r.line(), () -> p + " now fails at another line: " + r.failure());
		}));
	}
}
