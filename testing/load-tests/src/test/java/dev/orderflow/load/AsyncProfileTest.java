package dev.orderflow.load;

import static org.assertj.core.api.Assertions.assertThat;
import static org.awaitility.Awaitility.await;

import java.io.BufferedReader;
import java.io.InputStreamReader;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.List;
import java.util.stream.Stream;

import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

class AsyncProfileTest {

    @Test
    void collapsedStacksAreCountedByTopFrameLibraryOurFrameAndThread() {
        ProfileSummary summary = AsyncProfile.summarise(Stream.of(
                "[executor-thread-3 tid=101];java/lang/Thread.run;dev/orderflow/order/OrderService.create;"
                        + "org/mariadb/jdbc/client/impl/StandardClient.sendQuery;__send_[k] 6",
                "[executor-thread-12 tid=102];java/lang/Thread.run;dev/orderflow/order/OrderService.create;"
                        + "com/fasterxml/jackson/databind/ObjectMapper.writeValueAsBytes 3",
                "[C1 CompilerThread0 tid=7];thread_native_entry;Compiler::compile_method 2",
                "[main tid=1];/usr/lib/x86_64-linux-gnu/libz.so.1.2.13 1",
                ""));

        assertThat(summary.samples()).isEqualTo(12);
        List<String> lines = summary.lines("CPU samples", 5);
        assertThat(lines.get(0)).isEqualTo("12 CPU samples; top frames:");
        assertThat(lines).contains("   50.0 %  __send_[k]",
                "   25.0 %  com.fasterxml.jackson.databind.ObjectMapper.writeValueAsBytes",
                "   75.0 %  dev.orderflow.order.OrderService.create",
                "   50.0 %  kernel", "   25.0 %  Jackson", "   16.7 %  JVM / native", "    8.3 %  libz.so.1.2.13",
                "   75.0 %  executor-thread-#", "   16.7 %  C# CompilerThread#", "    8.3 %  main");
    }

    @Test
    void javaFramesAreToldFromNativeOnes() {
        assertThat(AsyncProfile.isJava("io/netty/channel/nio/NioEventLoop.run")).isTrue();
        assertThat(AsyncProfile.isJava("dev/orderflow/Foo$$Lambda.0x0000.apply")).isTrue();
        assertThat(AsyncProfile.isJava("SymbolTable::do_lookup")).isFalse();
        assertThat(AsyncProfile.isJava("/usr/lib/x86_64-linux-gnu/libz.so.1.2.13")).isFalse();
        assertThat(AsyncProfile.isJava("do_syscall_64_[k]")).isFalse();
        assertThat(AsyncProfile.isJava("Interpreter")).isFalse();
    }

    @Test
    void profilesARunningProcessFromOutside(@TempDir Path dir) throws Exception {
        Process busy = new ProcessBuilder(Path.of(System.getProperty("java.home"), "bin", "java").toString(), "-Xmx32m",
                "-cp", System.getProperty("java.class.path"), BusyLoop.class.getName()).redirectErrorStream(true).start();
        try {
            BufferedReader output = new BufferedReader(new InputStreamReader(busy.getInputStream(), StandardCharsets.UTF_8));
            assertThat(output.readLine()).isEqualTo("spinning");

            Duration cpuBefore = cpu(busy);
            AsyncProfile profile = AsyncProfile.start(busy.pid(), dir, dir.resolve("busy.collapsed"));
            // Profiled for half a second of the busy process's CPU (~100 samples at one per 5 ms),
            // however fast or loaded the machine.
            await().atMost(Duration.ofSeconds(30)).pollInterval(Duration.ofMillis(50))
                    .until(() -> cpu(busy).minus(cpuBefore).toMillis() >= 500);
            List<String> lines = profile.stopAndSummarise(3);

            assertThat(dir.resolve("busy.collapsed")).exists();
            assertThat(Files.readString(dir.resolve("busy.collapsed"))).contains("dev/orderflow/load/BusyLoop.spin");
            assertThat(lines.get(0)).matches("\\d+ CPU samples \\(~[0-9.]+ s of CPU at one per 5 ms\\); top frames:");
            // The busy thread is main, spinning in BusyLoop.spin: it leads the ranking of our frames and threads.
            int ours = lines.indexOf("innermost dev.orderflow frame of each sample:");
            assertThat(lines.get(ours + 1)).endsWith("dev.orderflow.load.BusyLoop.spin");
            int threads = lines.indexOf("thread (numbers stripped):");
            assertThat(lines.get(threads + 1)).endsWith("main");
        } finally {
            busy.destroyForcibly().waitFor();
        }
    }

    private static Duration cpu(Process process) {
        return process.info().totalCpuDuration().orElseThrow(() -> new IllegalStateException("no CPU time for " + process));
    }
}
