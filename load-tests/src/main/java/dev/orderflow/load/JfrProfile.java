package dev.orderflow.load;

import java.io.IOException;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.List;
import java.util.Locale;
import java.util.Map;

import jdk.jfr.consumer.RecordedEvent;
import jdk.jfr.consumer.RecordedFrame;
import jdk.jfr.consumer.RecordedThread;
import jdk.jfr.consumer.RecordingFile;

/**
 * A Java Flight Recorder profile of one service during the load: started and stopped with
 * {@code jcmd} (the JDK's own tool, nothing added to the service), then summarised as the methods
 * most often on top of the sampled stacks ({@code jdk.ExecutionSample}), and the first
 * {@code dev.orderflow} frame of each sample (which of our code paths the time is spent under).
 */
public final class JfrProfile {

    private static final String RECORDING = "load";

    private final long pid;
    private final Path file;

    private JfrProfile(long pid, Path file) {
        this.pid = pid;
        this.file = file;
    }

    public static JfrProfile start(long pid, Path file) {
        jcmd(pid, "JFR.start", "name=" + RECORDING, "settings=profile", "filename=" + file);
        return new JfrProfile(pid, file);
    }

    /** Stops the recording (jcmd writes it to the file) and returns the summary lines. */
    public List<String> stopAndSummarise(int top) {
        jcmd(pid, "JFR.stop", "name=" + RECORDING);
        try {
            return summarise(RecordingFile.readAllEvents(file), top);
        } catch (IOException e) {
            throw new IllegalStateException("Cannot read the recording " + file, e);
        }
    }

    static List<String> summarise(List<RecordedEvent> events, int top) {
        Map<String, Integer> topFrames = new HashMap<>();
        Map<String, Integer> ourFrames = new HashMap<>();
        Map<String, Integer> libraries = new HashMap<>();
        Map<String, Integer> threads = new HashMap<>();
        int samples = 0;
        for (RecordedEvent event : events) {
            if (!event.getEventType().getName().equals("jdk.ExecutionSample") || event.getStackTrace() == null
                    || event.getStackTrace().getFrames().isEmpty()) {
                continue;
            }
            samples++;
            List<RecordedFrame> frames = event.getStackTrace().getFrames();
            topFrames.merge(name(frames.get(0)), 1, Integer::sum);
            libraries.merge(library(frames.get(0).getMethod().getType().getName()), 1, Integer::sum);
            threads.merge(threadGroup(event.getThread("sampledThread")), 1, Integer::sum);
            String ours = frames.stream().map(JfrProfile::name).filter(n -> n.startsWith("dev.orderflow.")).findFirst()
                    .orElse("(no dev.orderflow frame)");
            ourFrames.merge(ours, 1, Integer::sum);
        }
        List<String> lines = new ArrayList<>();
        lines.add(samples + " execution samples; top frames:");
        lines.addAll(ranked(topFrames, samples, top));
        lines.add("innermost dev.orderflow frame of each sample:");
        lines.addAll(ranked(ourFrames, samples, top));
        lines.add("library of the top frame:");
        lines.addAll(ranked(libraries, samples, top));
        lines.add("thread (numbers stripped):");
        lines.addAll(ranked(threads, samples, top));
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
    static String threadGroup(RecordedThread thread) {
        if (thread == null) {
            return "(unknown)";
        }
        String name = thread.getJavaName() != null ? thread.getJavaName() : thread.getOSName();
        return name == null ? "(unnamed)" : name.replaceAll("\\d+", "#");
    }

    private static List<String> ranked(Map<String, Integer> counts, int samples, int top) {
        return counts.entrySet().stream().sorted(Map.Entry.<String, Integer>comparingByValue().reversed()).limit(top)
                .map(e -> String.format(Locale.ROOT, "  %5.1f %%  %s", 100.0 * e.getValue() / samples, e.getKey()))
                .toList();
    }

    private static String name(RecordedFrame frame) {
        return frame.getMethod().getType().getName() + "." + frame.getMethod().getName();
    }

    /** Runs {@code jcmd <pid> <command...>} and returns its output. */
    static String jcmd(long pid, String... command) {
        List<String> line = new ArrayList<>();
        line.add(Path.of(System.getProperty("java.home"), "bin", "jcmd").toString());
        line.add(Long.toString(pid));
        line.addAll(List.of(command));
        try {
            Process process = new ProcessBuilder(line).redirectErrorStream(true).start();
            String output = new String(process.getInputStream().readAllBytes());
            if (process.waitFor() != 0 || output.contains("Could not") || output.contains("error")) {
                throw new IllegalStateException("jcmd " + String.join(" ", command) + " failed: " + output);
            }
            return output;
        } catch (IOException e) {
            throw new IllegalStateException("Cannot run jcmd", e);
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
            throw new IllegalStateException("Interrupted while running jcmd", e);
        }
    }
}
