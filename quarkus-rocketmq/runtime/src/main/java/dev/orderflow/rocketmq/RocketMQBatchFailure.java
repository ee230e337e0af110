package dev.orderflow.rocketmq;

import java.util.Collections;
import java.util.Map;
import java.util.TreeMap;

/**
 * Nack cause of a batch ({@code batch=true}) in which only some elements failed: the others were
 * processed and must not be redelivered or dead-lettered. Each failed element is settled on its
 * own, as if it had been nacked alone:
 * <ul>
 * <li>a cause with a {@link RocketMQPermanentFailure} in its chain: that element goes to
 * {@code %DLQ%<group>} with its reason;</li>
 * <li>any other cause: that element is sent back for redelivery with back-off (in {@code orderly}
 * mode the whole batch is retried in place instead, before anything is dead-lettered), and
 * dead-lettered once its attempts are used up.</li>
 * </ul>
 * Elements not named are acknowledged. If settling an element fails (the broker refuses the DLQ
 * write or the send-back), the whole batch is redelivered: consumers that dedupe (consume_record)
 * skip what they already applied.
 */
public class RocketMQBatchFailure extends RuntimeException {

    private final Map<Integer, Throwable> failures;

    /**
     * @param failures index in the batch → why that element failed; not empty
     */
    public RocketMQBatchFailure(Map<Integer, ? extends Throwable> failures) {
        super(failures.size() + " element(s) of the batch failed: " + failures.keySet(), null, false, false);
        if (failures.isEmpty()) {
            throw new IllegalArgumentException("A batch failure names at least one failed element");
        }
        this.failures = Collections.unmodifiableMap(new TreeMap<>(failures));
    }

    /** Index in the batch → cause, in index order. */
    public Map<Integer, Throwable> failures() {
        return failures;
    }
}
