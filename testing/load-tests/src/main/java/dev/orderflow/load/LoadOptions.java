package dev.orderflow.load;

import java.nio.file.Path;
import java.time.Duration;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.List;
import java.util.Locale;
import java.util.Optional;
import java.util.stream.IntStream;
import java.util.stream.Stream;

import dev.orderflow.launcher.Settings;
import dev.orderflow.suite.SuiteUnderTest;

/**
 * The command line of {@link LoadRun}.
 *
 * <ul>
 * <li>closed loop (default): {@code --orders N --clients C}: C clients, each placing its next order
 * as soon as the previous one was answered, N orders in all;</li>
 * <li>open loop: {@code --rate R --duration S [--clients C]}: R orders per second for S seconds
 * (R×S orders), at most C requests in flight;</li>
 * <li>{@code --completion-timeout S}: how long to wait for every accepted order to be COMPLETED
 * (default 300);</li>
 * <li>{@code --ceiling-seconds S}: length of each machine-ceiling measurement (default 10);</li>
 * <li>{@code --jfr SERVICE[,SERVICE...]|all}: record a Java Flight Recorder profile of those
 * processes (services, {@code broker}) during the load and print their top frames (Java code only);</li>
 * <li>{@code --async-profile SERVICE[,SERVICE...]|all}: the same with async-profiler
 * ({@link AsyncProfile}): every thread's CPU, including the JVM's own threads, native code and the
 * kernel;</li>
 * <li>{@code --warmup N}: place N orders first and wait until they are COMPLETED, in the same
 * suite, before the measured load (default 0): the measured phase then runs on warmed JITs;</li>
 * <li>{@code --warmup-seconds S}: open loop only: after that warm-up, place orders at the measured
 * rate for S seconds and go straight on into the measured phase, without waiting for them to
 * complete (default 0): the figures are then those of a suite that has run at the rate, not of one
 * starting from idle;</li>
 * <li>{@code --skus N}: orders draw their one to three lines from N SKUs (default 50, the
 * reference's load shape; at least 3);</li>
 * <li>{@code --jit c1|c2}: the services and the broker run C1 only (default, as the local launcher
 * starts them: on two cores shared by seven JVMs C2's compiler threads cost more than its code saves)
 * or with full tiered compilation;</li>
 * <li>{@code --jvm-options "OPTS"}: more JVM options for every service (space-separated, after
 * the suite's own), e.g. {@code "-XX:ReservedCodeCacheSize=48m -Xss512k"}; {@code {app-dir}} stands
 * for each service's {@code quarkus-app} folder, e.g. {@code -XX:SharedArchiveFile={app-dir}/app-cds.jsa};
 * {@code <service>:<option>} applies to one service, e.g. {@code inventory-service:-Dx=y}, and
 * {@code broker:<option>} to the broker only; given more than once, the options add up;</li>
 * <li>{@code --startup-alone true}: after the load, restart each service alone (the rest of the
 * suite idle) and print its start-up time and RSS once ready;</li>
 * <li>{@code --per-second true}: sample every process's and thread's CPU and MariaDB's counters each
 * second of the load, write them with the orders created and completed in each second into the run
 * directory and print the slowest seconds ({@link PerSecondSamples});</li>
 * <li>{@code --label TEXT}: the run's name in the results file;</li>
 * <li>{@code --results FILE}: append the run's figures as one CSV line (the chart's input; default
 * {@code testing/load-tests/target/load-results.csv}).</li>
 * </ul>
 */
public record LoadOptions(int orders, int clients, Optional<Double> rate, Duration duration, Duration completionTimeout,
        Duration ceilingDuration, List<String> jfrProcesses, List<String> asyncProfileProcesses, int warmupOrders, Duration warmupDuration, int skus,
        String jit, List<String> extraJvmOptions, boolean startupAlone, boolean perSecond, String label, Path results) {

    public static final String USAGE = "usage: LoadRun [--orders N] [--clients C] | [--rate R --duration S [--clients C]]"
            + " [--completion-timeout S] [--ceiling-seconds S] [--jfr SERVICE,...|all] [--async-profile SERVICE,...|all] [--warmup N]"
            + " [--warmup-seconds S] [--skus N] [--jit c1|c2] [--jvm-options \"OPTS\"] [--startup-alone true|false] [--per-second true|false] [--label TEXT]"
            + " [--results FILE]";

    /** What {@code --jfr all} and {@code --async-profile all} name: every service and the broker. */
    static final List<String> ALL_PROCESSES = List.of("order-service", "inventory-service", "sms-service",
            "points-service", "status-service", SuiteUnderTest.BROKER);

    public boolean openLoop() {
        return rate.isPresent();
    }

    /**
     * The suite's JVM options: the services' as the local launcher starts them, with their production
     * settings (not the fault suite's shorter rebalance and sweep intervals, which cost CPU at low
     * load), and the broker's ({@code broker:<option>}, after
     * {@code BrokerMain.JVM_OPTIONS}); {@code --jit c2} takes C1-only away from both,
     * {@code --jvm-options} come last.
     */
    public List<String> serviceJvmOptions() {
        List<String> options = new ArrayList<>(List.of(Settings.DEFAULT_SERVICE_JVM_OPTIONS.split(" ")));
        if (jit.equals("c2")) {
            options.removeIf(option -> option.startsWith("-XX:TieredStopAtLevel"));
            // 4, the JVM's default, is full tiered compilation: it overrides BrokerMain's C1-only.
            options.add(SuiteUnderTest.BROKER + ":-XX:TieredStopAtLevel=4");
        }
        options.addAll(extraJvmOptions);
        return options;
    }

    /** The orders of the open loop's warm-up at the rate ({@code --warmup-seconds}): R × S, or 0. */
    public int warmupOrdersAtRate() {
        return rate.map(r -> (int) Math.round(r * warmupDuration.toMillis() / 1000.0)).orElse(0);
    }

    /** The number of orders the run places: N, or R × S in the open loop. */
    public int plannedOrders() {
        return rate.map(r -> (int) Math.round(r * duration.toMillis() / 1000.0)).orElse(orders);
    }

    public static LoadOptions parse(String... args) {
        int orders = 500;
        int clients = 8;
        Double rate = null;
        Duration duration = null;
        Duration completionTimeout = Duration.ofSeconds(300);
        Duration ceilingDuration = Duration.ofSeconds(10);
        List<String> jfrProcesses = List.of();
        List<String> asyncProfileProcesses = List.of();
        int warmupOrders = 0;
        Duration warmupDuration = Duration.ZERO;
        int skus = 50;
        String jit = "c1";
        boolean startupAlone = false;
        boolean perSecond = false;
        List<String> extraJvmOptions = List.of();
        String label = null;
        Path results = Path.of("testing/load-tests/target/load-results.csv");
        for (int i = 0; i < args.length; i++) {
            String name = args[i];
            if (i + 1 >= args.length) {
                throw new IllegalArgumentException("No value for " + name + "\n" + USAGE);
            }
            String value = args[++i];
            switch (name) {
                case "--orders" -> orders = positive(name, Integer.parseInt(value));
                case "--clients" -> clients = positive(name, Integer.parseInt(value));
                case "--rate" -> {
                    rate = Double.parseDouble(value);
                    if (rate <= 0) {
                        throw new IllegalArgumentException("--rate must be positive, was " + value);
                    }
                }
                case "--duration" -> duration = Duration.ofSeconds(positive(name, Integer.parseInt(value)));
                case "--completion-timeout" -> completionTimeout = Duration.ofSeconds(positive(name, Integer.parseInt(value)));
                case "--ceiling-seconds" -> ceilingDuration = Duration.ofSeconds(positive(name, Integer.parseInt(value)));
                case "--jfr" -> jfrProcesses = processes(name, value);
                case "--async-profile" -> asyncProfileProcesses = processes(name, value);
                case "--warmup" -> {
                    warmupOrders = Integer.parseInt(value);
                    if (warmupOrders < 0) {
                        throw new IllegalArgumentException("--warmup must not be negative, was " + value);
                    }
                }
                case "--warmup-seconds" -> {
                    warmupDuration = Duration.ofSeconds(Integer.parseInt(value));
                    if (warmupDuration.isNegative()) {
                        throw new IllegalArgumentException("--warmup-seconds must not be negative, was " + value);
                    }
                }
                case "--skus" -> {
                    skus = Integer.parseInt(value);
                    if (skus < 3) {
                        throw new IllegalArgumentException("--skus must be at least 3 (an order has up to three "
                                + "distinct SKUs), was " + value);
                    }
                }
                case "--jit" -> {
                    if (!value.equals("c1") && !value.equals("c2")) {
                        throw new IllegalArgumentException("--jit is c1 or c2, was " + value);
                    }
                    jit = value;
                }
                case "--startup-alone" -> startupAlone = trueOrFalse(name, value);
                case "--per-second" -> perSecond = trueOrFalse(name, value);
                // Given more than once, the options add up (one per service is the usual use).
                case "--jvm-options" -> extraJvmOptions = Stream.concat(extraJvmOptions.stream(),
                        Arrays.stream(value.trim().split("\\s+")).filter(o -> !o.isEmpty())).toList();
                case "--label" -> label = value;
                case "--results" -> results = Path.of(value);
                default -> throw new IllegalArgumentException("Unknown option " + name + "\n" + USAGE);
            }
        }
        if ((rate == null) != (duration == null)) {
            throw new IllegalArgumentException("The open loop needs both --rate and --duration\n" + USAGE);
        }
        if (rate == null && !warmupDuration.isZero()) {
            throw new IllegalArgumentException("--warmup-seconds warms up at the open loop's rate: it needs --rate and"
                    + " --duration\n" + USAGE);
        }
        if (label == null) {
            label = rate == null ? "closed n=" + orders + " c=" + clients
                    : "open " + rate + "/s x " + duration.toSeconds() + " s";
        }
        return new LoadOptions(orders, clients, Optional.ofNullable(rate), duration == null ? Duration.ZERO : duration,
                completionTimeout, ceilingDuration, jfrProcesses, asyncProfileProcesses, warmupOrders, warmupDuration, skus, jit,
                extraJvmOptions, startupAlone, perSecond, label, results);
    }

    private static List<String> processes(String option, String value) {
        if (value.equals("all")) {
            return ALL_PROCESSES;
        }
        List<String> names = Arrays.stream(value.split(",")).map(String::trim).filter(n -> !n.isEmpty()).toList();
        List<String> unknown = names.stream().filter(n -> !ALL_PROCESSES.contains(n)).toList();
        if (names.isEmpty() || !unknown.isEmpty()) {
            throw new IllegalArgumentException(option + " takes 'all' or some of " + ALL_PROCESSES + ", not " + value);
        }
        return names;
    }

    /** The SKUs of the run: LOAD-SKU-01 ... LOAD-SKU-N. */
    public List<String> skuNames() {
        return IntStream.rangeClosed(1, skus).mapToObj(i -> String.format(Locale.ROOT, "LOAD-SKU-%02d", i)).toList();
    }

    private static boolean trueOrFalse(String name, String value) {
        if (!value.equals("true") && !value.equals("false")) {
            throw new IllegalArgumentException(name + " is true or false, was " + value);
        }
        return Boolean.parseBoolean(value);
    }

    private static int positive(String name, int value) {
        if (value <= 0) {
            throw new IllegalArgumentException(name + " must be positive, was " + value);
        }
        return value;
    }
}
