package dev.orderflow.consumer.testing;

import java.io.IOException;
import java.io.UncheckedIOException;
import java.util.Map;

import io.quarkus.test.common.QuarkusTestResourceLifecycleManager;

/**
 * Puts a {@link DatabaseLink} between the application under test and MariaDB at 127.0.0.1:3306.
 * Init arg {@code database}: the test database name. Sets {@code quarkus.datasource.jdbc.url} to
 * the link and {@value CommittedState#DIRECT_URL} to the server itself.
 *
 * <pre>{@code @QuarkusTestResource(value = DatabaseLinkResource.class,
 *         initArgs = @ResourceArg(name = "database", value = "orderflow_inventory_test"))}</pre>
 */
public class DatabaseLinkResource implements QuarkusTestResourceLifecycleManager {

    private static volatile DatabaseLink link;
    private String database;

    @Override
    public void init(Map<String, String> initArgs) {
        database = initArgs.get("database");
        if (database == null || database.isBlank()) {
            throw new IllegalArgumentException("DatabaseLinkResource needs the init arg 'database'");
        }
    }

    @Override
    public Map<String, String> start() {
        try {
            link = new DatabaseLink("127.0.0.1", 3306);
        } catch (IOException e) {
            throw new UncheckedIOException("Cannot open the database link", e);
        }
        return Map.of("quarkus.datasource.jdbc.url", link.jdbcUrl(database),
                CommittedState.DIRECT_URL, "jdbc:mariadb://127.0.0.1:3306/" + database);
    }

    @Override
    public void stop() {
        DatabaseLink current = link;
        if (current != null) {
            try {
                current.close();
            } catch (IOException e) {
                throw new UncheckedIOException("Cannot close the database link", e);
            }
        }
    }

    /** The link of the running test application. */
    public static DatabaseLink link() {
        if (link == null) {
            throw new IllegalStateException("No DatabaseLinkResource is active");
        }
        return link;
    }
}
