package dev.orderflow.consumer;

import java.util.ArrayList;
import java.util.List;
import java.util.Optional;

import jakarta.transaction.TransactionSynchronizationRegistry;

/**
 * The messages {@link IdempotentConsumer} applies in the current transaction (a batch, or one
 * message alone), kept as a resource of that transaction. Code that runs inside the handler, like
 * {@link CancelBeforeCreateGuard}, uses it to do per-batch work once (lock every order of the
 * batch in one statement, in order-id order) and to defer its writes to one statement at the end
 * of the batch ({@link #onFinish}, as {@link LockedRows} does), which the pipeline runs before the commit.
 */
public final class ConsumeBatch {

    /** Work deferred to the end of the batch, inside its transaction. */
    @FunctionalInterface
    public interface Step {
        void run() throws Exception;
    }

    private static final Object RESOURCE_KEY = ConsumeBatch.class;

    private final List<?> payloads;
    private final List<Step> finishers = new ArrayList<>();

    private ConsumeBatch(List<?> payloads) {
        this.payloads = List.copyOf(payloads);
    }

    /** Makes the messages with these parsed payloads the batch of the current transaction. */
    static ConsumeBatch begin(TransactionSynchronizationRegistry transactions, List<?> payloads) {
        ConsumeBatch batch = new ConsumeBatch(payloads);
        transactions.putResource(RESOURCE_KEY, batch);
        return batch;
    }

    /** The batch of the current transaction; empty outside the pipeline (or before its handlers run). */
    public static Optional<ConsumeBatch> current(TransactionSynchronizationRegistry transactions) {
        return Optional.ofNullable((ConsumeBatch) transactions.getResource(RESOURCE_KEY));
    }

    /** The parsed payloads of the messages being applied, in the order the handler sees them. */
    public List<?> payloads() {
        return payloads;
    }

    /** The part of a business key that names the order: keys are {@code <orderId>:<event>[:<consumer>]}. */
    static String orderIdOf(String messageKey) {
        int colon = messageKey.indexOf(':');
        return colon < 0 ? messageKey : messageKey.substring(0, colon);
    }

    /** Runs {@code step} after the last handler of the batch, in its transaction. */
    public void onFinish(Step step) {
        finishers.add(step);
    }

    /** Called by the pipeline after the last handler; a failing step fails the batch's transaction. */
    void finish() throws Exception {
        for (Step step : finishers) {
            step.run();
        }
        finishers.clear();
    }
}
