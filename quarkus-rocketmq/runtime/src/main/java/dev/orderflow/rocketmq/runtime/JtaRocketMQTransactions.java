package dev.orderflow.rocketmq.runtime;

import java.util.Objects;
import java.util.concurrent.Callable;

import jakarta.enterprise.context.ApplicationScoped;
import jakarta.inject.Inject;
import jakarta.transaction.HeuristicMixedException;
import jakarta.transaction.HeuristicRollbackException;
import jakarta.transaction.RollbackException;
import jakarta.transaction.Status;
import jakarta.transaction.SystemException;
import jakarta.transaction.TransactionManager;

import org.apache.rocketmq.client.producer.LocalTransactionState;
import org.eclipse.microprofile.reactive.messaging.Message;

import com.fasterxml.jackson.databind.ObjectMapper;

import dev.orderflow.rocketmq.OutgoingRocketMQBatchMetadata;
import dev.orderflow.rocketmq.RocketMQTransactionRolledBackException;
import dev.orderflow.rocketmq.RocketMQTransactionUnknownException;
import dev.orderflow.rocketmq.RocketMQTransactions;

/**
 * {@link RocketMQTransactions} with the local work in a JTA transaction of the application's
 * transaction manager (Narayana), begun and ended here on the calling thread so that the outcome
 * of the commit itself is known: committed → COMMIT, rolled back → ROLLBACK, anything else
 * (heuristic mix, a system error during commit) → UNKNOWN, left to the check-back. Work that
 * commits by itself ({@link #executeCommitting}) reports the same three outcomes by returning,
 * throwing, or throwing {@link RocketMQTransactionUnknownException}.
 */
@ApplicationScoped
public class JtaRocketMQTransactions implements RocketMQTransactions {

    private static final ConnectorLog LOG = ConnectorLog.of(JtaRocketMQTransactions.class);

    @Inject
    TransactionManager transactionManager;

    @Inject
    TransactionalChannels channels;

    @Inject
    ObjectMapper objectMapper;

    @Override
    public <T> T execute(String channel, Message<?> message, Callable<T> localWork) {
        Objects.requireNonNull(localWork, "localWork");
        requireNoActiveTransaction(channel);
        return send(channel, message, new JtaLocalTransaction<>(localWork));
    }

    @Override
    public <T> T executeCommitting(String channel, Message<?> message, Callable<T> committingWork) {
        Objects.requireNonNull(committingWork, "committingWork");
        return send(channel, message, new SelfCommittingLocalTransaction<>(committingWork));
    }

    /** Sends the half message, lets the producer run {@code local}, and reports its outcome. */
    private <T> T send(String channel, Message<?> message, RecordedLocalTransaction<T> local) {
        Objects.requireNonNull(channel, "channel");
        Objects.requireNonNull(message, "message");
        if (message.getMetadata(OutgoingRocketMQBatchMetadata.class).isPresent()) {
            // RocketMQ's half messages are single messages: a batch cannot be sent transactionally.
            throw new IllegalArgumentException("Channel " + channel + ": RocketMQ cannot send a batch as a "
                    + "transactional (half) message; send its elements in separate transactions");
        }
        TransactionalChannel transactional = channels.channel(channel);
        org.apache.rocketmq.common.message.Message msg = RocketMQMessages.toRocketMQ(message, transactional.topic(),
                transactional.defaultTag(), objectMapper);
        LocalTransactionState state = transactional.send(msg, local);
        return switch (local.outcome) {
            case COMMITTED -> local.result;
            case ROLLED_BACK -> throw rethrowable(channel, local.failure);
            case UNKNOWN -> throw new RocketMQTransactionUnknownException("Channel " + channel + ": outcome of the "
                    + "local transaction is unclear; the broker's check-back will resolve the message (keys "
                    + msg.getKeys() + ")", local.failure);
            // The producer stored the half message but did not run the local work: it ended it UNKNOW.
            case NOT_RUN -> throw new RocketMQTransactionUnknownException("Channel " + channel + ": the local work "
                    + "was not run although the half message was stored (ended " + state + ")", null);
        };
    }

    private void requireNoActiveTransaction(String channel) {
        int status;
        try {
            status = transactionManager.getStatus();
        } catch (SystemException e) {
            throw new IllegalStateException("Channel " + channel + ": cannot read the JTA transaction status", e);
        }
        if (status != Status.STATUS_NO_TRANSACTION) {
            throw new IllegalStateException("Channel " + channel + ": RocketMQTransactions.execute must be called "
                    + "outside a JTA transaction (it begins its own for the local work); found status " + status
                    + ". Remove @Transactional from the caller.");
        }
    }

    /** Unchecked failures of the work as they are; checked ones and rollbacks at commit wrapped. */
    private static RuntimeException rethrowable(String channel, Throwable failure) {
        if (failure instanceof RuntimeException unchecked) {
            return unchecked;
        }
        if (failure instanceof Error error) {
            throw error;
        }
        return new RocketMQTransactionRolledBackException("Channel " + channel + ": local transaction rolled back ("
                + failure + "); the message was discarded", failure);
    }

    private enum Outcome {
        NOT_RUN, COMMITTED, ROLLED_BACK, UNKNOWN
    }

    /** One local transaction's work and its outcome, recorded for the caller to report. */
    private abstract static class RecordedLocalTransaction<T> implements LocalTransaction {

        final Callable<T> work;
        Outcome outcome = Outcome.NOT_RUN;
        T result;
        Throwable failure;

        RecordedLocalTransaction(Callable<T> work) {
            this.work = work;
        }

        LocalTransactionState committed(T value) {
            result = value;
            outcome = Outcome.COMMITTED;
            return LocalTransactionState.COMMIT_MESSAGE;
        }

        LocalTransactionState rolledBack(Throwable cause) {
            failure = cause;
            outcome = Outcome.ROLLED_BACK;
            return LocalTransactionState.ROLLBACK_MESSAGE;
        }

        LocalTransactionState unknown(Throwable cause) {
            failure = cause;
            outcome = Outcome.UNKNOWN;
            return LocalTransactionState.UNKNOW;
        }
    }

    /** Runs the work in a new JTA transaction. */
    private final class JtaLocalTransaction<T> extends RecordedLocalTransaction<T> {

        JtaLocalTransaction(Callable<T> work) {
            super(work);
        }

        @Override
        public LocalTransactionState run() {
            try {
                transactionManager.begin();
            } catch (Exception e) {
                return rolledBack(e);
            }
            T value;
            try {
                value = work.call();
            } catch (Throwable t) {
                rollbackAfter(t);
                return rolledBack(t);
            }
            try {
                transactionManager.commit();
                return committed(value);
            } catch (RollbackException | HeuristicRollbackException e) {
                return rolledBack(e);
            } catch (HeuristicMixedException | SystemException | RuntimeException e) {
                LOG.commitUnclear(e);
                return unknown(e);
            }
        }

        private void rollbackAfter(Throwable cause) {
            try {
                transactionManager.rollback();
            } catch (Exception e) {
                // Not committed either way (the transaction times out); the message is rolled back.
                cause.addSuppressed(e);
                LOG.rollbackFailed(e);
            }
        }
    }

    /** Runs work that commits by itself: returned → committed, threw unknown → unknown, threw → rolled back. */
    private static final class SelfCommittingLocalTransaction<T> extends RecordedLocalTransaction<T> {

        SelfCommittingLocalTransaction(Callable<T> work) {
            super(work);
        }

        @Override
        public LocalTransactionState run() {
            try {
                return committed(work.call());
            } catch (RocketMQTransactionUnknownException e) {
                return unknown(e);
            } catch (Throwable t) {
                return rolledBack(t);
            }
        }
    }
}
