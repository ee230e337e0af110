package dev.orderflow.rocketmq.it;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;
import static org.awaitility.Awaitility.await;

import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.time.Duration;
import java.util.UUID;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicBoolean;

import jakarta.inject.Inject;
import jakarta.transaction.RollbackException;

import org.apache.rocketmq.client.producer.DefaultMQProducer;
import org.apache.rocketmq.client.producer.LocalTransactionState;
import org.apache.rocketmq.client.producer.SendResult;
import org.apache.rocketmq.client.producer.SendStatus;
import org.apache.rocketmq.client.producer.TransactionListener;
import org.apache.rocketmq.client.producer.TransactionMQProducer;
import org.apache.rocketmq.client.producer.TransactionSendResult;
import org.apache.rocketmq.common.message.MessageAccessor;
import org.apache.rocketmq.common.message.MessageConst;
import org.apache.rocketmq.common.message.MessageExt;
import org.eclipse.microprofile.config.ConfigProvider;
import org.eclipse.microprofile.reactive.messaging.Message;
import org.junit.jupiter.api.Test;

import dev.orderflow.rocketmq.OutgoingRocketMQMetadata;
import dev.orderflow.rocketmq.RocketMQConfigKeys;
import dev.orderflow.rocketmq.RocketMQSendException;
import dev.orderflow.rocketmq.RocketMQTransactionRolledBackException;
import dev.orderflow.rocketmq.RocketMQTransactionUnknownException;
import dev.orderflow.rocketmq.RocketMQTransactions;
import dev.orderflow.rocketmq.TransactionResolution;
import io.micrometer.core.instrument.Counter;
import io.micrometer.core.instrument.Metrics;
import io.quarkus.narayana.jta.QuarkusTransaction;
import io.quarkus.test.junit.QuarkusTest;
import dev.orderflow.rocketmq.embedded.TransactionRecords;
import dev.orderflow.rocketmq.embedded.TransactionRecords.Decision;
import io.smallrye.common.annotation.Identifier;

/**
 * Transactional sending through {@link RocketMQTransactions}: the message becomes visible if and
 * only if the local row committed, including when the sender stops before ending the transaction
 * and this application's checker answers the broker's check-back. Real broker started in-process
 * by the extension's Dev Services (check-back after ~2-3 s), real MariaDB.
 */
@QuarkusTest
class RocketMQTransactionsTest {

    private static final String CHANNEL = "tx-orders";
    private static final String TOPIC = "it_tx";
    private static final String PRODUCER_GROUP = "it_tx_producer";

    @Inject
    RocketMQTransactions transactions;

    @Inject
    TxChannels channels;

    @Inject
    @Identifier("tx-orders")
    TxRecordChecker checker;

    @Test
    void committedWorkMakesTheMessageVisibleOnceWithBodyAndKeys() {
        String key = key("commit");
        double commitsBefore = transactionCount("commit");

        String result = transactions.execute(CHANNEL, message("order " + key, key, "second"), () -> {
            TxRecord.of(key, "order " + key).persist();
            return "stored " + key;
        });

        assertThat(result).isEqualTo("stored " + key);
        assertThat(channels.recordExists(key)).isTrue();
        assertThat(transactionCount("commit")).isEqualTo(commitsBefore + 1);
        await().atMost(Duration.ofSeconds(30)).untilAsserted(() -> assertThat(channels.receivedWithKey(key))
                .singleElement()
                .satisfies(r -> {
                    assertThat(r.payload()).isEqualTo("order " + key);
                    assertThat(r.tag()).isEqualTo("create");
                    assertThat(r.keys()).containsExactly(key, "second");
                }));
        // A later check-back must not deliver it again.
        await().during(Duration.ofSeconds(5)).atMost(Duration.ofSeconds(7))
                .until(() -> channels.receivedWithKey(key).size() == 1);
    }

    @Test
    void rolledBackWorkNeverMakesTheMessageVisible() {
        String uncheckedKey = key("unchecked");
        String checkedKey = key("checked");
        String rollbackOnlyKey = key("rollback-only");
        double rollbacksBefore = transactionCount("rollback");

        IllegalArgumentException rejected = new IllegalArgumentException("order rejected");
        assertThatThrownBy(() -> transactions.execute(CHANNEL, message("x", uncheckedKey), () -> {
            TxRecord.of(uncheckedKey, "x").persist();
            throw rejected;
        })).isSameAs(rejected);

        IOException io = new IOException("disk gone");
        assertThatThrownBy(() -> transactions.execute(CHANNEL, message("x", checkedKey), () -> {
            TxRecord.of(checkedKey, "x").persist();
            throw io;
        })).isInstanceOf(RocketMQTransactionRolledBackException.class).hasCause(io);

        assertThatThrownBy(() -> transactions.execute(CHANNEL, message("x", rollbackOnlyKey), () -> {
            TxRecord.of(rollbackOnlyKey, "x").persist();
            QuarkusTransaction.setRollbackOnly();
            return null;
        })).isInstanceOf(RocketMQTransactionRolledBackException.class).hasCauseInstanceOf(RollbackException.class);

        assertThat(transactionCount("rollback")).isEqualTo(rollbacksBefore + 3);
        for (String key : new String[] { uncheckedKey, checkedKey, rollbackOnlyKey }) {
            assertThat(channels.recordExists(key)).as("row %s", key).isFalse();
            awaitBrokerDecision(key, Decision.ROLLED_BACK);
            assertThat(channels.receivedWithKey(key)).as("delivered %s", key).isEmpty();
        }
    }

    @Test
    void executeIsRefusedInsideAnActiveTransaction() {
        AtomicBoolean ran = new AtomicBoolean();
        QuarkusTransaction.requiringNew().run(() -> assertThatThrownBy(() -> transactions.execute(CHANNEL,
                message("x", key("nested")), () -> ran.getAndSet(true)))
                .isInstanceOf(IllegalStateException.class)
                .hasMessageContaining("outside a JTA transaction"));
        assertThat(ran).isFalse();
    }

    @Test
    void halfMessageThatCannotBeStoredFailsTheSendAndSkipsTheWork() {
        AtomicBoolean ran = new AtomicBoolean();
        Message<String> toInvalidTopic = Message.of("x")
                .addMetadata(OutgoingRocketMQMetadata.builder().withTopic("not a valid topic!").withKeys(key("bad")).build());
        assertThatThrownBy(() -> transactions.execute(CHANNEL, toInvalidTopic, () -> ran.getAndSet(true)))
                .isInstanceOf(RocketMQSendException.class);
        assertThat(ran).isFalse();
    }

    @Test
    void nonTransactionalOrUnknownChannelIsRejected() {
        assertThatThrownBy(() -> transactions.execute("basic-sync", message("x", key("plain")), () -> null))
                .isInstanceOf(IllegalArgumentException.class).hasMessageContaining("not transactional");
        assertThatThrownBy(() -> transactions.execute("no-such-channel", message("x", key("none")), () -> null))
                .isInstanceOf(IllegalArgumentException.class).hasMessageContaining("not an outgoing");
    }

    @Test
    void emitterOnATransactionalChannelIsRefusedAndExecuteStillWorksThere() throws Exception {
        CompletableFuture<Throwable> nacked = new CompletableFuture<>();
        String emittedKey = key("emitted");
        channels.wiredEmitter().send(message("x", emittedKey)
                .withAck(() -> {
                    nacked.complete(null);
                    return CompletableFuture.completedFuture(null);
                })
                .withNack(t -> {
                    nacked.complete(t);
                    return CompletableFuture.completedFuture(null);
                }));
        assertThat(nacked.get(10, TimeUnit.SECONDS)).isInstanceOf(IllegalStateException.class)
                .hasMessageContaining("RocketMQTransactions.execute");

        String key = key("wired");
        transactions.execute("tx-wired", message("wired " + key, key), () -> {
            TxRecord.of(key, "wired").persist();
            return null;
        });
        await().atMost(Duration.ofSeconds(30)).untilAsserted(() -> assertThat(channels.receivedWithKey(key))
                .singleElement().satisfies(r -> assertThat(r.tag()).isEqualTo("wired")));
        assertThat(channels.receivedWithKey(emittedKey)).isEmpty();
    }

    /** Work that commits by itself (a group commit, say): returned → visible once; threw → never. */
    @Test
    void selfCommittingWorkCommitsOrRollsBackTheMessageByItsOutcome() {
        String committedKey = key("self-commit");
        String failedKey = key("self-failed");
        double commitsBefore = transactionCount("commit");
        double rollbacksBefore = transactionCount("rollback");

        String result = transactions.executeCommitting(CHANNEL, message("order " + committedKey, committedKey), () -> {
            channels.insertRecord(committedKey, "self");
            return "stored " + committedKey;
        });
        IllegalStateException rejected = new IllegalStateException("insert refused");
        assertThatThrownBy(() -> transactions.executeCommitting(CHANNEL, message("x", failedKey), () -> {
            throw rejected;
        })).isSameAs(rejected);

        assertThat(result).isEqualTo("stored " + committedKey);
        assertThat(transactionCount("commit")).isEqualTo(commitsBefore + 1);
        assertThat(transactionCount("rollback")).isEqualTo(rollbacksBefore + 1);
        await().atMost(Duration.ofSeconds(30)).untilAsserted(() -> assertThat(channels.receivedWithKey(committedKey))
                .singleElement().satisfies(r -> assertThat(r.payload()).isEqualTo("order " + committedKey)));
        awaitBrokerDecision(committedKey, Decision.COMMITTED);
        awaitBrokerDecision(failedKey, Decision.ROLLED_BACK);
        assertThat(channels.receivedWithKey(failedKey)).isEmpty();
        assertThat(channels.receivedWithKey(committedKey)).hasSize(1);
    }

    /**
     * Work that committed its row but could not tell (it throws the unknown exception): the half
     * message stays pending, the caller hears "unknown", and the check-back finds the row.
     */
    @Test
    void selfCommittingWorkWithAnUnclearCommitIsLeftToTheCheckBack() {
        String key = key("self-unknown");
        IllegalStateException dropped = new IllegalStateException("connection dropped during commit");

        assertThatThrownBy(() -> transactions.executeCommitting(CHANNEL, message("unclear " + key, key), () -> {
            channels.insertRecord(key, "unclear");
            throw new RocketMQTransactionUnknownException("commit unclear", dropped);
        })).isInstanceOf(RocketMQTransactionUnknownException.class)
                .hasRootCause(dropped);

        await().atMost(Duration.ofSeconds(30)).untilAsserted(() -> assertThat(channels.receivedWithKey(key))
                .singleElement().satisfies(r -> assertThat(r.payload()).isEqualTo("unclear " + key)));
        assertThat(checker.answersFor(key)).contains(TransactionResolution.COMMIT);
    }

    /**
     * Another instance of the producer group sends a half message, writes its row, answers
     * UNKNOWN and stops: the broker asks this application, whose checker finds the row.
     */
    @Test
    void unknownOutcomeWithCommittedRowIsCommittedByCheckBack() throws Exception {
        String key = key("unknown-commit");
        sendHalfMessageFromAnotherInstance(key, true);

        await().atMost(Duration.ofSeconds(30)).untilAsserted(() -> assertThat(channels.receivedWithKey(key))
                .singleElement().satisfies(r -> assertThat(r.payload()).isEqualTo("half " + key)));
        assertThat(checker.answersFor(key)).contains(TransactionResolution.COMMIT);
    }

    /** As above without the row: the checker rolls it back once it is older than the window. */
    @Test
    void unknownOutcomeWithoutRowIsRolledBackByCheckBack() throws Exception {
        String key = key("unknown-rollback");
        sendHalfMessageFromAnotherInstance(key, false);

        await().atMost(Duration.ofSeconds(40))
                .until(() -> checker.answersFor(key).contains(TransactionResolution.ROLLBACK));
        // The broker acted on the answer: the transaction is ended and the message never stored.
        awaitBrokerDecision(key, Decision.ROLLED_BACK);
        assertThat(channels.receivedWithKey(key)).isEmpty();
    }

    /**
     * An instance dies between its local commit and ending the transaction: its half message is
     * stored, its row committed, and it never says COMMIT. This application resolves it.
     */
    @Test
    void producerThatDiesAfterTheHalfMessageIsResolvedByAnotherInstance() throws Exception {
        String key = key("crashed");
        DefaultMQProducer crashing = new DefaultMQProducer("it_tx_crashing_sender");
        crashing.setNamesrvAddr(nameServer());
        crashing.setInstanceName("crashing-" + key);
        crashing.start();
        try {
            org.apache.rocketmq.common.message.Message half = new org.apache.rocketmq.common.message.Message(TOPIC,
                    "create", key, ("crashed " + key).getBytes(StandardCharsets.UTF_8));
            // What TransactionMQProducer marks a half message with; the group is the one asked at check-back.
            MessageAccessor.putProperty(half, MessageConst.PROPERTY_TRANSACTION_PREPARED, "true");
            MessageAccessor.putProperty(half, MessageConst.PROPERTY_PRODUCER_GROUP, PRODUCER_GROUP);
            SendResult sent = crashing.send(half);
            assertThat(sent.getSendStatus()).isEqualTo(SendStatus.SEND_OK);
            channels.insertRecord(key, "crashed");
        } finally {
            crashing.shutdown();
        }
        // Nothing ever ends this transaction but the check-back (the checker's COMMIT below); asserting
        // "not visible yet" here would race with it (the first check comes ~2-3 s after the send).
        await().atMost(Duration.ofSeconds(30)).untilAsserted(() -> assertThat(channels.receivedWithKey(key))
                .singleElement().satisfies(r -> assertThat(r.payload()).isEqualTo("crashed " + key)));
        assertThat(checker.answersFor(key)).contains(TransactionResolution.COMMIT);
    }

    /** A raw producer in the application's producer group whose listener answers UNKNOWN, then shuts down. */
    private void sendHalfMessageFromAnotherInstance(String key, boolean writeRow) throws Exception {
        TransactionMQProducer other = new TransactionMQProducer(PRODUCER_GROUP);
        other.setNamesrvAddr(nameServer());
        other.setInstanceName("other-instance-" + key);
        other.setTransactionListener(new TransactionListener() {
            @Override
            public LocalTransactionState executeLocalTransaction(org.apache.rocketmq.common.message.Message msg,
                    Object arg) {
                if (writeRow) {
                    channels.insertRecord(key, "half");
                }
                return LocalTransactionState.UNKNOW;
            }

            @Override
            public LocalTransactionState checkLocalTransaction(MessageExt msg) {
                return LocalTransactionState.UNKNOW;
            }
        });
        other.start();
        try {
            TransactionSendResult result = other.sendMessageInTransaction(new org.apache.rocketmq.common.message.Message(
                    TOPIC, "create", key, ("half " + key).getBytes(StandardCharsets.UTF_8)), null);
            assertThat(result.getSendStatus()).isEqualTo(SendStatus.SEND_OK);
            assertThat(result.getLocalTransactionState()).isEqualTo(LocalTransactionState.UNKNOW);
        } finally {
            other.shutdown();
        }
        assertThat(channels.recordExists(key)).isEqualTo(writeRow);
    }

    private static void awaitBrokerDecision(String key, Decision expected) {
        await("the broker's decision on " + key).atMost(Duration.ofSeconds(30)).pollInterval(Duration.ofMillis(300))
                .until(() -> TransactionRecords.decision(nameServer(), TOPIC, key), decision -> {
                    assertThat(decision).as("decision on %s", key).isIn(Decision.UNDECIDED, expected);
                    return decision == expected;
                });
    }

    private static Message<String> message(String payload, String... keys) {
        return Message.of(payload).addMetadata(OutgoingRocketMQMetadata.builder().withKeys(keys).build());
    }

    private static String key(String prefix) {
        return prefix + "-" + UUID.randomUUID();
    }

    private static String nameServer() {
        return ConfigProvider.getConfig().getValue(RocketMQConfigKeys.CONNECTOR_NAME_SERVER, String.class);
    }

    private static double transactionCount(String outcome) {
        Counter counter = Metrics.globalRegistry.find("rocketmq.transactions")
                .tags("channel", CHANNEL, "outcome", outcome).counter();
        return counter == null ? 0 : counter.count();
    }
}
