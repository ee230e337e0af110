package dev.orderflow.faults;

import java.time.Duration;

/**
 * How big a fault run is.
 *
 * @param name               {@code short} or {@code long}
 * @param maxOrders          orders the stream attempts at most
 * @param workers            concurrent clients of the stream
 * @param pause              pause of each client between two requests
 * @param cancelEvery        each client cancels one of its orders after about one order in this many
 * @param failEvery          about one order in this many has a line never in stock: it fails and is compensated
 * @param maxRounds          how many times the whole fault cycle runs at most (it stops earlier
 *                           once the stream attempted {@code maxOrders})
 * @param stall              how long the slow consumer is stopped ({@code kill -STOP})
 * @param databaseOutage     how long inventory-service's database connection is cut
 * @param maxDuration        the run's bound: no new fault cycle starts after this
 * @param quiescenceTimeout  how long the suite may take to settle after the last fault
 */
public record Profile(String name, int maxOrders, int workers, Duration pause, int cancelEvery, int failEvery,
        int maxRounds, Duration stall, Duration databaseOutage, Duration maxDuration, Duration quiescenceTimeout) {

    /** CI: a few hundred orders (about 3 a second while the faults run), every fault once, a few minutes. */
    public static final Profile SHORT = new Profile("short", 800, 2, Duration.ofMillis(400), 6, 8, 1,
            Duration.ofSeconds(15), Duration.ofSeconds(20), Duration.ofMinutes(4), Duration.ofMinutes(3));

    /** Tens of thousands of orders, the fault cycle repeated until they are placed (bounded at 3 h). */
    public static final Profile LONG = new Profile("long", 30_000, 4, Duration.ofMillis(20), 6, 20, 200,
            Duration.ofSeconds(30), Duration.ofSeconds(20), Duration.ofHours(3), Duration.ofMinutes(10));

    public static Profile named(String name) {
        return switch (name) {
            case "short" -> SHORT;
            case "long" -> LONG;
            default -> throw new IllegalArgumentException("Unknown profile '" + name + "' (short or long)");
        };
    }
}
