package dev.orderflow.rest.problem;

import static org.assertj.core.api.Assertions.assertThat;

import java.sql.SQLException;
import java.sql.SQLNonTransientConnectionException;
import java.sql.SQLTransientConnectionException;

import jakarta.persistence.PersistenceException;
import jakarta.ws.rs.core.Response;

import org.junit.jupiter.api.Test;

import com.fasterxml.jackson.databind.ObjectMapper;


/**
 * The shared mappers' answers to unexpected errors and the database-outage rule they share with
 * the services' own mappers, with the SQL errors MariaDB Connector/J and Agroal throw. No
 * application runs: the services' REST tests cover the mappers in place.
 */
class ProblemMappersTest {

    private final ProblemMappers mappers = new ProblemMappers(new ObjectMapper());

    @Test
    void refusedConnectionIs503DatabaseUnavailableWithRetryAfter() {
        Response response = mappers.unexpected(new RuntimeException("could not open connection",
                new SQLNonTransientConnectionException("Socket fail to connect", "08000")));

        assertThat(response.getStatus()).isEqualTo(503);
        assertThat(response.getHeaderString("Retry-After")).isEqualTo(String.valueOf(ProblemMappers.RETRY_AFTER_SECONDS));
        assertThat(response.getMediaType().toString()).isEqualTo(Problem.MEDIA_TYPE);
        assertThat((String) response.getEntity())
                .isEqualTo("{\"type\":\"https://orderflow.dev/problems/database-unavailable\",\"title\":\"Database "
                        + "unavailable\",\"status\":503,\"detail\":\"The database is unavailable; nothing was written. "
                        + "Retry later.\"}");
    }

    @Test
    void poolAcquisitionTimeoutIsAnOutage() {
        assertThat(DatabaseErrors.isUnavailable(new SQLException("Sorry, acquisition timeout!"))).isTrue();
        assertThat(DatabaseErrors.isUnavailable(
                new RuntimeException(new SQLException("Acquisition timeout while waiting for new connection")))).isTrue();
    }

    @Test
    void connectionStateClassAnywhereInTheChainIsAnOutage() {
        assertThat(DatabaseErrors.isUnavailable(new IllegalStateException("wrapped",
                new RuntimeException(new SQLException("Communications link failure", "08S01"))))).isTrue();
        assertThat(DatabaseErrors.isUnavailable(new SQLTransientConnectionException("pool closed"))).isTrue();
    }

    /**
     * Connector/J throws SQLTransientConnectionException for SQLState classes it does not know, such
     * as a trigger's SIGNAL (45000), and Hibernate wraps it in a PersistenceException: the
     * statement failed, the database is up, so the answer is a 500 without Retry-After.
     */
    @Test
    void signalledErrorIsNotAnOutageEvenAsATransientConnectionException() {
        SQLTransientConnectionException signal = new SQLTransientConnectionException("forced insert failure", "45000",
                1644);
        Throwable wrapped = new PersistenceException("could not execute statement [forced insert failure]", signal);

        assertThat(DatabaseErrors.isUnavailable(wrapped)).isFalse();
        Response response = mappers.unexpected(wrapped);
        assertThat(response.getStatus()).isEqualTo(500);
        assertThat(response.getHeaderString("Retry-After")).isNull();
        assertThat((String) response.getEntity()).contains("/problems/internal-error")
                .doesNotContain("forced insert failure").doesNotContain("PersistenceException");
    }

    @Test
    void constraintViolationIsNotAnOutage() {
        assertThat(DatabaseErrors.isUnavailable(
                new java.sql.SQLIntegrityConstraintViolationException("Duplicate entry", "23000", 1062))).isFalse();
    }
}
