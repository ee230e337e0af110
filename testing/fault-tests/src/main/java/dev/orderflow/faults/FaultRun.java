package dev.orderflow.faults;

import static org.awaitility.Awaitility.await;

import java.io.PrintStream;
import java.nio.file.Path;
import java.time.Duration;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.concurrent.atomic.AtomicReference;

import org.awaitility.core.ConditionTimeoutException;

import dev.orderflow.consumer.testing.DatabaseLink;
import dev.orderflow.launcher.ServiceProcess;
import dev.orderflow.order.events.OrderEventType;
import dev.orderflow.order.events.OrderMessaging;
import dev.orderflow.suite.OrderStream;
import dev.orderflow.suite.OrderStream.AcceptedOrder;
import dev.orderflow.suite.Reconciler;
import dev.orderflow.suite.SuiteUnderTest;
import dev.orderflow.suite.Verdict;
import dev.orderflow.suite.Verdict.Poison;

/**
 * A fault run: starts the suite ({@link SuiteUnderTest}), runs the order stream, injects every fault
 * of the cycle (repeated in the long profile), waits for quiescence and prints the verdict.
 *
 * <pre>
 * java -cp "testing/fault-tests/target/classes:$(cat testing/fault-tests/target/classpath.txt)" dev.orderflow.faults.FaultRun --profile long
 * </pre>
 * (see README.md; {@code mvn -pl testing/fault-tests verify -Dfault.profile=long} runs the same through the IT).
 * System properties: {@code orderflow.fault.root} (repository root, default the working
 * directory), {@code orderflow.fault.run-dir} (default {@code <root>/fault-tests/target/fault-run}),
 * {@code orderflow.fault.mariadb.host|port} (127.0.0.1, 3306; user root, empty password).
 */
public final class FaultRun {

    /** The consumer services, each killed with {@code kill -9} and restarted once per cycle. */
    static final List<String> CONSUMER_SERVICES = List.of("inventory-service", "sms-service", "points-service",
            "status-service");
    /** The consumer that is stalled, and the one run as two instances. */
    static final String SLOW_CONSUMER = "points-service";
    static final String TWO_INSTANCE_SERVICE = "points-service";

    private final Profile profile;
    private final SuiteUnderTest suite;
    private final PrintStream out;
    private final Map<String, Integer> faults = new LinkedHashMap<>();
    private final List<Poison> poison = new ArrayList<>();

    /** What a run ended with. */
    /** @param streamRanThroughout whether orders were still being placed when the last fault ended */
    public record Result(Verdict verdict, Map<String, Integer> faults, double quiescenceSeconds,
            List<String> unexpectedExits, boolean streamRanThroughout, String report) {
        public boolean passed() {
            return verdict.clean() && unexpectedExits.isEmpty();
        }
    }

    private FaultRun(Profile profile, SuiteUnderTest suite, PrintStream out) {
        this.profile = profile;
        this.suite = suite;
        this.out = out;
    }

    public static void main(String[] args) {
        String profileName = "short";
        for (int i = 0; i < args.length; i++) {
            if (args[i].equals("--profile") && i + 1 < args.length) {
                profileName = args[++i];
            } else {
                System.err.println("usage: FaultRun [--profile short|long]");
                System.exit(2);
            }
        }
        Path root = Path.of(System.getProperty("orderflow.fault.root", "")).toAbsolutePath().normalize();
        Result result = run(Profile.named(profileName), root, runDirOf(root), System.out);
        System.exit(result.passed() ? 0 : 1);
    }

    static Path runDirOf(Path root) {
        return Path.of(System.getProperty("orderflow.fault.run-dir",
                root.resolve("testing/fault-tests/target/fault-run").toString())).toAbsolutePath().normalize();
    }

    /** Starts the suite, runs {@code profile} and stops every process it started, also when it fails. */
    public static Result run(Profile profile, Path root, Path runDir, PrintStream out) {
        long startedAt = System.nanoTime();
        try (SuiteUnderTest suite = SuiteUnderTest.start(root, runDir, System.getProperty("orderflow.fault.mariadb.host",
                "127.0.0.1"), Integer.parseInt(System.getProperty("orderflow.fault.mariadb.port", "3306")), out)) {
            out.printf("fault run (%s): suite ready in %.1f s%n", profile.name(), (System.nanoTime() - startedAt) / 1e9);
            try {
                return new FaultRun(profile, suite, out).execute();
            } catch (RuntimeException | Error e) {
                suite.printLogTails(40);
                throw e;
            }
        } finally {
            out.printf("fault run (%s): %.1f s in all%n", profile.name(), (System.nanoTime() - startedAt) / 1e9);
        }
    }

    private Result execute() {
        long runStartedAt = System.nanoTime();
        try (OrderStream stream = new OrderStream(() -> suite.url("order-service"), profile.workers(),
                profile.maxOrders(), profile.pause(), profile.cancelEvery()).failingOneIn(profile.failEvery())
                        .withTokens(suite.tokens());
                RawProducer injector = new RawProducer(suite.nameServerAddress(), suite.brokerTools());
                Reconciler reconciler = new Reconciler(suite)) {
            stream.seedStock(suite.url("inventory-service"));
            stream.start();
            awaitAccepted(stream, 20);
            for (int round = 1; round <= profile.maxRounds(); round++) {
                faultCycle(round, stream, injector);
                boolean outOfTime = System.nanoTime() - runStartedAt > profile.maxDuration().toNanos();
                if (stream.exhausted() || outOfTime) {
                    break;
                }
            }
            boolean streamRanThroughout = !stream.exhausted();
            stream.stop();
            out.printf("fault run: faults done; stream accepted %d, refused %d, unanswered %d%s%n",
                    stream.acceptedCount(), stream.refused(), stream.unanswered(),
                    streamRanThroughout ? "" : "; the stream ran out of orders before the last fault");
            return settle(stream, reconciler, streamRanThroughout);
        }
    }

    private void faultCycle(int round, OrderStream stream, RawProducer injector) {
        out.printf("fault run: cycle %d (%d orders accepted so far)%n", round, stream.acceptedCount());
        for (String consumer : CONSUMER_SERVICES) {
            step("kill-9 " + consumer, () -> {
                suite.kill9(consumer);
                suite.restart(consumer, Map.of());
            }, "kill9-consumer", stream);
        }
        step("duplicates", () -> resendDuplicates(stream, injector), "duplicate-delivery", stream);
        step("poison", () -> injectPoison(round, injector), "poison-message", stream);
        step("kill-9 order-service in the half-message window", () -> killOrderServiceInWindow(stream),
                "kill9-order-service-half-message", stream);
        step("broker restart", suite::restartBroker, "broker-restart", stream);
        step("slow consumer " + SLOW_CONSUMER, () -> {
            suite.signal(SLOW_CONSUMER, "STOP");
            try {
                holdFault(profile.stall());
            } finally {
                suite.signal(SLOW_CONSUMER, "CONT");
            }
        }, "slow-consumer", stream);
        step("database outage of " + SuiteUnderTest.DB_OUTAGE_SERVICE, () -> {
            suite.databaseLink(SuiteUnderTest.DB_OUTAGE_SERVICE).cut();
            try {
                holdFault(profile.databaseOutage());
            } finally {
                suite.databaseLink(SuiteUnderTest.DB_OUTAGE_SERVICE).restore();
            }
        }, "database-outage", stream);
        step("two instances of " + TWO_INSTANCE_SERVICE + ", one killed in the rebalance", () -> {
            ServiceProcess first = suite.live(TWO_INSTANCE_SERVICE);
            suite.startSecondInstance(TWO_INSTANCE_SERVICE);
            // The new member's arrival makes the group rebalance now: the older one dies in it.
            suite.kill9(first);
        }, "two-instances-kill-in-rebalance", stream);
    }

    private void step(String description, Runnable fault, String kind, OrderStream stream) {
        long at = System.nanoTime();
        int acceptedBefore = stream.acceptedCount();
        fault.run();
        faults.merge(kind, 1, Integer::sum);
        out.printf("fault run:   %-60s %5.1f s, %3d orders accepted meanwhile%n", description,
                (System.nanoTime() - at) / 1e9, stream.acceptedCount() - acceptedBefore);
    }

    private void resendDuplicates(OrderStream stream, RawProducer injector) {
        List<AcceptedOrder> orders = new ArrayList<>(stream.accepted().values());
        Map<String, Integer> cancels = stream.cancelAnswers();
        int sent = 0;
        for (AcceptedOrder order : orders.subList(0, Math.min(10, orders.size()))) {
            injector.resend(order, OrderEventType.CREATE);
            sent++;
        }
        for (AcceptedOrder order : orders) {
            if (sent >= 15) {
                break;
            }
            if (Integer.valueOf(200).equals(cancels.get(order.orderId()))) {
                injector.resend(order, OrderEventType.CANCEL);
                sent++;
            }
        }
    }

    private void injectPoison(int round, RawProducer injector) {
        String malformed = "FAULTPOISON" + round + "F";
        injector.malformed(malformed);
        Map<String, String> format = new LinkedHashMap<>();
        Reconciler.DLQ_GROUPS.forEach(group -> format.put(group, "format"));
        poison.add(new Poison(OrderMessaging.messageKey(malformed, OrderEventType.CREATE), malformed, format));

        String unknownSku = "FAULTPOISON" + round + "S";
        injector.unknownSku(unknownSku, "FAULT-POISON-CUSTOMER");
        poison.add(new Poison(OrderMessaging.messageKey(unknownSku, OrderEventType.CREATE), unknownSku,
                Map.of(OrderMessaging.INVENTORY_GROUP, "business")));
    }

    /**
     * Stalls order-service's database link, waits until every client is inside a create (half
     * message sent, its order row not committed: the group's INSERT or commit waits on the link),
     * kills the service with {@code kill -9}, drops the held connections (MariaDB rolls back what
     * they had not committed) and restarts it. The check-back must roll those half messages back
     * (no row) and commit any whose row did commit.
     */
    private void killOrderServiceInWindow(OrderStream stream) {
        DatabaseLink link = suite.databaseLink(SuiteUnderTest.HALF_MESSAGE_SERVICE);
        link.stall();
        try {
            await("every client inside a create").atMost(Duration.ofSeconds(30)).pollInterval(Duration.ofMillis(100))
                    .until(() -> stream.inFlight() >= profile.workers());
            suite.kill9(SuiteUnderTest.HALF_MESSAGE_SERVICE);
        } finally {
            link.cut();
            link.resume();
            link.restore();
        }
        suite.restart(SuiteUnderTest.HALF_MESSAGE_SERVICE, Map.of());
    }

    /** A fault's duration (the outage or stall itself), not a wait for a condition. */
    private static void holdFault(Duration duration) {
        try {
            Thread.sleep(duration.toMillis());
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
            throw new IllegalStateException("Interrupted during a fault", e);
        }
    }

    private static void awaitAccepted(OrderStream stream, int orders) {
        await("first " + orders + " orders accepted").atMost(Duration.ofMinutes(1)).pollInterval(Duration.ofMillis(200))
                .until(() -> stream.acceptedCount() >= orders);
    }

    /** Waits (bounded) until the verdict is clean and stays clean for 5 s, then reports. */
    private Result settle(OrderStream stream, Reconciler reconciler, boolean streamRanThroughout) {
        long lastFaultAt = System.nanoTime();
        Verdict.Expectations expected = new Verdict.Expectations(Set.copyOf(stream.accepted().keySet()),
                stream.failing(), List.copyOf(poison), Set.copyOf(OrderStream.SKUS), OrderStream.INITIAL_STOCK);
        AtomicReference<Verdict> last = new AtomicReference<>();
        double quiescenceSeconds;
        try {
            await("quiescence: a clean verdict").atMost(profile.quiescenceTimeout()).pollInterval(Duration.ofSeconds(2))
                    .until(() -> {
                        last.set(Verdict.of(expected, reconciler.read()));
                        return last.get().clean();
                    });
            quiescenceSeconds = (System.nanoTime() - lastFaultAt) / 1e9;
            // No late duplicate from a redelivery still on its way: it stays clean.
            await("the verdict staying clean").during(Duration.ofSeconds(5)).atMost(Duration.ofSeconds(20))
                    .pollInterval(Duration.ofSeconds(1)).until(() -> {
                        last.set(Verdict.of(expected, reconciler.read()));
                        return last.get().clean();
                    });
        } catch (ConditionTimeoutException e) {
            // The verdict below reports what did not settle; the run fails on it.
            quiescenceSeconds = (System.nanoTime() - lastFaultAt) / 1e9;
            out.println("fault run: " + e.getMessage());
        }
        Verdict verdict = last.get() != null ? last.get() : Verdict.of(expected, reconciler.read());
        List<String> unexpectedExits = suite.unexpectedExits();
        String report = verdict.report(faults, quiescenceSeconds)
                + (unexpectedExits.isEmpty() ? "" : "\nservices that exited on their own: " + unexpectedExits);
        out.println(report);
        return new Result(verdict, Map.copyOf(faults), quiescenceSeconds, unexpectedExits, streamRanThroughout, report);
    }
}
