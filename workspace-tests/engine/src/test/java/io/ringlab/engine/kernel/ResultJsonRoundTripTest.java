package io.ringlab.engine.kernel;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.io.ByteArrayOutputStream;
import java.io.StringReader;
import java.nio.charset.StandardCharsets;

import org.junit.jupiter.api.Test;

import com.google.gson.Gson;
import com.google.gson.GsonBuilder;
import com.google.gson.JsonElement;
import com.google.gson.JsonNull;

import io.ringlab.pipeline.format.ResultJson;
import io.ringlab.sim.api.dto.RunResultDTO;

import io.ringlab.conformance.ModelTests;

/**
 * {@link ResultJson} on a real run's result: the streamed file is, to the character, what the command line wrote before
 * it streamed (Gson's tree with NaN and infinities replaced by null, pretty-printed), and reads back to the same result.
 */
class ResultJsonRoundTripTest {
    /** The writer before streaming ({@code cli/Json} and {@code console/ResultFiles} at 9c5f744), kept as the reference. */
    private static final Gson TREE = new GsonBuilder().setPrettyPrinting().serializeSpecialFloatingPointValues()
            .serializeNulls().disableHtmlEscaping().create();

    private static JsonElement finite(JsonElement e) {
        if (e.isJsonPrimitive() && e.getAsJsonPrimitive().isNumber()) {
            return Double.isFinite(e.getAsDouble()) ? e : JsonNull.INSTANCE;
        }
        if (e.isJsonObject()) {
            for (String k : e.getAsJsonObject().keySet()) {
                e.getAsJsonObject().add(k, finite(e.getAsJsonObject().get(k)));
            }
        } else if (e.isJsonArray()) {
            for (int i = 0; i < e.getAsJsonArray().size(); i++) {
                e.getAsJsonArray().set(i, finite(e.getAsJsonArray().get(i)));
            }
        }
        return e;
    }

    @Test
    void aRealResultStreamsAsTheTreeWriterWroteItAndReadsBackTheSame() throws Exception {
        RunResultDTO r = ModelTests.runConserved(ModelTests.sample("netdev-bql.pipeline", "200ms"), 1);
        assertTrue(r.series.rows.size() > 100, "a series to write: " + r.series.rows.size());
        assertTrue(r.series.rows.stream().anyMatch(row -> java.util.Arrays.stream(row).anyMatch(Double::isNaN)),
                "a NaN in the series (an interval without latency samples), written as null");

        ByteArrayOutputStream file = new ByteArrayOutputStream();
        ResultJson.file(r).write(file);
        String streamed = file.toString(StandardCharsets.UTF_8);

        assertEquals(TREE.toJson(finite(TREE.toJsonTree(r))) + "\n", streamed);
        RunResultDTO back = ResultJson.read(new StringReader(streamed), RunResultDTO.class);
        assertEquals(streamed, ResultJson.text(back) + "\n", "the same result once read back");
        assertEquals(r.series.rows.size(), back.series.rows.size());
        assertEquals(r.elements, back.elements);
    }
}
