package dev.orderflow.order.filequeue;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.UUID;

import org.junit.jupiter.api.Assumptions;
import org.junit.jupiter.api.Test;

/** The start-up check: all four folders on one filesystem, else a clear refusal. */
class FileQueueFoldersTest {

    private static final Path TARGET = Path.of("target", "file-queue-folders-" + UUID.randomUUID()).toAbsolutePath();

    @Test
    void createsTheFoldersOnOneFilesystem() {
        FileQueueFolders folders = FileQueueFolders.under(TARGET.resolve("same")).open();

        assertThat(folders.inbox()).isDirectory();
        assertThat(folders.processing()).isDirectory();
        assertThat(folders.done()).isDirectory();
        assertThat(folders.error()).isDirectory();
    }

    @Test
    void refusesFoldersOnDifferentFilesystems() throws IOException {
        Path shm = Path.of("/dev/shm");
        Files.createDirectories(TARGET);
        Assumptions.assumeTrue(Files.isDirectory(shm) && Files.isWritable(shm),
                "skipped: no /dev/shm on this machine, so no second filesystem to test against");
        Assumptions.assumeFalse(Files.getFileStore(shm).equals(Files.getFileStore(TARGET)),
                "skipped: /dev/shm and target/ are on the same filesystem here");
        Path elsewhere = shm.resolve("orderflow-file-queue-test-" + UUID.randomUUID());
        try {
            FileQueueFolders folders = new FileQueueFolders(TARGET.resolve("mixed/inbox"),
                    TARGET.resolve("mixed/processing"), elsewhere, TARGET.resolve("mixed/error"));

            assertThatThrownBy(folders::open)
                    .isInstanceOf(IllegalStateException.class)
                    .hasMessageContaining("one filesystem")
                    .hasMessageContaining("done is not on the filesystem of inbox")
                    .hasMessageContaining(elsewhere.toString());
        } finally {
            Files.deleteIfExists(elsewhere);
        }
    }
}
