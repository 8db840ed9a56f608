package io.ringlab.cluster;

import com.google.gson.Gson;
import com.google.gson.GsonBuilder;
import com.google.gson.JsonElement;
import com.google.gson.JsonObject;
import com.google.gson.JsonParseException;
import com.google.gson.JsonParser;

import io.ringlab.experiment.api.dto.RunTaskDTO;
import io.ringlab.sim.api.dto.RunResultDTO;

/**
 * What crosses the network between a client and a worker, as JSON text (so that no Ringlab class has to be
 * deserialized by Hazelcast): a {@link RunTaskDTO} one way, an {@link Answer} (the run's result, or why the worker
 * refused it, and the worker's address) the other way. Doubles are written as Java writes them (the shortest text that
 * reads back to the same bits), NaN and infinities included, and null fields are kept, so a result read back equals
 * the worker's bit for bit.
 * <p>
 * Stateless and thread-safe.
 */
final class Wire {
    private static final Gson GSON = new GsonBuilder().serializeSpecialFloatingPointValues().serializeNulls()
            .disableHtmlEscaping().create();

    private Wire() {
    }

    /**
     * What a worker answers: the result, or the error, and who ran it.
     *
     * @param unfit whether the worker cannot take any run of the experiment (it cannot use the submitter's plug-ins), so
     *        the run goes to another worker
     */
    record Answer(String worker, RunResultDTO result, String error, boolean unfit) {
    }

    /** What a client sends: the run, and the plug-ins (by {@link Plugins#key}) the worker must have. */
    record Task(RunTaskDTO run, java.util.List<String> plugins) {
    }

    static String task(RunTaskDTO task, java.util.List<String> plugins) {
        return GSON.toJson(new Task(task, plugins));
    }

    static Task task(String json) {
        Task t = GSON.fromJson(json, Task.class);
        return new Task(t.run(), t.plugins() == null ? java.util.List.of() : t.plugins());
    }

    static String answer(String worker, RunResultDTO result, String error) {
        return answer(worker, result, error, false);
    }

    static String answer(String worker, RunResultDTO result, String error, boolean unfit) {
        JsonObject o = new JsonObject();
        o.addProperty("worker", worker);
        o.add("result", result == null ? com.google.gson.JsonNull.INSTANCE : GSON.toJsonTree(result));
        o.addProperty("error", error);
        o.addProperty("unfit", unfit);
        return GSON.toJson(o);
    }

    /** @throws IllegalStateException if the text is not an answer */
    static Answer answer(String json) {
        try {
            JsonObject o = JsonParser.parseString(json).getAsJsonObject();
            JsonElement r = o.get("result");
            JsonElement unfit = o.get("unfit");
            return new Answer(string(o, "worker"), r == null || r.isJsonNull() ? null : GSON.fromJson(r, RunResultDTO.class),
                    string(o, "error"), unfit != null && !unfit.isJsonNull() && unfit.getAsBoolean());
        } catch (JsonParseException | IllegalStateException | UnsupportedOperationException e) {
            throw new IllegalStateException("a worker's answer is not readable: " + e.getMessage(), e);
        }
    }

    private static String string(JsonObject o, String name) {
        JsonElement e = o.get(name);
        return e == null || e.isJsonNull() ? null : e.getAsString();
    }
}
