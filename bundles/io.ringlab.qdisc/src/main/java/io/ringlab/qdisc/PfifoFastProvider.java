package io.ringlab.qdisc;

import java.util.List;
import java.util.Map;

import org.osgi.service.component.annotations.Component;

import io.ringlab.queue.api.Qdisc;
import io.ringlab.queue.api.QdiscProvider;

/**
 * Qdisc kind {@code "pfifo_fast"}: Linux's default three-band priority FIFO ({@code net/sched/sch_generic.c}), see
 * {@link PfifoFastQdisc}.
 * <p>
 * Settings: {@value #LIMIT}, a whole {@link Number} of packets, 1 to 1,000,000, default 1000: the device's
 * {@code tx_queue_len}, which {@code pfifo_fast_enqueue} compares with the total queue length. Any other key is rejected
 * ({@code setting=limitt, allowed settings: limit}).
 * <p>
 * Stateless and thread-safe: every call returns an independent qdisc.
 */
@Component(service = QdiscProvider.class, property = QdiscProvider.KIND + "=pfifo_fast")
public final class PfifoFastProvider implements QdiscProvider {

    /** Setting: the limit on the total queue length in packets, a whole {@link Number}, 1 to 1,000,000; default 1000. */
    public static final String LIMIT = "limit";

    /** Creates the provider; Declarative Services calls it. */
    public PfifoFastProvider() {
    }

    /**
     * @throws IllegalArgumentException with a {@code key=value} message for an unknown key or a {@value #LIMIT} that is not
     *             a whole number from 1 to 1,000,000
     */
    @Override
    public Qdisc create(Map<String, Object> settings) {
        Settings.checkKeys(settings, List.of(LIMIT));
        return new PfifoFastQdisc((int) Settings.whole(settings, LIMIT, 1, PfifoQdisc.MAX_LIMIT,
                PfifoQdisc.DEFAULT_LIMIT, "packets"));
    }
}
