package dev.orderflow.launcher;

import static org.assertj.core.api.Assertions.assertThat;
import static org.awaitility.Awaitility.await;

import java.io.IOException;
import java.time.Duration;
import java.util.List;
import java.util.Set;
import java.util.concurrent.TimeUnit;

import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;

/**
 * Process supervision with real processes ({@code bash}, {@code sleep}): stopping a child takes
 * its whole tree down, also when parts of it ignore SIGTERM or outlive their parent.
 */
@Timeout(value = 2, unit = TimeUnit.MINUTES)
class ProcessTreeTest {

    @Test
    void sigtermStopsAProcessTreeWithinTheGracePeriod() throws IOException {
        Process parent = new ProcessBuilder("bash", "-c", "sleep 300 & sleep 300 & wait").start();
        Set<ProcessHandle> tree = awaitTree(parent, 3);

        long started = System.nanoTime();
        List<ProcessHandle> killed = ProcessTree.terminate(List.of(parent.toHandle()), Duration.ofSeconds(10));

        assertThat(tree).noneMatch(ProcessHandle::isAlive);
        assertThat(killed).as("nothing needed SIGKILL").isEmpty();
        assertThat(Duration.ofNanos(System.nanoTime() - started)).isLessThan(Duration.ofSeconds(5));
    }

    @Test
    void killsATreeThatIgnoresSigtermAfterTheGracePeriod() throws IOException {
        // An ignored signal stays ignored across fork and exec: the whole tree ignores SIGTERM.
        Process parent = new ProcessBuilder("bash", "-c", "trap '' TERM; sleep 300 & sleep 300 & wait").start();
        Set<ProcessHandle> tree = awaitTree(parent, 3);

        long started = System.nanoTime();
        List<ProcessHandle> killed = ProcessTree.terminate(List.of(parent.toHandle()), Duration.ofSeconds(1));

        assertThat(tree).noneMatch(ProcessHandle::isAlive);
        assertThat(killed).containsExactlyInAnyOrderElementsOf(tree);
        assertThat(Duration.ofNanos(System.nanoTime() - started)).isBetween(Duration.ofSeconds(1), Duration.ofSeconds(10));
    }

    @Test
    void killsAGrandchildThatOutlivesItsParent() throws IOException {
        // The middle shell dies on SIGTERM; its child ignores SIGTERM and is re-parented to init,
        // where it is no longer anybody's descendant: it must still be found and killed.
        Process parent = new ProcessBuilder("bash", "-c", "bash -c \"trap '' TERM; sleep 300 & wait\" & wait").start();
        Set<ProcessHandle> tree = awaitTree(parent, 3);
        ProcessHandle grandchild = tree.stream().filter(p -> p.info().command().orElse("").endsWith("sleep"))
                .findFirst().orElseThrow();

        ProcessTree.terminate(List.of(parent.toHandle()), Duration.ofSeconds(1));

        assertThat(grandchild.isAlive()).isFalse();
        assertThat(tree).noneMatch(ProcessHandle::isAlive);
    }

    @Test
    void terminateMarkedStopsOnlyProcessesWhoseCommandLineCarriesTheMarker() throws IOException {
        String marker = "-Dorderflow.test.run-of=/tmp/marked-" + System.nanoTime();
        // bash -c <script> <$0> <$1>: the marker is an argument, so it is on the command line (two
        // commands in the script, so bash does not exec into sleep and lose it).
        Process marked = new ProcessBuilder("bash", "-c", "sleep 300; exit 0", marker, "x").start();
        Process unmarked = new ProcessBuilder("bash", "-c", "sleep 300; exit 0", marker + "-other", "x").start();
        try {
            List<ProcessHandle> stopped = ProcessTree.terminateMarked(marker, Duration.ofSeconds(5));

            assertThat(stopped).containsExactly(marked.toHandle());
            assertThat(marked.toHandle().isAlive()).isFalse();
            assertThat(unmarked.isAlive()).isTrue();
        } finally {
            unmarked.destroyForcibly();
            marked.destroyForcibly();
        }
    }

    private static Set<ProcessHandle> awaitTree(Process parent, int size) {
        await().atMost(Duration.ofSeconds(10)).until(() -> ProcessTree.snapshot(List.of(parent.toHandle())).size() == size);
        return ProcessTree.snapshot(List.of(parent.toHandle()));
    }
}
