package dev.orderflow.rocketmq.embedded;

import java.util.ArrayList;
import java.util.Arrays;
import java.util.List;
import java.util.Objects;

import org.apache.rocketmq.auth.authorization.model.Resource;
import org.apache.rocketmq.common.action.Action;
import org.apache.rocketmq.common.topic.TopicValidator;

/**
 * A user of a broker started with access control ({@link EmbeddedRocketMQ.Options#accessControl}):
 * the access key and secret key a client signs its requests with, and what the broker lets it do.
 * A user may do nothing it is not granted here, unless it is a {@linkplain #superUser super user}.
 *
 * <p>Grants name resources as RocketMQ's ACL 2.0 does: a topic or group name, a name ending in
 * {@code *} for every name with that prefix (e.g. {@code %DLQ%*}), or {@code *} alone for all. What
 * each client request needs is decided by the broker (RocketMQ's {@code DefaultAuthorizationContextBuilder}):
 * a send needs {@code Pub} on the topic; a pull, a heartbeat of a consumer, an offset query or commit
 * and a send-back for redelivery need {@code Sub} on the consumer group, and on the topic unless it is
 * the group's own retry topic; admin reads (consume stats, consumer connections, topic stats, offsets)
 * need {@code Get}; topic creation needs {@code Create} on the topic.
 */
public final class BrokerUser {

    /** One grant: actions on the resources a RocketMQ resource key names ({@code Topic:name}, {@code Group:name*}, {@code *}). */
    record Grant(String resourceKey, List<Action> actions) {
    }

    private final String accessKey;
    private final String secretKey;
    private final boolean superUser;
    private final List<Grant> grants = new ArrayList<>();

    private BrokerUser(String accessKey, String secretKey, boolean superUser) {
        if (accessKey == null || accessKey.isBlank() || secretKey == null || secretKey.isBlank()) {
            throw new IllegalArgumentException("A broker user needs an access key and a secret key");
        }
        this.accessKey = accessKey;
        this.secretKey = secretKey;
        this.superUser = superUser;
    }

    /** A user that may do nothing until granted. */
    public static BrokerUser of(String accessKey, String secretKey) {
        return new BrokerUser(accessKey, secretKey, false);
    }

    /**
     * RocketMQ's super user: authenticated like any user, then allowed every request without
     * looking at grants (what {@code mqadmin} and the brokers' own clients are given on a cluster).
     */
    public static BrokerUser superUser(String accessKey, String secretKey) {
        return new BrokerUser(accessKey, secretKey, true);
    }

    /** May send to these topics ({@code Pub}), transactional half messages and the sender's own commit included. */
    public BrokerUser publishes(String... topics) {
        return allow("Topic", topics, Action.PUB);
    }

    /**
     * May answer the broker's check-back of its transactional half messages: the answer (COMMIT or
     * ROLLBACK) names the half-message topic ({@code RMQ_SYS_TRANS_HALF_TOPIC}), not the message's,
     * and needs {@code Pub} there. Without it the broker drops the answer without a reply (it is a
     * one-way request), asks again, and after its last check discards the half message: a local
     * transaction that committed without reporting it would never have its message.
     */
    public BrokerUser answersCheckBacks() {
        return publishes(TopicValidator.RMQ_SYS_TRANS_HALF_TOPIC);
    }

    /**
     * May consume these topics ({@code Sub}) and read their offsets ({@code Get}): a consumer
     * group that has no offset on a queue whose first messages are gone asks the broker for the
     * queue's minimum or maximum offset, a {@code Get}. The group it consumes as needs {@link #consumesAs}.
     */
    public BrokerUser subscribes(String... topics) {
        return allow("Topic", topics, Action.SUB, Action.GET);
    }

    /**
     * May consume as these consumer groups ({@code Sub}): pull, heartbeat, offsets, send-back of a
     * message to redeliver and the group's {@code %RETRY%} topic. The broker also checks a send to a
     * {@code %RETRY%} topic as {@code Sub} on the sending producer's group.
     */
    public BrokerUser consumesAs(String... groups) {
        return allow("Group", groups, Action.SUB);
    }

    /**
     * Any other grant, in RocketMQ's terms: {@code resourceKey} as {@code Topic:<name>},
     * {@code Group:<name>} or {@code Cluster:<name>} (a trailing {@code *} matches by prefix), or
     * {@code *} for every resource; e.g. {@code allows("Group:*", Action.GET)} to read every group's
     * consume stats.
     *
     * @throws IllegalArgumentException when RocketMQ cannot read the resource key, or no action is given
     */
    public BrokerUser allows(String resourceKey, Action... actions) {
        if (Resource.of(resourceKey) == null) {
            throw new IllegalArgumentException("Not a RocketMQ resource: '" + resourceKey
                    + "' (Topic:<name>, Group:<name>, Cluster:<name>, a trailing * for a prefix, or *)");
        }
        if (actions.length == 0 || Arrays.asList(actions).contains(Action.ANY)) {
            throw new IllegalArgumentException("Grant " + resourceKey + " at least one action, and not Any");
        }
        grants.add(new Grant(resourceKey, List.of(actions)));
        return this;
    }

    private BrokerUser allow(String type, String[] names, Action... actions) {
        for (String name : names) {
            Objects.requireNonNull(name, "name");
            allows(type + ":" + name, actions);
        }
        return this;
    }

    public String accessKey() {
        return accessKey;
    }

    public String secretKey() {
        return secretKey;
    }

    public boolean isSuperUser() {
        return superUser;
    }

    List<Grant> grants() {
        return List.copyOf(grants);
    }

    /** The access key and grants; never the secret key. */
    @Override
    public String toString() {
        return "BrokerUser[" + accessKey + (superUser ? ", super user" : ", " + grants) + "]";
    }
}
