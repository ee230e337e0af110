package dev.orderflow.order.filequeue;

import java.io.IOException;
import java.io.UncheckedIOException;
import java.nio.file.FileStore;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.LinkedHashMap;
import java.util.Map;

/** The four folders of the file queue. {@link #open()} creates them and checks they share one filesystem. */
public record FileQueueFolders(Path inbox, Path processing, Path done, Path error) {

    public static FileQueueFolders of(FileQueueConfig config) {
        Path root = config.root();
        return new FileQueueFolders(
                config.inboxDir().orElse(root.resolve("inbox")),
                config.processingDir().orElse(root.resolve("processing")),
                config.doneDir().orElse(root.resolve("done")),
                config.errorDir().orElse(root.resolve("error")));
    }

    public static FileQueueFolders under(Path root) {
        return new FileQueueFolders(root.resolve("inbox"), root.resolve("processing"), root.resolve("done"),
                root.resolve("error"));
    }

    /**
     * Creates the folders when missing and checks that all four are on one filesystem: a rename
     * is atomic (the claim of a file) only inside one filesystem; across filesystems a move is a
     * copy plus delete, and two instances could both take the same file.
     *
     * @throws IllegalStateException when they are on different filesystems
     * @throws UncheckedIOException when a folder cannot be created or examined
     */
    public FileQueueFolders open() {
        Map<String, Path> folders = new LinkedHashMap<>();
        folders.put("inbox", inbox);
        folders.put("processing", processing);
        folders.put("done", done);
        folders.put("error", error);
        Map<String, FileStore> stores = new LinkedHashMap<>();
        for (Map.Entry<String, Path> folder : folders.entrySet()) {
            try {
                Files.createDirectories(folder.getValue());
                stores.put(folder.getKey(), Files.getFileStore(folder.getValue()));
            } catch (IOException e) {
                throw new UncheckedIOException("File queue folder " + folder.getKey() + " (" + folder.getValue()
                        + ") cannot be created or examined", e);
            }
        }
        FileStore inboxStore = stores.get("inbox");
        for (Map.Entry<String, FileStore> store : stores.entrySet()) {
            if (!store.getValue().equals(inboxStore)) {
                StringBuilder where = new StringBuilder();
                stores.forEach((name, s) -> where.append("\n  ").append(name).append(": ").append(folders.get(name))
                        .append(" on ").append(s));
                throw new IllegalStateException("File queue refuses to start: its folders must all be on one "
                        + "filesystem (a rename between filesystems is a copy plus delete, not atomic, so two "
                        + "instances could take the same file), but " + store.getKey() + " is not on the filesystem "
                        + "of inbox:" + where + "\nPut all four under one mount (orderflow.file-queue.root).");
            }
        }
        return this;
    }
}
