package dev.orderflow.launcher;

import java.io.IOException;
import java.io.Reader;
import java.io.UncheckedIOException;
import java.io.Writer;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.StandardCopyOption;
import java.nio.file.attribute.PosixFilePermissions;
import java.security.SecureRandom;
import java.util.ArrayList;
import java.util.Base64;
import java.util.List;
import java.util.Map;
import java.util.Properties;

import org.apache.rocketmq.acl.common.AclClientRPCHook;
import org.apache.rocketmq.acl.common.SessionCredentials;
import org.apache.rocketmq.common.action.Action;
import org.apache.rocketmq.remoting.RPCHook;

import dev.orderflow.order.events.ConsumerReports;
import dev.orderflow.order.events.OrderMessaging;
import dev.orderflow.order.events.OrderOutcome;
import dev.orderflow.rocketmq.embedded.BrokerUser;

/**
 * The broker's users in a suite this project starts (the local suite, and the suites the tests
 * start): one per service, each allowed only the topics and groups that service uses, and one super
 * user for the suite's own tools (fault injection, counters). Their secrets are made at the first
 * start and kept in the key folder beside the token key, readable by its owner only.
 *
 * <p>A service gets its access key (its name) as the system property
 * {@code mp.messaging.connector.smallrye-rocketmq.access-key} and its secret by environment
 * ({@link #environment}), never on a command line.
 */
public final class BrokerAccounts {

    /** The file in the key folder: one {@code <account>=<secret>} line per account. */
    public static final String FILE = "broker-accounts.properties";
    /** The super user of the suite's own tools (not a service). */
    public static final String TOOLS = "orderflow-tools";

    private static final List<String> SERVICES = List.of("order-service", "inventory-service", "sms-service",
            "points-service", "status-service");
    private static final String ACCESS_KEY_PROPERTY = "mp.messaging.connector.smallrye-rocketmq.access-key";
    private static final String SECRET_KEY_ENV = "MP_MESSAGING_CONNECTOR_SMALLRYE_ROCKETMQ_SECRET_KEY";

    private final Properties secrets;

    private BrokerAccounts(Properties secrets) {
        this.secrets = secrets;
    }

    /** The accounts whose secrets are in {@code directory}, made there first if missing. */
    public static BrokerAccounts inDirectory(Path directory) {
        Path file = directory.resolve(FILE);
        try {
            Files.createDirectories(directory);
            Properties secrets = new Properties();
            if (Files.exists(file)) {
                try (Reader in = Files.newBufferedReader(file)) {
                    secrets.load(in);
                }
            }
            List<String> accounts = new ArrayList<>(SERVICES);
            accounts.add(TOOLS);
            boolean added = false;
            SecureRandom random = new SecureRandom();
            for (String account : accounts) {
                if (secrets.getProperty(account) == null) {
                    byte[] secret = new byte[24];
                    random.nextBytes(secret);
                    secrets.setProperty(account, Base64.getUrlEncoder().withoutPadding().encodeToString(secret));
                    added = true;
                }
            }
            if (added) {
                Path fresh = Files.createTempFile(directory, "broker-accounts", ".tmp");
                Files.setPosixFilePermissions(fresh, PosixFilePermissions.fromString("rw-------"));
                try (Writer out = Files.newBufferedWriter(fresh)) {
                    secrets.store(out, "RocketMQ users of this suite (made at its first start)");
                }
                Files.move(fresh, file, StandardCopyOption.ATOMIC_MOVE, StandardCopyOption.REPLACE_EXISTING);
            }
            return new BrokerAccounts(secrets);
        } catch (IOException e) {
            throw new UncheckedIOException("Cannot read or write the broker accounts in " + directory, e);
        }
    }

    /** The accounts of a file written by {@link #inDirectory} (e.g. handed to a broker in a child process). */
    public static BrokerAccounts load(Path file) {
        return inDirectory(file.getParent());
    }

    /** Whether {@code account} is one of the suite's (a service of the suite, or {@link #TOOLS}). */
    public boolean hasAccount(String account) {
        return secrets.getProperty(account) != null;
    }

    /** The secret key of {@code account} (a service's name, or {@link #TOOLS}). */
    public String secretKey(String account) {
        String secret = secrets.getProperty(account);
        if (secret == null) {
            throw new IllegalArgumentException("No broker account " + account);
        }
        return secret;
    }

    /** The system property naming a service's account (its access key). */
    public static Map<String, String> properties(String service) {
        return Map.of(ACCESS_KEY_PROPERTY, service);
    }

    /** The environment giving a service its secret key. */
    public Map<String, String> environment(String service) {
        return Map.of(SECRET_KEY_ENV, secretKey(service));
    }

    /** The signing hook of the suite's own tools (the {@link #TOOLS} super user), for RocketMQ client constructors. */
    public RPCHook toolsHook() {
        return new AclClientRPCHook(new SessionCredentials(TOOLS, secretKey(TOOLS)));
    }

    /** The broker's users: each service with its grants, and the tools' super user. */
    public List<BrokerUser> users() {
        List<BrokerUser> users = new ArrayList<>();
        for (String service : SERVICES) {
            users.add(grants(service, BrokerUser.of(service, secretKey(service))));
        }
        users.add(BrokerUser.superUser(TOOLS, secretKey(TOOLS)));
        return users;
    }

    /**
     * What each service may do: the topics it sends to and consumes, the groups it consumes as, and
     * its groups' dead-letter queues (the connector writes a permanent failure there itself).
     */
    static BrokerUser grants(String service, BrokerUser user) {
        String outcomeGroup = "order_outcome_group";
        String smsOutcomeGroup = "sms_outcome_group";
        return switch (service) {
            case "order-service" -> user.publishes(OrderMessaging.TOPIC, "access_log_topic", dlq(outcomeGroup))
                    .answersCheckBacks().subscribes(OrderOutcome.TOPIC).consumesAs(outcomeGroup);
            case "inventory-service" -> consumer(user, OrderMessaging.INVENTORY_GROUP);
            case "points-service" -> consumer(user, OrderMessaging.POINTS_GROUP);
            case "sms-service" -> consumer(user, OrderMessaging.SMS_GROUP).publishes(dlq(smsOutcomeGroup))
                    .subscribes(OrderOutcome.TOPIC).consumesAs(smsOutcomeGroup);
            case "status-service" -> {
                List<String> consumers = List.of("inventory", "sms", "points");
                user.publishes(OrderOutcome.TOPIC, dlq(OrderMessaging.STATUS_GROUP), dlq("status_report_group"))
                        .subscribes(OrderMessaging.TOPIC, ConsumerReports.TOPIC)
                        .consumesAs(OrderMessaging.STATUS_GROUP, "status_report_group");
                for (String consumer : consumers) {
                    String group = "status_dlq_" + consumer;
                    user.subscribes(dlq(consumer + "_group")).consumesAs(group).publishes(dlq(group));
                }
                // The DLQ console and the lag monitor (RocketMQAdmin): read every group's and topic's
                // figures, browse the dead-letter queues, re-drive to a group's retry topic.
                yield user.allows("Group:*", Action.GET).allows("Topic:*", Action.GET)
                        .subscribes("%DLQ%*").consumesAs("orderflow_dlq_browser", "orderflow_dlq_redrive");
            }
            default -> throw new IllegalArgumentException("No broker grants for " + service);
        };
    }

    /** A consumer service: its group on order_topic, its reports, its dead-letter queue. */
    private static BrokerUser consumer(BrokerUser user, String group) {
        return user.subscribes(OrderMessaging.TOPIC).consumesAs(group).publishes(ConsumerReports.TOPIC, dlq(group));
    }

    private static String dlq(String group) {
        return OrderMessaging.deadLetterQueueOf(group);
    }
}
