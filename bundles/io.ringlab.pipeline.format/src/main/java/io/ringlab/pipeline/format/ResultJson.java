package io.ringlab.pipeline.format;

import java.io.BufferedWriter;
import java.io.IOException;
import java.io.OutputStreamWriter;
import java.io.Reader;
import java.io.Writer;
import java.nio.charset.StandardCharsets;

import com.google.gson.Gson;
import com.google.gson.GsonBuilder;
import com.google.gson.JsonParseException;
import com.google.gson.TypeAdapter;
import com.google.gson.stream.JsonReader;
import com.google.gson.stream.JsonToken;
import com.google.gson.stream.JsonWriter;

/**
 * The JSON of Ringlab's results ({@code RunResultDTO}, {@code ExperimentResultDTO}, snapshots, swaps), the one writer
 * and reader of it that the command line ({@code --json}, {@code --snapshots}) and the console (its exports, its child
 * runs' files) share: field names as in the DTOs, {@code null} fields written out, no HTML escaping, NaN and infinities
 * (which JSON cannot hold) written as {@code null} and read back as NaN.
 * <p>
 * Writing streams: each value goes from the DTO to the {@link Writer} as Gson's reflective adapters reach it, through a
 * buffer, so a result with a million series rows never exists as one string or as a tree of JSON elements; the memory
 * it needs beyond the DTO is the buffer's. Stateless and thread-safe.
 *
 * @since 1.3
 */
public final class ResultJson {
    /** Writes NaN and infinities as {@code null}; reads {@code null} as NaN. */
    private static final class FiniteOrNull extends TypeAdapter<Double> {
        @Override
        public void write(JsonWriter out, Double value) throws IOException {
            if (value == null || !Double.isFinite(value)) {
                out.nullValue();
            } else {
                out.value(value.doubleValue());
            }
        }

        @Override
        public Double read(JsonReader in) throws IOException {
            if (in.peek() == JsonToken.NULL) {
                in.nextNull();
                return Double.NaN;
            }
            return in.nextDouble();
        }
    }

    /**
     * A {@code double[]} (a series row) written from its primitives: Gson's own array adapter boxes every element, which
     * for a million rows is tens of millions of objects made while writing.
     */
    private static final class Doubles extends TypeAdapter<double[]> {
        @Override
        public void write(JsonWriter out, double[] values) throws IOException {
            if (values == null) {
                out.nullValue();
                return;
            }
            out.beginArray();
            for (double v : values) {
                if (Double.isFinite(v)) {
                    out.value(v);
                } else {
                    out.nullValue();
                }
            }
            out.endArray();
        }

        @Override
        public double[] read(JsonReader in) throws IOException {
            if (in.peek() == JsonToken.NULL) {
                in.nextNull();
                return null;
            }
            double[] values = new double[16];
            int n = 0;
            in.beginArray();
            while (in.hasNext()) {
                if (n == values.length) {
                    values = java.util.Arrays.copyOf(values, n * 2);
                }
                if (in.peek() == JsonToken.NULL) {
                    in.nextNull();
                    values[n++] = Double.NaN;
                } else {
                    values[n++] = in.nextDouble();
                }
            }
            in.endArray();
            return java.util.Arrays.copyOf(values, n);
        }
    }

    /**
     * Gson's writer, but numbers go to the output without a string each: Gson's {@code value(double)} makes one
     * ({@code Double.toString}), about 100 bytes of garbage a number, gigabytes for a million rows, which the collector
     * answers by growing the heap. The digits are the same ({@link StringBuilder#append(double)} and
     * {@link Double#toString(double)} share their algorithm); {@code jsonValue("")} does the writer's separators and
     * indentation.
     */
    private static final class NumberWriter extends JsonWriter {
        private final Writer out;
        private final StringBuilder digits = new StringBuilder(32);
        private final char[] chars = new char[32];

        NumberWriter(Writer out) {
            super(out);
            this.out = out;
            setFormattingStyle(com.google.gson.FormattingStyle.PRETTY);
        }

        @Override
        public JsonWriter value(double value) throws IOException {
            if (!Double.isFinite(value)) {
                return nullValue();
            }
            jsonValue("");
            digits.setLength(0);
            digits.append(value);
            int n = digits.length();
            digits.getChars(0, n, chars, 0);
            out.write(chars, 0, n);
            return this;
        }
    }

    private static final Gson PRETTY = builder().setPrettyPrinting().create();
    private static final Gson COMPACT = builder().create();

    private ResultJson() {
    }

    private static GsonBuilder builder() {
        FiniteOrNull finite = new FiniteOrNull();
        return new GsonBuilder().serializeNulls().disableHtmlEscaping().registerTypeAdapter(double.class, finite)
                .registerTypeAdapter(Double.class, finite).registerTypeAdapter(double[].class, new Doubles());
    }

    /**
     * Writes {@code value} pretty-printed (two spaces an indent, one value a line), as {@code ringlab run --json} does,
     * without a line end after it.
     *
     * @param out where it goes; not closed
     */
    public static void write(Object value, Writer out) throws IOException {
        try {
            PRETTY.toJson(value, value.getClass(), new NumberWriter(out));
        } catch (com.google.gson.JsonIOException e) {
            throw e.getCause() instanceof IOException io ? io : new IOException(e.getMessage(), e);
        }
    }

    /**
     * @return the content of a JSON file of {@code value}: {@link #write} and a line end, in UTF-8, streamed
     */
    public static OutputFile.Content file(Object value) {
        return out -> {
            Writer w = new BufferedWriter(new OutputStreamWriter(out, StandardCharsets.UTF_8), 1 << 16);
            write(value, w);
            w.write('\n');
            w.flush();
        };
    }

    /** @return {@code value} pretty-printed as {@link #write} writes it, for a small value */
    public static String text(Object value) {
        return PRETTY.toJson(value);
    }

    /** @return {@code value} on one line (a snapshot file rewritten often, a reply on standard output) */
    public static String compact(Object value) {
        return COMPACT.toJson(value);
    }

    /**
     * Reads what this class wrote; a {@code null} where a number belongs (NaN or an infinity written out, a series row's
     * metric not sampled yet) is read back as NaN.
     *
     * @param in the JSON, read as a stream; not closed
     * @return the value, or {@code null} for an empty input
     * @throws IOException when {@code in} cannot be read or does not hold such a value, with the reason
     */
    public static <T> T read(Reader in, Class<T> type) throws IOException {
        try {
            return COMPACT.fromJson(in, type);
        } catch (JsonParseException e) {
            throw new IOException(e.getMessage(), e);
        }
    }

    /**
     * @return {@code json} read as {@link #read} does
     * @throws IllegalArgumentException when it is not such a value, with the reason
     */
    public static <T> T read(String json, Class<T> type) {
        try {
            return COMPACT.fromJson(json, type);
        } catch (JsonParseException e) {
            throw new IllegalArgumentException(e.getMessage(), e);
        }
    }
}
