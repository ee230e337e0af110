package dev.orderflow.ledger;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import java.time.Instant;
import java.util.ArrayList;
import java.util.Collections;
import java.util.List;

import org.junit.jupiter.api.Test;

import dev.orderflow.rest.problem.FieldError;
import dev.orderflow.rest.problem.ProblemException;

class LedgerRequestsTest {

    @Test
    void readsAWindow() {
        assertThat(LedgerRequests.window("2026-01-01T00:00:00Z", "2026-01-02T00:00:00Z", "10"))
                .isEqualTo(new LedgerRequests.Window(Instant.parse("2026-01-01T00:00:00Z"),
                        Instant.parse("2026-01-02T00:00:00Z"), 10));
    }

    @Test
    void namesEveryBadField() {
        assertThatThrownBy(() -> LedgerRequests.window(null, "yesterday", "0"))
                .isInstanceOfSatisfying(ProblemException.class, e -> assertThat(e.problem().status()).isEqualTo(400))
                .satisfies(e -> assertThat(fields((ProblemException) e)).containsExactly("from", "to", "limit"));
        assertThatThrownBy(() -> LedgerRequests.window("2026-01-02T00:00:00Z", "2026-01-01T00:00:00Z",
                Integer.toString(LedgerLimits.MAX_PAGE + 1)))
                .satisfies(e -> assertThat(fields((ProblemException) e)).containsExactly("to", "limit"));
    }

    @Test
    void aLimitThatIsNoNumberAndInstantsNoColumnHoldsAreRefused() {
        assertThatThrownBy(() -> LedgerRequests.window("2026-01-01T00:00:00Z", "2026-01-02T00:00:00Z", "ten"))
                .satisfies(e -> assertThat(fields((ProblemException) e)).containsExactly("limit"));
        assertThatThrownBy(() -> LedgerRequests.window("-1000000000-01-01T00:00:00Z", "+10000-01-01T00:00:00Z", "1"))
                .satisfies(e -> assertThat(fields((ProblemException) e)).containsExactly("from", "to"));
        assertThat(LedgerRequests.window(LedgerRequests.EARLIEST.toString(), LedgerRequests.LATEST.toString(), " 7 ")
                .limit()).isEqualTo(7);
    }

    @Test
    void boundsTheIds() {
        assertThat(LedgerRequests.orderIds(List.of("a", "b"))).containsExactly("a", "b");
        assertThatThrownBy(() -> LedgerRequests.orderIds(List.of())).isInstanceOf(ProblemException.class);
        assertThatThrownBy(() -> LedgerRequests.orderIds(null)).isInstanceOf(ProblemException.class);
        assertThatThrownBy(() -> LedgerRequests.orderIds(Collections.nCopies(LedgerLimits.MAX_IDS + 1, "a")))
                .isInstanceOf(ProblemException.class);
        List<String> withNull = new ArrayList<>(List.of("a"));
        withNull.add(null);
        assertThatThrownBy(() -> LedgerRequests.orderIds(withNull)).isInstanceOf(ProblemException.class);
        assertThatThrownBy(() -> LedgerRequests.orderIds(List.of(" "))).isInstanceOf(ProblemException.class);
        assertThat(LedgerRequests.orderIds(List.of("x".repeat(LedgerLimits.MAX_ID_LENGTH)))).hasSize(1);
        assertThatThrownBy(() -> LedgerRequests.orderIds(List.of("x".repeat(LedgerLimits.MAX_ID_LENGTH + 1))))
                .isInstanceOf(ProblemException.class);
    }

    private static List<String> fields(ProblemException e) {
        return e.problem().errors().stream().map(FieldError::field).toList();
    }
}
