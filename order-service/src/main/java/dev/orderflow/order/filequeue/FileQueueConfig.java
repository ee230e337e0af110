package dev.orderflow.order.filequeue;

import java.nio.file.Path;
import java.time.Duration;
import java.util.Optional;

import io.smallrye.config.ConfigMapping;
import io.smallrye.config.WithDefault;

/**
 * The file queue, under {@code orderflow.file-queue} (documented in application.properties and
 * order-service/README.md).
 */
@ConfigMapping(prefix = "orderflow.file-queue")
public interface FileQueueConfig {

    /** Off by default: the service polls nothing unless this is true. */
    @WithDefault("false")
    boolean enabled();

    /** Root folder holding {@code inbox/}, {@code processing/}, {@code done/} and {@code error/}. */
    @WithDefault("/data/orderflow/file-queue")
    Path root();

    /** Overrides {@code <root>/inbox}. */
    Optional<Path> inboxDir();

    /** Overrides {@code <root>/processing}. */
    Optional<Path> processingDir();

    /** Overrides {@code <root>/done}. */
    Optional<Path> doneDir();

    /** Overrides {@code <root>/error}. */
    Optional<Path> errorDir();

    /**
     * True: a data file is read only once {@code <name>.ok} exists next to it (the flag is deleted
     * when the file is claimed). False: every file is taken except {@code *.tmp} and dot-files.
     */
    @WithDefault("false")
    boolean requireOkFlag();

    /** Pause between two polls of one poller thread. */
    @WithDefault("PT1S")
    Duration pollEvery();

    /** Most files one poller thread claims per poll (bounded work per tick). */
    @WithDefault("100")
    int maxFilesPerPoll();

    /** Poller threads of this instance; each claims files on its own, like a separate instance. */
    @WithDefault("1")
    int threads();

    /**
     * A file that sits in {@code processing/} longer than this (since it was claimed) belongs to
     * a crashed poller and is put back into {@code inbox/}: at start-up and then every lease.
     */
    @WithDefault("PT10M")
    Duration processingLease();

    /** Larger files go to {@code error/} unread. */
    @WithDefault("10485760")
    long maxFileBytes();

    /** Back-off of a failed move to {@code done/} or {@code error/}: first delay, doubled per failure up to max-delay. */
    MoveRetry moveRetry();

    interface MoveRetry {
        /** Delay after the first failed move. */
        @WithDefault("PT1S")
        Duration initialDelay();

        /** Largest delay between two attempts. */
        @WithDefault("PT5M")
        Duration maxDelay();
    }
}
