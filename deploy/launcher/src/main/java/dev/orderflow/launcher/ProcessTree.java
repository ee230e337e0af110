package dev.orderflow.launcher;

import java.time.Duration;
import java.util.ArrayList;
import java.util.Collection;
import java.util.LinkedHashSet;
import java.util.List;
import java.util.Set;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.ExecutionException;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.TimeoutException;
import java.util.stream.Collectors;

/**
 * Stops processes together with everything they started: SIGTERM to each process and its
 * descendants, a bounded wait, then SIGKILL to whatever is left. Descendants are collected
 * before the parents are signalled, because once a parent exits its children are re-parented
 * and no longer show up as its descendants.
 */
public final class ProcessTree {

    private ProcessTree() {
    }

    /** Every process of the trees rooted at {@code roots} that is alive now, roots first. */
    public static Set<ProcessHandle> snapshot(Collection<ProcessHandle> roots) {
        Set<ProcessHandle> all = new LinkedHashSet<>();
        for (ProcessHandle root : roots) {
            if (root.isAlive()) {
                all.add(root);
            }
            root.descendants().forEach(all::add);
        }
        return all;
    }

    /**
     * Terminates the trees rooted at {@code roots}: SIGTERM, up to {@code grace} to exit, then
     * SIGKILL, up to 10 s more.
     *
     * @return the processes that had to be killed (empty when all exited on SIGTERM)
     * @throws IllegalStateException when a process survives SIGKILL (it cannot, short of a hung kernel)
     */
    public static List<ProcessHandle> terminate(Collection<ProcessHandle> roots, Duration grace) {
        Set<ProcessHandle> tree = snapshot(roots);
        tree.forEach(ProcessHandle::destroy);
        awaitExit(tree, grace);
        // Anything started while we waited belongs to the tree as well.
        Set<ProcessHandle> survivors = snapshot(roots);
        tree.stream().filter(ProcessHandle::isAlive).forEach(survivors::add);
        List<ProcessHandle> killed = new ArrayList<>(survivors);
        survivors.forEach(ProcessHandle::destroyForcibly);
        awaitExit(survivors, Duration.ofSeconds(10));
        List<ProcessHandle> alive = survivors.stream().filter(ProcessHandle::isAlive).collect(Collectors.toList());
        if (!alive.isEmpty()) {
            throw new IllegalStateException("Processes survived SIGKILL: " + alive);
        }
        return killed;
    }

    /**
     * Terminates (as {@link #terminate}) every process of this user, other than this JVM, whose
     * command line carries {@code marker} followed by a space: the processes a run started with
     * that marker, left behind when its JVM was killed (SIGKILL) before its shutdown hook ran.
     *
     * @return the processes found (empty when none was left)
     */
    public static List<ProcessHandle> terminateMarked(String marker, Duration grace) {
        List<ProcessHandle> leftovers = ProcessHandle.allProcesses()
                .filter(p -> p.pid() != ProcessHandle.current().pid())
                .filter(p -> p.info().commandLine().map(c -> c.contains(marker + " ")).orElse(false))
                .toList();
        if (!leftovers.isEmpty()) {
            terminate(leftovers, grace);
        }
        return leftovers;
    }

    private static void awaitExit(Collection<ProcessHandle> processes, Duration timeout) {
        CompletableFuture<?>[] exits = processes.stream().map(ProcessHandle::onExit).toArray(CompletableFuture[]::new);
        try {
            CompletableFuture.allOf(exits).get(timeout.toMillis(), TimeUnit.MILLISECONDS);
        } catch (TimeoutException e) {
            // Expected when a process ignores SIGTERM: the caller escalates to SIGKILL.
            return;
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
            throw new IllegalStateException("Interrupted while waiting for processes to exit", e);
        } catch (ExecutionException e) {
            throw new IllegalStateException("Waiting for process exit failed", e.getCause());
        }
    }
}
