package io.ringlab.cli;

import com.google.gson.Gson;
import com.google.gson.GsonBuilder;
import com.google.gson.JsonElement;
import com.google.gson.JsonObject;

import io.ringlab.sim.api.dto.RunResultDTO;

/** JSON output with Gson: pretty-printed, field names as in the DTOs, null fields written out, NaN and infinities written as null. */
final class Json {
    private static final Gson GSON = new GsonBuilder().setPrettyPrinting().serializeSpecialFloatingPointValues().serializeNulls()
            .disableHtmlEscaping().create();
    private static final Gson COMPACT = new GsonBuilder().serializeSpecialFloatingPointValues().serializeNulls()
            .disableHtmlEscaping().create();

    private Json() {
    }

    static String result(RunResultDTO r) {
        return GSON.toJson(finite(GSON.toJsonTree(r)));
    }

    static String toJson(Object o) {
        return GSON.toJson(finite(GSON.toJsonTree(o)));
    }

    /** @return {@code o} as JSON on one line, NaN and infinities as null (a snapshot file, rewritten often) */
    static String compact(Object o) {
        return COMPACT.toJson(finite(COMPACT.toJsonTree(o)));
    }

    /** Replaces NaN and infinities, which JSON cannot hold, with null. */
    private static JsonElement finite(JsonElement e) {
        if (e.isJsonPrimitive() && e.getAsJsonPrimitive().isNumber()) {
            double d = e.getAsDouble();
            return Double.isFinite(d) ? e : com.google.gson.JsonNull.INSTANCE;
        }
        if (e.isJsonObject()) {
            JsonObject o = e.getAsJsonObject();
            for (String k : o.keySet()) {
                o.add(k, finite(o.get(k)));
            }
        } else if (e.isJsonArray()) {
            var a = e.getAsJsonArray();
            for (int i = 0; i < a.size(); i++) {
                a.set(i, finite(a.get(i)));
            }
        }
        return e;
    }

    static JsonObject object() {
        return new JsonObject();
    }
}
