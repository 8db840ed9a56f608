package io.ringlab.results;

import java.lang.reflect.Type;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;

import com.google.gson.Gson;
import com.google.gson.GsonBuilder;
import com.google.gson.JsonParseException;
import com.google.gson.reflect.TypeToken;

/**
 * The JSON of the database's text columns: a run's sweep point and bundles (objects of strings, in the order written),
 * an experiment's metrics (a list of strings). Gson keeps an object's order both ways.
 * <p>
 * Stateless and thread-safe.
 */
final class Json {
    private static final Gson GSON = new GsonBuilder().disableHtmlEscaping().create();
    private static final Type STRING_MAP = new TypeToken<LinkedHashMap<String, String>>() {
    }.getType();
    private static final Type STRING_LIST = new TypeToken<ArrayList<String>>() {
    }.getType();

    private Json() {
    }

    /** @return a map as a JSON object, in the map's order; {@code {}} for {@code null} */
    static String object(Map<String, String> map) {
        return map == null ? "{}" : GSON.toJson(map, STRING_MAP);
    }

    /** @return a list as a JSON array; {@code []} for {@code null} */
    static String list(List<String> list) {
        return list == null ? "[]" : GSON.toJson(list, STRING_LIST);
    }

    /**
     * @param json a JSON object of strings, or {@code null}
     * @return its entries in the order written; empty for {@code null} or text that is not such an object
     */
    static Map<String, String> map(String json) {
        if (json == null) {
            return new LinkedHashMap<>();
        }
        try {
            Map<String, String> m = GSON.fromJson(json, STRING_MAP);
            return m != null ? m : new LinkedHashMap<>();
        } catch (JsonParseException e) {
            return new LinkedHashMap<>();
        }
    }

    /**
     * @param json a JSON array of strings, or {@code null}
     * @return its items; {@code null} for {@code null} or text that is not such an array
     */
    static List<String> strings(String json) {
        if (json == null) {
            return null;
        }
        try {
            return GSON.fromJson(json, STRING_LIST);
        } catch (JsonParseException e) {
            return null;
        }
    }
}
