package io.ringlab.cli;

import io.ringlab.pipeline.format.ResultJson;
import io.ringlab.sim.api.dto.RunResultDTO;

/** The command line's JSON: {@link ResultJson}'s (pretty, field names as in the DTOs, nulls written, NaN as null). */
final class Json {
    private Json() {
    }

    /** @return a small result as text (the tests'); files are streamed with {@link ResultJson#file} */
    static String result(RunResultDTO r) {
        return ResultJson.text(r);
    }

    static String toJson(Object o) {
        return ResultJson.text(o);
    }

    /** @return {@code o} as JSON on one line, NaN and infinities as null (a snapshot file, rewritten often) */
    static String compact(Object o) {
        return ResultJson.compact(o);
    }
}
