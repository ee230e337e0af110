package dev.orderflow.load;

import java.nio.file.Path;
import java.time.Duration;
import java.util.Optional;

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
 * <li>{@code --jfr SERVICE}: record a Java Flight Recorder profile of that service during the load
 * and print its top frames;</li>
 * <li>{@code --label TEXT}: the run's name in the results file;</li>
 * <li>{@code --results FILE}: append the run's figures as one CSV line (the chart's input; default
 * {@code load-tests/target/load-results.csv}).</li>
 * </ul>
 */
public record LoadOptions(int orders, int clients, Optional<Double> rate, Duration duration, Duration completionTimeout,
        Duration ceilingDuration, Optional<String> jfrService, String label, Path results) {

    public static final String USAGE = "usage: LoadRun [--orders N] [--clients C] | [--rate R --duration S [--clients C]]"
            + " [--completion-timeout S] [--ceiling-seconds S] [--jfr SERVICE] [--label TEXT] [--results FILE]";

    public boolean openLoop() {
        return rate.isPresent();
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
        String jfrService = null;
        String label = null;
        Path results = Path.of("load-tests/target/load-results.csv");
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
                case "--jfr" -> jfrService = value;
                case "--label" -> label = value;
                case "--results" -> results = Path.of(value);
                default -> throw new IllegalArgumentException("Unknown option " + name + "\n" + USAGE);
            }
        }
        if ((rate == null) != (duration == null)) {
            throw new IllegalArgumentException("The open loop needs both --rate and --duration\n" + USAGE);
        }
        if (label == null) {
            label = rate == null ? "closed n=" + orders + " c=" + clients
                    : "open " + rate + "/s x " + duration.toSeconds() + " s";
        }
        return new LoadOptions(orders, clients, Optional.ofNullable(rate), duration == null ? Duration.ZERO : duration,
                completionTimeout, ceilingDuration, Optional.ofNullable(jfrService), label, results);
    }

    private static int positive(String name, int value) {
        if (value <= 0) {
            throw new IllegalArgumentException(name + " must be positive, was " + value);
        }
        return value;
    }
}
