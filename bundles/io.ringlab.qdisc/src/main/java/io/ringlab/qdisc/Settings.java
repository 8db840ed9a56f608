package io.ringlab.qdisc;

import java.util.List;
import java.util.Map;
import java.util.Objects;

/**
 * Reads qdisc provider settings: whole numbers within a range, with a default, and no unknown keys, so that a misspelt
 * setting does not pass silently. Messages are {@code key=value} with the allowed range and unit, as {@link PfifoProvider}
 * writes them.
 * <p>
 * Stateless; called once per qdisc creation, never per packet.
 */
final class Settings {

    private Settings() {
    }

    /**
     * @param settings the provider's settings; must not be {@code null}
     * @param allowed every key the kind accepts
     * @throws IllegalArgumentException for a {@code null} map or a key not in {@code allowed}
     */
    static void checkKeys(Map<String, Object> settings, List<String> allowed) {
        Objects.requireNonNull(settings, "settings=null, pass an empty map for the defaults");
        for (String key : settings.keySet()) {
            if (!allowed.contains(key)) {
                throw new IllegalArgumentException("setting=" + key + ", allowed settings: " + String.join(", ", allowed));
            }
        }
    }

    /**
     * @param settings the provider's settings
     * @param key the setting's key
     * @param min the smallest allowed value
     * @param max the largest allowed value
     * @param defaultValue the value when the key is absent
     * @param unit the unit, for the message (for example {@code "packets"})
     * @return the setting, or {@code defaultValue}
     * @throws IllegalArgumentException if the value is not a whole {@link Number} from {@code min} to {@code max}
     */
    static long whole(Map<String, Object> settings, String key, long min, long max, long defaultValue, String unit) {
        Object value = settings.get(key);
        if (value == null) {
            return defaultValue;
        }
        String allowed = ", allowed a whole Number from " + min + " to " + max + " " + unit;
        if (!(value instanceof Number number)) {
            throw new IllegalArgumentException(
                    key + "=" + value + allowed + ", not a " + value.getClass().getSimpleName());
        }
        long whole = number.longValue();
        if (number.doubleValue() != whole || whole < min || whole > max) {
            throw new IllegalArgumentException(key + "=" + value + allowed);
        }
        return whole;
    }
}
