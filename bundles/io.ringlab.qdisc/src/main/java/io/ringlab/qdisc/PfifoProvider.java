package io.ringlab.qdisc;

import java.util.Map;
import java.util.Objects;

import org.osgi.service.component.annotations.Component;

import io.ringlab.queue.api.Qdisc;
import io.ringlab.queue.api.QdiscProvider;

/**
 * Qdisc kind {@code "pfifo"}: Linux's packet-limited FIFO ({@code net/sched/sch_fifo.c}), see {@link PfifoQdisc}.
 * <p>
 * Settings: {@value #LIMIT}, a whole {@link Number} of packets, 1 to 1,000,000, default 1000 (the device's
 * {@code txqueuelen}, as {@code fifo_init} takes it when {@code tc} gives no limit). Any other key is rejected, so that a
 * misspelt setting does not pass silently.
 * <p>
 * Stateless and thread-safe: every call returns an independent qdisc.
 */
@Component(service = QdiscProvider.class, property = QdiscProvider.KIND + "=pfifo")
public final class PfifoProvider implements QdiscProvider {

    /** Setting: the queue limit in packets, a whole {@link Number}, 1 to 1,000,000; default 1000. */
    public static final String LIMIT = "limit";

    /** Creates the provider; Declarative Services calls it. */
    public PfifoProvider() {
    }

    /**
     * @throws IllegalArgumentException with a {@code key=value} message for an unknown key or a {@value #LIMIT} that is not
     *             a whole number from 1 to 1,000,000
     */
    @Override
    public Qdisc create(Map<String, Object> settings) {
        Objects.requireNonNull(settings, "settings=null, pass an empty map for the defaults");
        for (String key : settings.keySet()) {
            if (!LIMIT.equals(key)) {
                throw new IllegalArgumentException("setting=" + key + ", allowed settings: " + LIMIT);
            }
        }
        return new PfifoQdisc(limit(settings.get(LIMIT)));
    }

    /**
     * @param value the {@value #LIMIT} setting, or {@code null} for the default
     * @return the limit in packets
     */
    static int limit(Object value) {
        if (value == null) {
            return PfifoQdisc.DEFAULT_LIMIT;
        }
        if (!(value instanceof Number number)) {
            throw new IllegalArgumentException(LIMIT + "=" + value + ", allowed a whole Number from 1 to "
                    + PfifoQdisc.MAX_LIMIT + " packets, not a " + value.getClass().getSimpleName());
        }
        long packets = number.longValue();
        if (number.doubleValue() != packets || packets < 1 || packets > PfifoQdisc.MAX_LIMIT) {
            throw new IllegalArgumentException(
                    LIMIT + "=" + value + ", allowed a whole Number from 1 to " + PfifoQdisc.MAX_LIMIT + " packets");
        }
        return (int) packets;
    }
}
