package dev.orderflow.order.filequeue;

import java.io.IOException;
import java.nio.file.DirectoryStream;
import java.nio.file.FileAlreadyExistsException;
import java.nio.file.Files;
import java.nio.file.LinkOption;
import java.nio.file.NoSuchFileException;
import java.nio.file.Path;
import java.nio.file.StandardCopyOption;
import java.nio.file.attribute.BasicFileAttributes;
import java.nio.file.attribute.FileTime;
import java.time.Clock;
import java.time.Duration;
import java.time.Instant;
import java.time.ZoneOffset;
import java.time.format.DateTimeFormatter;
import java.util.ArrayList;
import java.util.Comparator;
import java.util.HashSet;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.atomic.AtomicLong;

import org.jboss.logging.Logger;

import dev.orderflow.order.service.CreateResult;
import dev.orderflow.order.service.IdempotencyKeyReusedException;
import dev.orderflow.order.service.NewOrder;

/**
 * One poller of the file queue: claims complete files from {@code inbox/} by an atomic rename
 * into {@code processing/} (the one whose rename succeeds owns the file; any number of workers,
 * threads or instances can poll the same folders), turns them into orders through the order
 * service's create path, and moves them to {@code done/} or {@code error/} (with
 * {@code <name>.reason}). Not thread-safe: one thread per worker.
 */
public class FileQueueWorker {

    private static final Logger LOG = Logger.getLogger(FileQueueWorker.class);
    private static final DateTimeFormatter SUFFIX = DateTimeFormatter.ofPattern("yyyyMMdd'T'HHmmssSSS'Z'")
            .withZone(ZoneOffset.UTC);

    /** The create path of the REST API: {@code OrderService::create}. */
    @FunctionalInterface
    public interface OrderCreator {
        CreateResult create(NewOrder order, String idempotencyKey);
    }

    /** The worker's settings (from {@link FileQueueConfig}). */
    public record Settings(boolean requireOkFlag, int maxFilesPerPoll, Duration processingLease, long maxFileBytes,
            Duration moveRetryInitialDelay, Duration moveRetryMaxDelay) {

        public static Settings of(FileQueueConfig config) {
            return new Settings(config.requireOkFlag(), config.maxFilesPerPoll(), config.processingLease(),
                    config.maxFileBytes(), config.moveRetry().initialDelay(), config.moveRetry().maxDelay());
        }
    }

    private final String name;
    private final FileQueueFolders folders;
    private final Settings settings;
    private final FileOrderParser parser;
    private final OrderCreator creator;
    private final FileQueueMetrics metrics;
    private final Clock clock;
    /** Files in processing/ whose move out failed, by path: retried with back-off, never re-read. */
    private final Map<Path, PendingMove> pendingMoves = new ConcurrentHashMap<>();
    /** Files in inbox/ whose claim failed for another reason than a lost race. */
    private final Map<Path, Backoff> claimBackoff = new ConcurrentHashMap<>();
    private final AtomicLong claimed = new AtomicLong();
    private Instant nextRecovery = Instant.MIN;

    public FileQueueWorker(String name, FileQueueFolders folders, Settings settings, FileOrderParser parser,
            OrderCreator creator, FileQueueMetrics metrics, Clock clock) {
        this.name = name;
        this.folders = folders;
        this.settings = settings;
        this.parser = parser;
        this.creator = creator;
        this.metrics = metrics;
        this.clock = clock;
    }

    /**
     * One tick: retries due moves, puts stale files of processing/ back (once per lease), then
     * claims and processes at most {@code maxFilesPerPoll} files, oldest first.
     *
     * @return the number of files this worker claimed
     */
    public int pollOnce() {
        Instant now = clock.instant();
        retryPendingMoves(now);
        if (!now.isBefore(nextRecovery)) {
            recoverStale();
        }
        int taken = 0;
        for (Path file : readyFiles(now)) {
            Path owned = claim(file, now);
            if (owned != null) {
                taken++;
                process(owned);
            }
        }
        return taken;
    }

    /**
     * Puts files that sit in processing/ longer than the lease (their poller crashed) back into
     * inbox/ (with a fresh {@code .ok} flag when flags are required), where they are claimed again.
     * Their idempotency keys make the retry create no second order.
     *
     * @return files put back
     */
    public int recoverStale() {
        Instant now = clock.instant();
        nextRecovery = now.plus(settings.processingLease());
        Instant staleBefore = now.minus(settings.processingLease());
        int recovered = 0;
        try (DirectoryStream<Path> entries = Files.newDirectoryStream(folders.processing())) {
            for (Path file : entries) {
                String fileName = file.getFileName().toString();
                if (fileName.startsWith(".") || pendingMoves.containsKey(file)
                        || !Files.isRegularFile(file, LinkOption.NOFOLLOW_LINKS)) {
                    continue;
                }
                FileTime claimedAt;
                try {
                    claimedAt = Files.getLastModifiedTime(file);
                } catch (NoSuchFileException e) {
                    continue; // finished by its owner meanwhile
                }
                if (!claimedAt.toInstant().isBefore(staleBefore)) {
                    continue;
                }
                if (putBack(file, fileName, claimedAt)) {
                    recovered++;
                }
            }
        } catch (IOException e) {
            LOG.errorf(e, "[%s] Cannot list %s to recover stale files; retrying after the lease", name,
                    folders.processing());
        }
        return recovered;
    }

    private boolean putBack(Path file, String fileName, FileTime claimedAt) {
        Path target = folders.inbox().resolve(fileName);
        if (Files.exists(target, LinkOption.NOFOLLOW_LINKS)) {
            LOG.warnf("[%s] Stale %s stays in processing/: inbox/ holds a file of the same name; retried after "
                    + "the next lease", name, file);
            return false;
        }
        try {
            if (settings.requireOkFlag()) {
                try {
                    Files.createFile(okFlag(target));
                } catch (FileAlreadyExistsException e) {
                    LOG.debugf("[%s] Flag %s exists already", name, e.getFile());
                }
            }
            Files.move(file, target, StandardCopyOption.ATOMIC_MOVE);
            metrics.recovered();
            LOG.warnf("[%s] Recovered %s: in processing/ since %s (longer than the lease %s, its poller died); "
                    + "back in inbox/, its idempotency key prevents a second order", name, fileName, claimedAt,
                    settings.processingLease());
            return true;
        } catch (NoSuchFileException e) {
            LOG.debugf("[%s] %s was recovered or finished by another poller", name, fileName);
            return false;
        } catch (IOException e) {
            metrics.moveFailed("inbox");
            LOG.errorf(e, "[%s] Cannot put stale %s back into inbox/; retried after the next lease", name, file);
            return false;
        }
    }

    /** Complete data files of inbox/, oldest first, at most maxFilesPerPoll; updates the lag gauge. */
    private List<Path> readyFiles(Instant now) {
        Set<String> flags = new HashSet<>();
        List<Candidate> candidates = new ArrayList<>();
        try (DirectoryStream<Path> entries = Files.newDirectoryStream(folders.inbox())) {
            for (Path file : entries) {
                String fileName = file.getFileName().toString();
                if (fileName.startsWith(".") || fileName.endsWith(".tmp")) {
                    continue; // still being written by the convention "temporary name, then rename"
                }
                if (fileName.endsWith(".ok")) {
                    flags.add(fileName);
                    continue;
                }
                BasicFileAttributes attributes;
                try {
                    attributes = Files.readAttributes(file, BasicFileAttributes.class, LinkOption.NOFOLLOW_LINKS);
                } catch (NoSuchFileException e) {
                    continue; // claimed by another poller meanwhile
                }
                if (attributes.isRegularFile()) {
                    candidates.add(new Candidate(file, attributes.lastModifiedTime().toInstant()));
                }
            }
        } catch (IOException e) {
            LOG.errorf(e, "[%s] Cannot list %s", name, folders.inbox());
            return List.of();
        }
        metrics.oldestInboxAge(candidates.stream().map(Candidate::modified).min(Comparator.naturalOrder())
                .map(oldest -> Math.max(0, Duration.between(oldest, now).toMillis())).orElse(0L));
        return candidates.stream()
                .filter(c -> !settings.requireOkFlag() || flags.contains(c.file().getFileName() + ".ok"))
                .filter(c -> {
                    Backoff backoff = claimBackoff.get(c.file());
                    return backoff == null || !now.isBefore(backoff.nextAttempt());
                })
                .sorted(Comparator.comparing(Candidate::modified))
                .limit(settings.maxFilesPerPoll())
                .map(Candidate::file)
                .toList();
    }

    /** The atomic rename inbox → processing; the file in processing/ when this worker won it, else null. */
    private Path claim(Path file, Instant now) {
        Path target = folders.processing().resolve(file.getFileName());
        if (Files.exists(target, LinkOption.NOFOLLOW_LINKS)) {
            // A file of the same name is still being processed: a rename now would replace it.
            LOG.debugf("[%s] %s waits: processing/ holds a file of the same name", name, file.getFileName());
            return null;
        }
        try {
            Files.move(file, target, StandardCopyOption.ATOMIC_MOVE);
        } catch (NoSuchFileException e) {
            return null; // another poller won the rename: it owns the file
        } catch (IOException e) {
            Backoff backoff = Backoff.next(claimBackoff.get(file), now, settings);
            claimBackoff.put(file, backoff);
            metrics.moveFailed("processing");
            LOG.errorf(e, "[%s] Cannot claim %s (failure %d); next attempt at %s", name, file, backoff.failures(),
                    backoff.nextAttempt());
            return null;
        }
        claimBackoff.remove(file);
        claimed.incrementAndGet();
        metrics.seen();
        try {
            // The lease of processing/ counts from the claim (a rename keeps the writer's time).
            Files.setLastModifiedTime(target, FileTime.from(clock.instant()));
        } catch (IOException e) {
            LOG.warnf(e, "[%s] Cannot stamp the claim time on %s: a start-up recovery may retry it early "
                    + "(harmless: its idempotency key prevents a second order)", name, target);
        }
        if (settings.requireOkFlag()) {
            Path flag = okFlag(file);
            try {
                Files.deleteIfExists(flag);
            } catch (IOException e) {
                metrics.moveFailed("flag");
                LOG.errorf(e, "[%s] Cannot delete the flag %s: the next file of that name would be taken without "
                        + "waiting for its own flag; delete it by hand", name, flag);
            }
        }
        return target;
    }

    private void process(Path file) {
        String fileName = file.getFileName().toString();
        List<FileOrder> orders;
        try {
            long size = Files.size(file);
            if (size > settings.maxFileBytes()) {
                throw new FileRejectedException(FailureClass.FORMAT, "file too large: " + size + " bytes (limit "
                        + settings.maxFileBytes() + ", orderflow.file-queue.max-file-bytes)");
            }
            orders = parser.parse(fileName, Files.readAllBytes(file));
        } catch (FileRejectedException e) {
            moveToError(file, e.failureClass(), e, e.getMessage());
            return;
        } catch (IOException e) {
            moveToError(file, FailureClass.SYSTEM, e, "cannot read the file: " + e);
            return;
        }
        List<String> done = new ArrayList<>();
        for (FileOrder order : orders) {
            try {
                CreateResult result = creator.create(order.order(), order.idempotencyKey());
                metrics.order(result.created());
                LOG.debugf("[%s] %s: order %s %s", name, order.reference(), result.order().id(),
                        result.created() ? "created" : "existed (duplicate file)");
                done.add(order.reference() + "=" + result.order().id());
            } catch (RuntimeException e) {
                FailureClass failureClass = e instanceof IdempotencyKeyReusedException ? FailureClass.BUSINESS
                        : FailureClass.SYSTEM;
                String progress = orders.size() == 1 ? "" : "; order " + (done.size() + 1) + " of " + orders.size()
                        + (done.isEmpty() ? "; none created before it"
                                : "; created (or found) before it: " + String.join(", ", done)
                                        + " – dropping the same file into inbox/ again is safe: their idempotency "
                                        + "keys return them instead of creating them twice");
                moveToError(file, failureClass, e, "order " + order.reference() + " could not be created: " + e
                        + progress);
                return;
            }
        }
        moveOut(new PendingMove(file, folders.done(), null, null, 0, Instant.MIN));
    }

    private void moveToError(Path file, FailureClass failureClass, Throwable cause, String message) {
        String reason = "file: " + file.getFileName() + "\n"
                + "class: " + failureClass.label() + "\n"
                + "exception: " + cause.getClass().getName() + "\n"
                + "message: " + message.replace('\n', ' ') + "\n"
                + "failedAt: " + clock.instant() + "\n"
                + "worker: " + name + "\n";
        LOG.warnf("[%s] %s → error/ (%s): %s", name, file.getFileName(), failureClass.label(), message);
        moveOut(new PendingMove(file, folders.error(), reason, failureClass, 0, Instant.MIN));
    }

    /** Moves the file out of processing/; on failure remembers it and retries with a growing delay. */
    private void moveOut(PendingMove move) {
        boolean toError = move.reason() != null;
        try {
            Path target = freeName(move.targetDir(), move.file().getFileName().toString());
            if (toError) {
                Path reasonFile = target.resolveSibling(target.getFileName() + ".reason");
                Path temporary = target.resolveSibling("." + target.getFileName() + ".reason.tmp");
                Files.writeString(temporary, move.reason());
                Files.move(temporary, reasonFile, StandardCopyOption.ATOMIC_MOVE);
            }
            Files.move(move.file(), target, StandardCopyOption.ATOMIC_MOVE);
            if (pendingMoves.remove(move.file()) != null) {
                metrics.stuckChanged(-1);
                LOG.infof("[%s] %s finally moved to %s after %d failed attempts", name, move.file().getFileName(),
                        target, move.failures());
            }
            if (toError) {
                metrics.failed(move.failureClass());
            } else {
                metrics.processed();
            }
        } catch (IOException e) {
            Instant now = clock.instant();
            Backoff backoff = Backoff.next(move.failures() == 0 ? null : new Backoff(move.failures(), Instant.MIN,
                    move.delay()), now, settings);
            PendingMove retry = new PendingMove(move.file(), move.targetDir(), move.reason(), move.failureClass(),
                    backoff.failures(), backoff.nextAttempt(), backoff.delay());
            if (pendingMoves.put(move.file(), retry) == null) {
                metrics.stuckChanged(1);
            }
            metrics.moveFailed(toError ? "error" : "done");
            LOG.errorf(e, "[%s] Cannot move %s to %s (failure %d); it stays in processing/ and is NOT re-read; "
                    + "next attempt at %s", name, move.file(), move.targetDir(), backoff.failures(),
                    backoff.nextAttempt());
        }
    }

    private void retryPendingMoves(Instant now) {
        for (PendingMove move : List.copyOf(pendingMoves.values())) {
            if (!now.isBefore(move.nextAttempt())) {
                moveOut(move);
            }
        }
    }

    /** {@code dir/name}, or {@code dir/name.<UTC time>} when that exists (a same-named file went there before). */
    private Path freeName(Path dir, String fileName) {
        Path target = dir.resolve(fileName);
        String stamp = SUFFIX.format(clock.instant());
        for (int n = 0; Files.exists(target, LinkOption.NOFOLLOW_LINKS)
                || Files.exists(target.resolveSibling(target.getFileName() + ".reason"), LinkOption.NOFOLLOW_LINKS); n++) {
            target = dir.resolve(fileName + "." + stamp + (n == 0 ? "" : "-" + n));
        }
        return target;
    }

    private static Path okFlag(Path dataFile) {
        return dataFile.resolveSibling(dataFile.getFileName() + ".ok");
    }

    /** Files this worker claimed (won the rename for) since it was created. */
    public long claimed() {
        return claimed.get();
    }

    /** Files in processing/ whose move out failed and waits for its next attempt. */
    public int pendingMoves() {
        return pendingMoves.size();
    }

    public String name() {
        return name;
    }

    private record Candidate(Path file, Instant modified) {
    }

    private record PendingMove(Path file, Path targetDir, String reason, FailureClass failureClass, int failures,
            Instant nextAttempt, Duration delay) {

        PendingMove(Path file, Path targetDir, String reason, FailureClass failureClass, int failures,
                Instant nextAttempt) {
            this(file, targetDir, reason, failureClass, failures, nextAttempt, Duration.ZERO);
        }
    }

    private record Backoff(int failures, Instant nextAttempt, Duration delay) {

        /** The back-off after one more failure: initial delay, doubled per failure, capped. */
        static Backoff next(Backoff previous, Instant now, Settings settings) {
            Duration delay = previous == null ? settings.moveRetryInitialDelay() : previous.delay().multipliedBy(2);
            if (delay.compareTo(settings.moveRetryMaxDelay()) > 0) {
                delay = settings.moveRetryMaxDelay();
            }
            return new Backoff(previous == null ? 1 : previous.failures() + 1, now.plus(delay), delay);
        }
    }
}
