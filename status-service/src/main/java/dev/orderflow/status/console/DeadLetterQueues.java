package dev.orderflow.status.console;

import java.util.Collection;
import java.util.HashMap;
import java.util.List;
import java.util.Map;

import jakarta.enterprise.context.ApplicationScoped;

import dev.orderflow.rest.problem.ProblemException;
import dev.orderflow.rocketmq.DeadLetter;
import dev.orderflow.rocketmq.RocketMQAdmin;
import dev.orderflow.rocketmq.RocketMQAdminException;
import dev.orderflow.status.config.StatusServiceConfig;

/** The required consumers' dead-letter queues, as the console sees them (through {@link RocketMQAdmin}). */
@ApplicationScoped
public class DeadLetterQueues {

    private final RocketMQAdmin admin;
    private final StatusServiceConfig statusConfig;
    private final ConsoleConfig config;
    private final ConsumedKeys consumedKeys;

    DeadLetterQueues(RocketMQAdmin admin, StatusServiceConfig statusConfig, ConsoleConfig config,
            ConsumedKeys consumedKeys) {
        this.admin = admin;
        this.statusConfig = statusConfig;
        this.config = config;
        this.consumedKeys = consumedKeys;
    }

    /** One line per required consumer, in configuration order. */
    public List<DeadLetterQueueView> queues() {
        return statusConfig.requiredConsumers().stream()
                .map(consumer -> {
                    String group = statusConfig.groupOf(consumer);
                    return new DeadLetterQueueView(consumer, group, depth(group), config.approvalRequiredFor(consumer));
                })
                .toList();
    }

    /** Up to {@code max} entries of the consumer's DLQ, oldest first, each with whether the consumer reported it consumed. */
    public List<DeadLetterView> messages(String consumer, int max) {
        String group = groupOf(consumer);
        List<DeadLetter> letters = admin.browseDeadLetters(group, max);
        Map<String, Boolean> consumed = consumedKeys.consumed(consumer, letters.stream().map(DeadLetter::key).toList());
        return letters.stream()
                .map(letter -> DeadLetterView.of(consumer, group, letter,
                        letter.key() == null ? Boolean.FALSE : consumed.get(letter.key())))
                .toList();
    }

    /** The entries with those DLQ message ids found among the first {@link ConsoleConfig#browseLimit()}, by id. */
    public Map<String, DeadLetter> find(String consumer, Collection<String> dlqMessageIds) {
        Map<String, DeadLetter> found = new HashMap<>();
        for (DeadLetter letter : admin.browseDeadLetters(groupOf(consumer), config.browseLimit())) {
            if (dlqMessageIds.contains(letter.msgId())) {
                found.putIfAbsent(letter.msgId(), letter);
            }
        }
        return found;
    }

    /** The group of a required consumer; 404 problem for any other name. */
    public String groupOf(String consumer) {
        if (!statusConfig.requiredConsumers().contains(consumer)) {
            throw ProblemException.notFound("unknown-consumer", "no required consumer named " + consumer
                    + "; known: " + String.join(", ", statusConfig.requiredConsumers()));
        }
        return statusConfig.groupOf(consumer);
    }

    private long depth(String group) {
        try {
            return admin.lag(group).deadLetters();
        } catch (RocketMQAdminException e) {
            // A group without committed offsets (never consumed, e.g. a consumer not deployed yet) has
            // no consume stats; its DLQ can still be counted by reading it.
            return admin.browseDeadLetters(group, config.browseLimit()).size();
        }
    }
}
