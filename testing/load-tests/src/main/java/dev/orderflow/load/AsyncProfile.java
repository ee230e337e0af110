package dev.orderflow.load;

import java.io.IOException;
import java.io.InputStream;
import java.io.UncheckedIOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.StandardCopyOption;
import java.util.List;
import java.util.Locale;
import java.util.stream.Stream;

import com.sun.tools.attach.VirtualMachine;

/**
 * An async-profiler CPU profile of one process during the load ({@code --async-profile}). Unlike
 * {@link JfrProfile}, whose samples see Java code only, it samples every thread wherever it runs:
 * Java, the JVM itself (class loading, JIT compilers, GC), native libraries and the kernel (system
 * calls, scheduling), which is where most of a service's CPU goes and what JFR's samples miss.
 *
 * <p>The profiler's agent library comes from the {@code tools.profiler:async-profiler} jar on the
 * class path; it is loaded into the running process through the JDK's attach API (started and
 * stopped like a {@code jcmd} recording, nothing added to the service's command line). Linux only.
 * Sampling: {@code event=cpu} (perf events, falling back to a CPU timer where perf events are not
 * allowed), one sample per {@value #INTERVAL_MILLIS} ms of a thread's CPU time.
 */
public final class AsyncProfile {

    /** CPU time between two samples of a thread, in milliseconds. */
    static final int INTERVAL_MILLIS = 5;

    private final long pid;
    private final Path library;
    private final Path file;

    private AsyncProfile(long pid, Path library, Path file) {
        this.pid = pid;
        this.library = library;
        this.file = file;
    }

    /**
     * Starts profiling the process.
     *
     * @param libraryDir where the agent library is unpacked (once per run)
     * @param file       where the stacks are written when the profile stops (collapsed format)
     */
    public static AsyncProfile start(long pid, Path libraryDir, Path file) {
        Path library = unpackLibrary(libraryDir);
        load(pid, library, "start,event=cpu,interval=" + INTERVAL_MILLIS + "ms,threads");
        return new AsyncProfile(pid, library, file);
    }

    /** Stops the profile (the agent writes the stacks to the file) and returns the summary lines. */
    public List<String> stopAndSummarise(int top) {
        load(pid, library, "stop,file=" + file + ",collapsed");
        try (Stream<String> lines = Files.lines(file)) {
            ProfileSummary summary = summarise(lines);
            return summary.lines(String.format(Locale.ROOT, "CPU samples (~%.1f s of CPU at one per %d ms)",
                    summary.samples() * INTERVAL_MILLIS / 1000.0, INTERVAL_MILLIS), top);
        } catch (IOException e) {
            throw new UncheckedIOException("Cannot read the profile " + file, e);
        }
    }

    /**
     * Reads collapsed stacks as the profiler writes them with {@code threads}: one line per distinct
     * stack, {@code [thread name tid=N];outermost;...;innermost count}.
     */
    static ProfileSummary summarise(Stream<String> collapsed) {
        ProfileSummary summary = new ProfileSummary();
        collapsed.filter(line -> !line.isBlank()).forEach(line -> {
            int space = line.lastIndexOf(' ');
            long count = Long.parseLong(line.substring(space + 1).trim());
            String[] frames = line.substring(0, space).split(";");
            String thread = frames[0].startsWith("[") ? frames[0].replaceAll("^\\[|( tid=\\d+)?]$", "") : "(unknown)";
            String top = frames[frames.length - 1];
            String ours = null;
            for (int i = frames.length - 1; i > 0 && ours == null; i--) {
                if (frames[i].startsWith("dev/orderflow/")) {
                    ours = javaName(frames[i]);
                }
            }
            summary.add(isJava(top) ? javaName(top) : top, library(top), ours, thread, count);
        });
        return summary;
    }

    /** A Java frame is written {@code package/Class.method}; native frames are symbols or library paths. */
    static boolean isJava(String frame) {
        return !frame.startsWith("/") && !frame.contains("::") && !frame.endsWith("_[k]") && frame.contains("/")
                && frame.lastIndexOf('.') > frame.lastIndexOf('/');
    }

    /** Where a frame's code comes from: a Java library, the kernel, or the JVM and native libraries. */
    static String library(String frame) {
        if (isJava(frame)) {
            return ProfileSummary.library(javaName(frame));
        }
        if (frame.endsWith("_[k]")) {
            return "kernel";
        }
        if (frame.startsWith("/")) {
            return frame.substring(frame.lastIndexOf('/') + 1);
        }
        return "JVM / native";
    }

    private static String javaName(String frame) {
        return frame.replace('/', '.');
    }

    private static void load(long pid, Path library, String options) {
        try {
            VirtualMachine vm = VirtualMachine.attach(Long.toString(pid));
            try {
                vm.loadAgentPath(library.toString(), options);
            } finally {
                vm.detach();
            }
        } catch (Exception e) {
            throw new IllegalStateException("async-profiler '" + options + "' in process " + pid + " failed: " + e, e);
        }
    }

    private static synchronized Path unpackLibrary(Path dir) {
        String platform = switch (System.getProperty("os.name") + " " + System.getProperty("os.arch")) {
            case "Linux amd64", "Linux x86_64" -> "linux-x64";
            case "Linux aarch64" -> "linux-arm64";
            default -> throw new IllegalStateException("--async-profile runs on Linux x64 or arm64, not "
                    + System.getProperty("os.name") + " " + System.getProperty("os.arch"));
        };
        Path target = dir.resolve("libasyncProfiler.so");
        if (Files.exists(target)) {
            return target;
        }
        String resource = platform + "/libasyncProfiler.so";
        try (InputStream in = AsyncProfile.class.getClassLoader().getResourceAsStream(resource)) {
            if (in == null) {
                throw new IllegalStateException(resource + " is not on the class path (tools.profiler:async-profiler)");
            }
            Files.createDirectories(dir);
            Files.copy(in, target, StandardCopyOption.REPLACE_EXISTING);
            return target;
        } catch (IOException e) {
            throw new UncheckedIOException("Cannot unpack " + resource + " to " + dir, e);
        }
    }
}
