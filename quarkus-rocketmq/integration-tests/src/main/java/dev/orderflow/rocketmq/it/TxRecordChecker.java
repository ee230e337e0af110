package dev.orderflow.rocketmq.it;

import java.time.Duration;
import java.util.List;
import java.util.Map;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.CopyOnWriteArrayList;

import jakarta.enterprise.context.ApplicationScoped;

import org.eclipse.microprofile.config.inject.ConfigProperty;

import dev.orderflow.rocketmq.RocketMQTransactionChecker;
import dev.orderflow.rocketmq.TransactionCheck;
import dev.orderflow.rocketmq.TransactionResolution;
import io.smallrye.common.annotation.Identifier;

/**
 * Answers check-backs of the {@code tx-orders} producer group from the database: the row for the
 * message key exists → COMMIT; it does not and the half message is older than the longest local
 * transaction → ROLLBACK; otherwise UNKNOWN (the transaction may still be running). Remembers its
 * answers so that tests can see who resolved what.
 */
@ApplicationScoped
@Identifier("tx-orders")
public class TxRecordChecker implements RocketMQTransactionChecker {

    @ConfigProperty(name = "it.tx.rollback-after", defaultValue = "PT5S")
    Duration rollbackAfter;

    private final Map<String, List<TransactionResolution>> answers = new ConcurrentHashMap<>();

    @Override
    public TransactionResolution check(TransactionCheck check) {
        TransactionResolution answer;
        if (TxRecord.findById(check.key()) != null) {
            answer = TransactionResolution.COMMIT;
        } else if (System.currentTimeMillis() - check.bornTimestamp() > rollbackAfter.toMillis()) {
            answer = TransactionResolution.ROLLBACK;
        } else {
            answer = TransactionResolution.UNKNOWN;
        }
        answers.computeIfAbsent(check.key(), k -> new CopyOnWriteArrayList<>()).add(answer);
        return answer;
    }

    /** What this instance answered for {@code key}, in order. */
    public List<TransactionResolution> answersFor(String key) {
        return List.copyOf(answers.getOrDefault(key, List.of()));
    }
}
