package dev.orderflow.launcher;

import java.io.IOException;
import java.io.UncheckedIOException;
import java.net.URI;
import java.net.http.HttpClient;
import java.net.http.HttpRequest;
import java.net.http.HttpResponse;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;

/**
 * One supervised child process: its output goes to a log file, readiness is an HTTP GET
 * answering 200, and stopping it takes its whole process tree down ({@link ProcessTree}).
 */
public final class ServiceProcess {

    private static final HttpClient HTTP = HttpClient.newBuilder().connectTimeout(Duration.ofSeconds(1)).build();
    /**
     * Between two readiness polls. Short, because the benchmark reports the time to ready from
     * these polls (at 500 ms, a service ready in 2.1 s could be reported at 2.6 s).
     */
    private static final Duration READINESS_POLL_INTERVAL = Duration.ofMillis(100);

    private final String name;
    private final Process process;
    private final Path log;
    private final URI readiness;

    private ServiceProcess(String name, Process process, Path log, URI readiness) {
        this.name = name;
        this.process = process;
        this.log = log;
        this.readiness = readiness;
    }

    /**
     * Starts {@code command} in {@code workDir} with {@code extraEnv} added to this process'
     * environment, stdout and stderr appended to {@code log}.
     *
     * @param readiness URL that answers 200 once the process is ready
     */
    public static ServiceProcess start(String name, List<String> command, Map<String, String> extraEnv, Path workDir,
            Path log, URI readiness) {
        try {
            Files.createDirectories(workDir);
            Files.createDirectories(log.toAbsolutePath().getParent());
            ProcessBuilder builder = new ProcessBuilder(command)
                    .directory(workDir.toFile())
                    .redirectErrorStream(true)
                    .redirectOutput(ProcessBuilder.Redirect.to(log.toFile()));
            builder.environment().putAll(extraEnv);
            return new ServiceProcess(name, builder.start(), log, readiness);
        } catch (IOException e) {
            throw new UncheckedIOException("Cannot start " + name + ": " + command, e);
        }
    }

    /** The command line of a Quarkus fast-jar: {@code java <jvmOptions> <systemProperties> -jar <jar>}. */
    public static List<String> javaCommand(List<String> jvmOptions, Map<String, String> systemProperties, Path jar) {
        List<String> command = new ArrayList<>();
        command.add(Path.of(System.getProperty("java.home"), "bin", "java").toString());
        command.addAll(jvmOptions);
        systemProperties.forEach((key, value) -> command.add("-D" + key + "=" + value));
        command.add("-jar");
        command.add(jar.toAbsolutePath().toString());
        return command;
    }

    /**
     * Polls the readiness URL until it answers 200.
     *
     * @throws IllegalStateException when the process exits first or the deadline passes; the
     *         message ends with the last lines of the log
     */
    public void awaitReady(long deadlineNanos) {
        HttpRequest request = HttpRequest.newBuilder(readiness).timeout(Duration.ofSeconds(2)).GET().build();
        String lastAnswer = "no answer yet";
        while (System.nanoTime() < deadlineNanos) {
            if (!process.isAlive()) {
                throw new IllegalStateException(name + " exited with code " + process.exitValue()
                        + " before it was ready; last lines of " + log + ":\n" + tail(30));
            }
            try {
                HttpResponse<String> response = HTTP.send(request, HttpResponse.BodyHandlers.ofString());
                if (response.statusCode() == 200) {
                    return;
                }
                lastAnswer = "HTTP " + response.statusCode() + " " + response.body();
            } catch (IOException e) {
                lastAnswer = e.toString(); // not listening yet
            } catch (InterruptedException e) {
                Thread.currentThread().interrupt();
                throw new IllegalStateException("Interrupted while waiting for " + name, e);
            }
            sleep(READINESS_POLL_INTERVAL);
        }
        throw new IllegalStateException(name + " was not ready at " + readiness + " in time (" + lastAnswer
                + "); last lines of " + log + ":\n" + tail(30));
    }

    /** SIGTERM to the process tree, {@code grace} to exit, then SIGKILL. */
    public void stop(Duration grace) {
        ProcessTree.terminate(List.of(process.toHandle()), grace);
    }

    public String name() {
        return name;
    }

    public ProcessHandle handle() {
        return process.toHandle();
    }

    public Process process() {
        return process;
    }

    public Path log() {
        return log;
    }

    /** The last {@code lines} lines of the log. */
    public String tail(int lines) {
        try {
            List<String> all = Files.readAllLines(log, StandardCharsets.UTF_8);
            return String.join("\n", all.subList(Math.max(0, all.size() - lines), all.size()));
        } catch (IOException e) {
            return "(log unreadable: " + e + ")";
        }
    }

    private static void sleep(Duration duration) {
        try {
            Thread.sleep(duration.toMillis());
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
            throw new IllegalStateException("Interrupted", e);
        }
    }
}
