package dev.orderflow.load;

import java.io.IOException;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;

import jdk.jfr.consumer.RecordedEvent;
import jdk.jfr.consumer.RecordedFrame;
import jdk.jfr.consumer.RecordedThread;
import jdk.jfr.consumer.RecordingFile;

/**
 * A Java Flight Recorder profile of one service during the load: started and stopped with
 * {@code jcmd} (the JDK's own tool, nothing added to the service), then summarised
 * ({@link ProfileSummary}) from its {@code jdk.ExecutionSample} events. They sample threads running
 * Java code only: time in the JVM itself (class loading, the JIT, GC), in native code and in the
 * kernel is not seen; {@link AsyncProfile} sees it.
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
        ProfileSummary summary = new ProfileSummary();
        for (RecordedEvent event : events) {
            if (!event.getEventType().getName().equals("jdk.ExecutionSample") || event.getStackTrace() == null
                    || event.getStackTrace().getFrames().isEmpty()) {
                continue;
            }
            List<RecordedFrame> frames = event.getStackTrace().getFrames();
            String ours = frames.stream().map(JfrProfile::name).filter(n -> n.startsWith("dev.orderflow.")).findFirst()
                    .orElse(null);
            summary.add(name(frames.get(0)), ProfileSummary.library(frames.get(0).getMethod().getType().getName()), ours,
                    threadName(event.getThread("sampledThread")), 1);
        }
        return summary.lines("execution samples", top);
    }

    private static String threadName(RecordedThread thread) {
        if (thread == null) {
            return "(unknown)";
        }
        return thread.getJavaName() != null ? thread.getJavaName() : thread.getOSName();
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
