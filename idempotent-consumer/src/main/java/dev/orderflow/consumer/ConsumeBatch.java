package dev.orderflow.consumer;

import java.util.ArrayList;
import java.util.List;
import java.util.Optional;

import jakarta.transaction.TransactionSynchronizationRegistry;

/**
 * The messages {@link IdempotentConsumer} applies in the current transaction (a batch, or one
 * message alone), kept as a resource of that transaction. Parts that run inside the handler, like
 * {@link CancelBeforeCreateGuard}, use it to do per-batch work once (lock every order of the batch
 * in one statement) and to defer their writes to one statement at the end of the batch
 * ({@link #onFinish}), which the pipeline runs before the commit.
 */
final class ConsumeBatch {

    /** Work deferred to the end of the batch, inside its transaction. */
    @FunctionalInterface
    interface Step {
        void run() throws Exception;
    }

    private static final Object RESOURCE_KEY = ConsumeBatch.class;

    private final List<ConsumeContext> contexts;
    private final List<Step> finishers = new ArrayList<>();

    private ConsumeBatch(List<ConsumeContext> contexts) {
        this.contexts = List.copyOf(contexts);
    }

    /** Makes {@code contexts} the batch of the current transaction. */
    static ConsumeBatch begin(TransactionSynchronizationRegistry transactions, List<ConsumeContext> contexts) {
        ConsumeBatch batch = new ConsumeBatch(contexts);
        transactions.putResource(RESOURCE_KEY, batch);
        return batch;
    }

    /** The batch of the current transaction; empty outside the pipeline (or before its handlers run). */
    static Optional<ConsumeBatch> current(TransactionSynchronizationRegistry transactions) {
        return Optional.ofNullable((ConsumeBatch) transactions.getResource(RESOURCE_KEY));
    }

    /** The messages being applied, in the order the handler sees them. */
    List<ConsumeContext> contexts() {
        return contexts;
    }

    /** Runs {@code step} after the last handler of the batch, in its transaction. */
    void onFinish(Step step) {
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
