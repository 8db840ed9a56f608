package io.ringlab.cli;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;

import org.junit.jupiter.api.Test;

import com.google.gson.JsonArray;
import com.google.gson.JsonObject;
import com.google.gson.JsonParser;

import io.ringlab.sim.api.dto.RunResultDTO;

/** {@link Json}: pretty Gson output with NaN and infinities as null. */
class JsonTest {

    @Test
    void resultUsesTheDtoFieldNames() {
        JsonObject o = JsonParser.parseString(Json.result(Results.ok("tiny"))).getAsJsonObject();

        for (String field : List.of("schemaVersion", "ringlabVersion", "bundles", "pipeline", "pipelineFile", "seed",
                "state", "simulatedSeconds", "wallSeconds", "wallMeasurements", "events", "packets", "profile",
                "elements", "runtime", "series", "invariants", "headline")) {
            assertTrue(o.has(field), field + " missing in " + o);
        }
    }

    @Test
    void resultIsPrettyPrinted() {
        String text = Json.result(Results.ok("tiny"));

        assertTrue(text.startsWith("{\n  \""), text);
        assertTrue(text.lines().count() > 10, text);
    }

    @Test
    void resultDoesNotEscapeHtmlCharacters() {
        RunResultDTO r = Results.ok("a<b>&'c'");

        String text = Json.result(r);

        assertTrue(text.contains("\"pipeline\": \"a<b>&'c'\""), text);
    }

    @Test
    void resultWritesInfiniteHeadlineValuesAsNull() {
        RunResultDTO r = Results.ok("tiny");
        r.headline.value = Double.POSITIVE_INFINITY;

        JsonObject h = JsonParser.parseString(Json.result(r)).getAsJsonObject().getAsJsonObject("headline");

        assertTrue(h.has("value"), "headline.value is missing instead of null: " + h);
        assertTrue(h.get("value").isJsonNull(), h.toString());
    }

    @Test
    void resultKeepsFiniteNumbersExactly() {
        RunResultDTO r = Results.ok("tiny");
        r.seed = Long.MAX_VALUE;
        r.elements.get("sink").put("tiny", 1e-300);

        JsonObject o = JsonParser.parseString(Json.result(r)).getAsJsonObject();

        assertEquals(Long.MAX_VALUE, o.get("seed").getAsLong());
        assertEquals(1e-300, o.getAsJsonObject("elements").getAsJsonObject("sink").get("tiny").getAsDouble());
    }

    @Test
    void toJsonReplacesNanInArraysWithNullAndKeepsOrder() {
        Map<String, Object> m = new LinkedHashMap<>();
        m.put("z", 1);
        m.put("a", new double[] {1.5, Double.NaN, Double.NEGATIVE_INFINITY, 2.5});

        String text = Json.toJson(m);

        JsonObject o = JsonParser.parseString(text).getAsJsonObject();
        assertEquals(List.of("z", "a"), List.copyOf(o.keySet()));
        JsonArray a = o.getAsJsonArray("a");
        assertEquals(4, a.size());
        assertEquals(1.5, a.get(0).getAsDouble());
        assertTrue(a.get(1).isJsonNull());
        assertTrue(a.get(2).isJsonNull());
        assertEquals(2.5, a.get(3).getAsDouble());
    }

    @Test
    void toJsonWritesANanMapValueAsNull() {
        Map<String, Object> m = new LinkedHashMap<>();
        m.put("ok", 1.0);
        m.put("nan", Double.NaN);

        JsonObject o = JsonParser.parseString(Json.toJson(m)).getAsJsonObject();

        assertTrue(o.has("nan"), "nan is missing instead of null: " + o);
        assertTrue(o.get("nan").isJsonNull(), o.toString());
    }
}
