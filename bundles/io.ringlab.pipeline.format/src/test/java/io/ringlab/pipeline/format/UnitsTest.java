package io.ringlab.pipeline.format;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.util.ArrayList;
import java.util.List;
import java.util.Random;
import java.util.function.LongFunction;
import java.util.function.ToLongFunction;

import org.junit.jupiter.api.Test;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.CsvSource;

import io.ringlab.sim.api.dto.PropertyDescriptorDTO;
import io.ringlab.sim.api.dto.PropertyDescriptorDTO.Kind;

class UnitsTest {

    private static final String DURATION_HELP = "write a number followed by ps, ns, us (or µs), ms or s";
    private static final String RATE_HELP = "write a number followed by bit, kbit, Mbit, Gbit or Tbit (per second), "
            + "or bps, kbps, Mbps, Gbps (bytes per second)";
    private static final String SIZE_HELP = "write a number followed by B, KB, MB or GB (powers of 1000), "
            + "or KiB, MiB or GiB (powers of 1024)";

    // ---- durations

    @ParameterizedTest
    @CsvSource({
        "1ps, 1",
        "1ns, 1000",
        "1us, 1000000",
        "1\u00B5s, 1000000",
        "1\u03BCs, 1000000",
        "1ms, 1000000000",
        "1s, 1000000000000",
        "0.1ms, 100000000",
        "20s, 20000000000000",
        "0ps, 0",
        "0s, 0",
        "6.72ns, 6720",
        "9223372.036854775807s, 9223372036854775807",
    })
    void parsesEachDurationUnitToPicoseconds(String text, long picos) {
        assertEquals(picos, Units.parsePicos(text));
    }

    @Test
    void sixPointSevenTwoNanosecondsIsExactly6720Picoseconds() {
        // 6.72 has no exact binary representation; a double-based parser could give 6719
        assertEquals(6720, Units.parsePicos("6.72ns"));
        assertEquals(6_720_000, Units.parsePicos("6.72us"));
        assertEquals(672, Units.parsePicos("0.672ns"));
    }

    @Test
    void roundsToWholePicosecondsHalfUp() {
        assertEquals(1, Units.parsePicos("0.0005ns"));
        assertEquals(0, Units.parsePicos("0.0004999ns"));
        assertEquals(1, Units.parsePicos("0.5ps"));
        assertEquals(2, Units.parsePicos("1.5ps"));
        assertEquals(1_000_001, Units.parsePicos("1.0000005us"));
        assertEquals(1_000_000, Units.parsePicos("1.00000049us"));
    }

    @Test
    void aDurationNeedsAUnit() {
        assertMessage("'100' is not a duration: the unit is missing; " + DURATION_HELP, () -> Units.parsePicos("100"));
        assertMessage("'1.5' is not a duration: the unit is missing; " + DURATION_HELP, () -> Units.parsePicos("1.5"));
    }

    @Test
    void rejectsMalformedAndNegativeDurations() {
        for (String bad : List.of("", "s", "1h", "1 s", "1S", "1Ms", "1.s", ".5ms", "1e3ns", "0x10ns", " 1s", "1s ")) {
            assertMessage("'" + bad + "' is not a duration: " + DURATION_HELP, () -> Units.parsePicos(bad));
        }
        assertMessage("'-1s' is not a duration: it must not be negative", () -> Units.parsePicos("-1s"));
        UnitException e = assertThrows(UnitException.class, () -> Units.parsePicos("9223372.036854775808s"));
        assertTrue(e.getMessage().startsWith("'9223372.036854775808s' is too large for a duration"), e.getMessage());
    }

    // ---- rates

    @ParameterizedTest
    @CsvSource({
        "1bit, 1",
        "1kbit, 1000",
        "1Mbit, 1000000",
        "1Gbit, 1000000000",
        "1Tbit, 1000000000000",
        "100Mbit, 100000000",
        "100Gbit, 100000000000",
        "2.5Gbit, 2500000000",
        "1bit/s, 1",
        "1kbit/s, 1000",
        "1Mbit/s, 1000000",
        "1Gbit/s, 1000000000",
        "1Tbit/s, 1000000000000",
        "1mbit, 1000000",
        "1MBIT, 1000000",
        "1Kbit, 1000",
        "1gbit, 1000000000",
        "0bit, 0",
    })
    void parsesEachBitRateUnit(String text, long bitsPerSecond) {
        assertEquals(bitsPerSecond, Units.parseBitsPerSecond(text));
    }

    @ParameterizedTest
    @CsvSource({
        "1bps, 8",
        "1kbps, 8000",
        "1Mbps, 8000000",
        "1Gbps, 8000000000",
        "1mbps, 8000000",
        "125Mbps, 1000000000",
        "0.5bps, 4",
    })
    void bpsMeansBytesPerSecondAsInTc(String text, long bitsPerSecond) {
        assertEquals(bitsPerSecond, Units.parseBitsPerSecond(text));
    }

    @Test
    void rateErrorsListTheUnits() {
        assertMessage("'100Mbt' is not a rate: " + RATE_HELP, () -> Units.parseBitsPerSecond("100Mbt"));
        assertMessage("'100' is not a rate: the unit is missing; " + RATE_HELP, () -> Units.parseBitsPerSecond("100"));
        assertMessage("'100M' is not a rate: " + RATE_HELP, () -> Units.parseBitsPerSecond("100M"));
        assertMessage("'-1Mbit' is not a rate: it must not be negative", () -> Units.parseBitsPerSecond("-1Mbit"));
        assertMessage("'fast' is not a rate: " + RATE_HELP, () -> Units.parseBitsPerSecond("fast"));
    }

    @Test
    void roundsRatesToWholeBitsPerSecond() {
        assertEquals(1, Units.parseBitsPerSecond("0.5bit"));
        assertEquals(0, Units.parseBitsPerSecond("0.4bit"));
        assertEquals(1_234_568, Units.parseBitsPerSecond("1.2345675Mbit"));
    }

    // ---- sizes

    @ParameterizedTest
    @CsvSource({
        "1B, 1",
        "1500B, 1500",
        "1KB, 1000",
        "1kB, 1000",
        "1MB, 1000000",
        "1GB, 1000000000",
        "1KiB, 1024",
        "1MiB, 1048576",
        "1GiB, 1073741824",
        "1.5KB, 1500",
        "0.5KiB, 512",
        "0B, 0",
    })
    void parsesEachSizeUnit(String text, long bytes) {
        assertEquals(bytes, Units.parseBytes(text));
    }

    @Test
    void roundsFractionalBytesHalfUp() {
        assertEquals(1, Units.parseBytes("0.5B"));
        assertEquals(1, Units.parseBytes("1.4B"));
        assertEquals(2, Units.parseBytes("1.5B"));
        assertEquals(1, Units.parseBytes("0.0005KB"));
    }

    @Test
    void sizeErrorsListTheUnits() {
        assertMessage("'1500' is not a size: the unit is missing; " + SIZE_HELP, () -> Units.parseBytes("1500"));
        for (String bad : List.of("1kb", "1b", "1mb", "1Kib", "1KIB", "1TB", "1 B", "B")) {
            assertMessage("'" + bad + "' is not a size: " + SIZE_HELP, () -> Units.parseBytes(bad));
        }
        assertMessage("'-1B' is not a size: it must not be negative", () -> Units.parseBytes("-1B"));
    }

    // ---- integers, decimals, booleans

    @ParameterizedTest
    @CsvSource({
        "0, 0",
        "1000, 1000",
        "-3, -3",
        "1_000_000, 1000000",
        "1__0, 10",
        "0x10, 16",
        "0XfF, 255",
        "0xFFFF_FFFF, 4294967295",
        "-0x10, -16",
        "10k, 10000",
        "2M, 2000000",
        "1G, 1000000000",
        "9223372036854775807, 9223372036854775807",
        "-9223372036854775808, -9223372036854775808",
        "0x7FFF_FFFF_FFFF_FFFF, 9223372036854775807",
    })
    void parsesIntegers(String text, long value) {
        assertEquals(value, Units.parseInteger(text));
    }

    @Test
    void rejectsMalformedIntegers() {
        String help = "write decimal digits, optionally followed by k, M or G (times 1000, 1000000 or 1000000000), "
                + "or 0x and hex digits; '_' may separate digits";
        for (String bad : List.of("", "_1", "1_", "0x", "0x_1", "1.5", "12abc", "1K", "1m", "+1", "0x1k", " 1", "1e3")) {
            assertMessage("'" + bad + "' is not an integer: " + help, () -> Units.parseInteger(bad));
        }
        assertMessage("'9223372036854775808' is out of range for an integer: allowed -9223372036854775808 to "
                + "9223372036854775807", () -> Units.parseInteger("9223372036854775808"));
        assertThrows(UnitException.class, () -> Units.parseInteger("0x8000_0000_0000_0000"));
        assertThrows(UnitException.class, () -> Units.parseInteger("9223372037G"));
    }

    @Test
    void parsesDecimals() {
        assertEquals(0.25, Units.parseDecimal("0.25"));
        assertEquals(-3.0, Units.parseDecimal("-3"));
        assertEquals(1e-6, Units.parseDecimal("1e-6"));
        assertEquals(1.5e3, Units.parseDecimal("1.5E+3"));
        for (String bad : List.of("", "abc", "1.", ".5", "NaN", "Infinity", "1e", "0x10", "1,5", "1d")) {
            assertMessage("'" + bad + "' is not a decimal number: write digits with an optional fraction and exponent, "
                    + "for example 0.25, -3 or 1e-6", () -> Units.parseDecimal(bad));
        }
        assertThrows(UnitException.class, () -> Units.parseDecimal("1e400"));
    }

    @Test
    void parsesExactlyTrueAndFalse() {
        assertTrue(Units.parseBoolean("true"));
        assertFalse(Units.parseBoolean("false"));
        for (String bad : List.of("True", "FALSE", "1", "0", "yes", "", " true")) {
            assertMessage("'" + bad + "' is not a boolean: write true or false", () -> Units.parseBoolean(bad));
        }
    }

    // ---- convert

    @Test
    void convertsByKind() {
        assertEquals(100_000_000_000L, Units.convert(of("rate", Kind.RATE, null, null), "100Gbit"));
        assertEquals(100_000_000L, Units.convert(of("delay", Kind.DURATION, null, null), "0.1ms"));
        assertEquals(2048L, Units.convert(of("buf", Kind.SIZE, null, null), "2KiB"));
        assertEquals(16L, Units.convert(of("mask", Kind.INTEGER, null, null), "0x10"));
        assertEquals(0.25, Units.convert(of("p", Kind.DECIMAL, null, null), "0.25"));
        assertEquals(Boolean.TRUE, Units.convert(of("bql", Kind.BOOLEAN, null, null), "true"));
        assertEquals("eth0 rx", Units.convert(of("label", Kind.STRING, null, null), "eth0 rx"));
        PropertyDescriptorDTO choice = PropertyDescriptorDTO.choice("qdisc", "pfifo_fast",
                List.of("pfifo_fast", "pfifo", "fq_codel"), "the root qdisc");
        assertEquals("fq_codel", Units.convert(choice, "fq_codel"));
    }

    @Test
    void choiceErrorsListTheOptions() {
        PropertyDescriptorDTO choice = PropertyDescriptorDTO.choice("qdisc", "pfifo_fast",
                List.of("pfifo_fast", "pfifo", "fq_codel"), "the root qdisc");
        assertMessage("qdisc: 'codel' is not one of the allowed values: pfifo_fast, pfifo, fq_codel",
                () -> Units.convert(choice, "codel"));
    }

    @Test
    void parseErrorsNameTheProperty() {
        assertMessage("rate: '100Mbt' is not a rate: " + RATE_HELP,
                () -> Units.convert(of("rate", Kind.RATE, null, null), "100Mbt"));
        assertMessage("limit: 'many' is not an integer: write decimal digits, optionally followed by k, M or G "
                + "(times 1000, 1000000 or 1000000000), or 0x and hex digits; '_' may separate digits",
                () -> Units.convert(of("limit", Kind.INTEGER, "1", null), "many"));
        assertMessage("bql: 'yes' is not a boolean: write true or false",
                () -> Units.convert(of("bql", Kind.BOOLEAN, null, null), "yes"));
    }

    @Test
    void checksTheRangeInBaseUnits() {
        PropertyDescriptorDTO rate = of("rate", Kind.RATE, "1bit", "400Gbit");
        assertEquals(400_000_000_000L, Units.convert(rate, "400Gbit"));
        assertEquals(1L, Units.convert(rate, "1bit"));
        assertEquals(400_000_000_000L, Units.convert(rate, "50Gbps"), "50 GB/s is 400 Gbit/s");
        assertMessage("rate=500Gbit is out of range: allowed 1bit to 400Gbit", () -> Units.convert(rate, "500Gbit"));
        assertMessage("rate=0bit is out of range: allowed 1bit to 400Gbit", () -> Units.convert(rate, "0bit"));
        assertMessage("rate=51Gbps is out of range: allowed 1bit to 400Gbit", () -> Units.convert(rate, "51Gbps"));

        assertMessage("limit=0 is out of range: allowed 1 or more",
                () -> Units.convert(of("limit", Kind.INTEGER, "1", null), "0"));
        assertMessage("delay=2s is out of range: allowed at most 1s",
                () -> Units.convert(of("delay", Kind.DURATION, null, "1s"), "2s"));
        assertMessage("buf=1MiB is out of range: allowed 64B to 1MB",
                () -> Units.convert(of("buf", Kind.SIZE, "64B", "1MB"), "1MiB"));
        assertMessage("p=1.5 is out of range: allowed 0 to 1",
                () -> Units.convert(of("p", Kind.DECIMAL, "0", "1"), "1.5"));
        assertEquals(1.0, Units.convert(of("p", Kind.DECIMAL, "0", "1"), "1"));
    }

    @Test
    void aBrokenDescriptorIsAProgrammingError() {
        IllegalArgumentException e = assertThrows(IllegalArgumentException.class,
                () -> Units.convert(of("rate", Kind.RATE, "1", null), "1bit"));
        assertFalse(e instanceof UnitException);
        assertTrue(e.getMessage().startsWith("descriptor of property 'rate' has an invalid min '1'"), e.getMessage());
        PropertyDescriptorDTO noOptions = of("qdisc", Kind.CHOICE, null, null);
        assertThrows(IllegalArgumentException.class, () -> Units.convert(noOptions, "x"));
        assertThrows(IllegalArgumentException.class, () -> Units.convert(of("x", null, null, null), "x"));
    }

    // ---- formatting

    @Test
    void formatsInTheLargestUnitThatKeepsTheTextShort() {
        assertEquals("100us", Units.formatPicos(100_000_000));
        assertEquals("1.5ms", Units.formatPicos(1_500_000_000));
        assertEquals("6.72ns", Units.formatPicos(6720));
        assertEquals("1s", Units.formatPicos(1_000_000_000_000L));
        assertEquals("1ps", Units.formatPicos(1));
        assertEquals("0ps", Units.formatPicos(0));
        assertEquals("1234567ps", Units.formatPicos(1_234_567));

        assertEquals("100Gbit", Units.formatBitsPerSecond(100_000_000_000L));
        assertEquals("1.5Mbit", Units.formatBitsPerSecond(1_500_000));
        assertEquals("8bit", Units.formatBitsPerSecond(8));
        assertEquals("0bit", Units.formatBitsPerSecond(0));

        assertEquals("1500B", Units.formatBytes(1500));
        assertEquals("2048B", Units.formatBytes(2048));
        assertEquals("9000B", Units.formatBytes(9000));
        assertEquals("0B", Units.formatBytes(0));
        assertEquals("64KiB", Units.formatBytes(65536));
        assertEquals("30KB", Units.formatBytes(30_000));
        assertEquals("1MB", Units.formatBytes(1_000_000));
        assertEquals("1MiB", Units.formatBytes(1 << 20));
        assertEquals("4GiB", Units.formatBytes(4L << 30));
        assertEquals("1234567B", Units.formatBytes(1_234_567));
    }

    @Test
    void formatRejectsNegativeValues() {
        assertThrows(IllegalArgumentException.class, () -> Units.formatPicos(-1));
        assertThrows(IllegalArgumentException.class, () -> Units.formatBitsPerSecond(-1));
        assertThrows(IllegalArgumentException.class, () -> Units.formatBytes(-1));
    }

    @Test
    void parseReadsBackWhatFormatWrites() {
        List<Long> values = new ArrayList<>(List.of(0L, 1L, 7L, 999L, 1000L, 1001L, 1023L, 1024L, 1500L, 6720L, 9999L,
                10_000L, 65_536L, 1_000_000L, 1_048_576L, 1_500_000_000L, 100_000_000_000L, 1_000_000_000_000L,
                1_073_741_824L, 999_999_999_999L, Long.MAX_VALUE, Long.MAX_VALUE - 1, Long.MAX_VALUE / 1000 * 1000));
        for (long p = 1; p > 0 && p < Long.MAX_VALUE / 10; p *= 10) {
            values.add(p);
            values.add(p * 3 / 2);
            values.add(p - 1);
        }
        for (long p = 1; p > 0; p <<= 1) {
            values.add(p);
            values.add(p + 1);
        }
        Random random = new Random(7);
        for (int i = 0; i < 20_000; i++) {
            long v = random.nextLong() & Long.MAX_VALUE;
            values.add(v >>> random.nextInt(63));
        }
        for (long v : values) {
            assertReadsBack(v, Units::formatPicos, Units::parsePicos);
            assertReadsBack(v, Units::formatBitsPerSecond, Units::parseBitsPerSecond);
            assertReadsBack(v, Units::formatBytes, Units::parseBytes);
        }
    }

    private static void assertReadsBack(long v, LongFunction<String> format, ToLongFunction<String> parse) {
        String text = format.apply(v);
        assertEquals(v, parse.applyAsLong(text), () -> v + " formatted as " + text);
    }

    private static PropertyDescriptorDTO of(String name, Kind kind, String min, String max) {
        return PropertyDescriptorDTO.of(name, kind, "0", min, max, "test property");
    }

    private static void assertMessage(String expected, org.junit.jupiter.api.function.Executable call) {
        UnitException e = assertThrows(UnitException.class, call);
        assertEquals(expected, e.getMessage());
    }
}
