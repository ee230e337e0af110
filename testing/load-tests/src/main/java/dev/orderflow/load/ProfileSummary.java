package dev.orderflow.load;

import java.util.ArrayList;
import java.util.HashMap;
import java.util.List;
import java.util.Locale;
import java.util.Map;

/**
 * The printed summary of a CPU profile, whichever tool took it ({@link JfrProfile},
 * {@link AsyncProfile}): the frames most often on top of the sampled stacks, the innermost
 * {@code dev.orderflow} frame of each sample (which of our code paths the time is spent under), the
 * library of the top frame and the thread, its numbers stripped so that a pool counts as one.
 */
final class ProfileSummary {

    private final Map<String, Long> topFrames = new HashMap<>();
    private final Map<String, Long> ourFrames = new HashMap<>();
    private final Map<String, Long> libraries = new HashMap<>();
    private final Map<String, Long> threads = new HashMap<>();
    private long samples;

    /**
     * Counts one stack (or {@code weight} identical ones).
     *
     * @param topFrame     the innermost frame
     * @param library      where the innermost frame's code comes from ({@link #library(String)} for Java classes)
     * @param ourFrame     the innermost {@code dev.orderflow} frame, or null when the stack has none
     * @param threadName   the sampled thread's name
     */
    void add(String topFrame, String library, String ourFrame, String threadName, long weight) {
        samples += weight;
        topFrames.merge(topFrame, weight, Long::sum);
        libraries.merge(library, weight, Long::sum);
        ourFrames.merge(ourFrame != null ? ourFrame : "(no dev.orderflow frame)", weight, Long::sum);
        threads.merge(threadGroup(threadName), weight, Long::sum);
    }

    long samples() {
        return samples;
    }

    /** The four rankings, {@code top} lines each, after a first line that names the sample count. */
    List<String> lines(String samplesDescription, int top) {
        List<String> lines = new ArrayList<>();
        lines.add(samples + " " + samplesDescription + "; top frames:");
        lines.addAll(ranked(topFrames, top));
        lines.add("innermost dev.orderflow frame of each sample:");
        lines.addAll(ranked(ourFrames, top));
        lines.add("library of the top frame:");
        lines.addAll(ranked(libraries, top));
        lines.add("thread (numbers stripped):");
        lines.addAll(ranked(threads, top));
        return lines;
    }

    /** Where a class comes from, by package: which library the CPU time is spent in. */
    static String library(String className) {
        String[][] prefixes = {
                { "dev.orderflow.", "orderflow" }, { "org.hibernate.", "Hibernate ORM" },
                { "org.mariadb.", "MariaDB Connector/J" }, { "io.agroal.", "Agroal" },
                { "com.arjuna.", "Narayana JTA" }, { "io.narayana.", "Narayana JTA" },
                { "org.apache.rocketmq.", "RocketMQ client" }, { "io.netty.", "Netty" }, { "io.vertx.", "Vert.x" },
                { "io.quarkus.", "Quarkus" }, { "io.smallrye.", "SmallRye" }, { "com.fasterxml.", "Jackson" },
                { "org.jboss.logging.", "logging" }, { "org.jboss.logmanager.", "logging" },
                { "io.micrometer.", "Micrometer" }, { "org.jboss.resteasy.", "RESTEasy" },
                { "java.", "JDK" }, { "javax.", "JDK" }, { "jdk.", "JDK" }, { "sun.", "JDK" }, { "com.sun.", "JDK" } };
        for (String[] prefix : prefixes) {
            if (className.startsWith(prefix[0])) {
                return prefix[1];
            }
        }
        String[] parts = className.split("\\.");
        return parts.length > 2 ? parts[0] + "." + parts[1] + "." + parts[2] : className;
    }

    /** A thread's name without its sequence numbers, so that a pool's threads count together. */
    static String threadGroup(String name) {
        return name == null ? "(unnamed)" : name.replaceAll("\\d+", "#");
    }

    private List<String> ranked(Map<String, Long> counts, int top) {
        return counts.entrySet().stream().sorted(Map.Entry.<String, Long>comparingByValue().reversed()).limit(top)
                .map(e -> String.format(Locale.ROOT, "  %5.1f %%  %s", 100.0 * e.getValue() / Math.max(samples, 1),
                        e.getKey()))
                .toList();
    }
}
