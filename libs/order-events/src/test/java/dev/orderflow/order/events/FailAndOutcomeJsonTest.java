package dev.orderflow.order.events;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import java.math.BigDecimal;
import java.time.Instant;
import java.util.List;

import org.junit.jupiter.api.Test;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.CsvSource;

/** The fail event and the order outcome: JSON both ways, and what a strict reader refuses. */
class FailAndOutcomeJsonTest {

    private static final Instant AT = Instant.parse("2026-12-06T10:15:30.123Z");
    private static final OrderFailure SHORT_STOCK = new OrderFailure("inventory", "business",
            "insufficient stock for SKU-1: 2 requested, 1 available");

    @Test
    void aFailEventCarriesItsFailureAndReadsBackEqual() {
        OrderEvent fail = OrderEvent.failed("O-1", "C-1", "+819012345678",
                List.of(new OrderItem("SKU-1", 2, new BigDecimal("12.50"))), SHORT_STOCK, AT);

        String json = OrderEventJson.toJson(fail);

        assertThat(json).contains("\"eventType\":\"fail\"").contains("\"failure\":{\"consumer\":\"inventory\","
                + "\"failureClass\":\"business\",\"reason\":\"insufficient stock for SKU-1: 2 requested, 1 available\"}");
        assertThat(OrderEventParser.parse(json)).isEqualTo(fail);
        assertThat(fail.messageKey()).isEqualTo("O-1:fail");
        assertThat(fail.tag()).isEqualTo("fail");
    }

    @Test
    void createAndCancelCarryNoFailureAndIgnoreOne() {
        OrderEvent create = OrderEvent.of(OrderEventType.CREATE, "O-1", "C-1", "+819012345678",
                List.of(new OrderItem("SKU-1", 1, new BigDecimal("1.00"))), AT);
        String json = OrderEventJson.toJson(create);
        assertThat(json).doesNotContain("failure");

        String withFailure = json.replace("}", ",\"failure\":{\"consumer\":\"inventory\"}}");
        assertThat(OrderEventParser.parse(withFailure)).isEqualTo(create);
        assertThatThrownBy(() -> new OrderEvent(1, OrderEventType.CANCEL, "O-1", "C-1", "+81", create.items(),
                create.amount(), AT, SHORT_STOCK)).isInstanceOf(IllegalArgumentException.class);
    }

    /** Each row: a replacement applied to a valid fail event, the field the error must name, a word of the reason. */
    @ParameterizedTest(name = "{2}: {3}")
    @CsvSource(delimiter = '|', value = {
            ",\"failure\":{\"consumer\":\"inventory\",\"failureClass\":\"business\",\"reason\":\"short\"}||failure|missing",
            "\"consumer\":\"inventory\"|\"consumer\":\"Inventory Service\"|failure.consumer|consumer name",
            "\"failureClass\":\"business\"|\"failureClass\":\"fatal\"|failure.failureClass|one of",
            "\"reason\":\"short\"|\"reason\":\" \"|failure.reason|blank",
            "{\"consumer\":\"inventory\",\"failureClass\":\"business\",\"reason\":\"short\"}|\"short\"|failure|object",
    })
    void aFailEventWithoutAValidFailureIsRefused(String find, String replace, String field, String reasonWord) {
        String valid = """
                {"schemaVersion":1,"eventType":"fail","orderId":"O-1","customerId":"C-1","phone":"+819012345678",
                 "items":[{"sku":"SKU-1","quantity":2,"unitPrice":"12.50"}],"amount":"25.00",
                 "occurredAt":"2025-03-01T10:15:30.123Z",\
                "failure":{"consumer":"inventory","failureClass":"business","reason":"short"}}""";
        assertThat(OrderEventParser.parse(valid).failure()).isEqualTo(new OrderFailure("inventory", "business", "short"));
        String body = valid.replace(find, replace == null ? "" : replace);
        assertThat(body).as("test row must change the body").isNotEqualTo(valid);

        assertThatThrownBy(() -> OrderEventParser.parse(body))
                .isInstanceOfSatisfying(InvalidOrderEventException.class, e -> {
                    assertThat(e.field()).isEqualTo(field);
                    assertThat(e.reason()).contains(reasonWord);
                });
    }

    @Test
    void outcomesReadBackEqualWithTheirKeysAndTags() {
        for (OrderOutcome outcome : List.of(OrderOutcome.completed("O-1", AT), OrderOutcome.cancelled("O-2", AT),
                OrderOutcome.failed("O-3", SHORT_STOCK, AT))) {
            String json = OrderOutcomeJson.toJson(outcome);
            assertThat(OrderOutcomeJson.parse(json)).isEqualTo(outcome);
            assertThat(outcome.messageKey()).isEqualTo(outcome.orderId() + ":" + outcome.tag());
        }
        assertThat(OrderOutcomeJson.toJson(OrderOutcome.completed("O-1", AT)))
                .isEqualTo("{\"schemaVersion\":1,\"orderId\":\"O-1\",\"outcome\":\"completed\","
                        + "\"reachedAt\":\"2026-12-06T10:15:30.123Z\"}");
        assertThat(OrderOutcomeJson.parse("{\"schemaVersion\":1,\"orderId\":\"O-1\",\"outcome\":\"completed\","
                + "\"reachedAt\":\"2026-12-06T10:15:30.123Z\",\"addedLater\":true}"))
                .isEqualTo(OrderOutcome.completed("O-1", AT));
    }

    @ParameterizedTest(name = "{1}: {2}")
    @CsvSource(delimiter = '|', value = {
            "{\"schemaVersion\":2,\"orderId\":\"O-1\",\"outcome\":\"completed\",\"reachedAt\":\"2026-12-06T10:15:30Z\"}|schemaVersion|unsupported",
            "{\"schemaVersion\":1,\"orderId\":\"O:1\",\"outcome\":\"completed\",\"reachedAt\":\"2026-12-06T10:15:30Z\"}|orderId|contain",
            "{\"schemaVersion\":1,\"orderId\":\"O-1\",\"outcome\":\"shipped\",\"reachedAt\":\"2026-12-06T10:15:30Z\"}|outcome|completed, failed or cancelled",
            "{\"schemaVersion\":1,\"orderId\":\"O-1\",\"outcome\":\"failed\",\"reachedAt\":\"2026-12-06T10:15:30Z\"}|failure|missing",
            "{\"schemaVersion\":1,\"orderId\":\"O-1\",\"outcome\":\"completed\"}|reachedAt|missing",
            "[]|$|not a JSON object",
    })
    void anInvalidOutcomeNamesItsField(String body, String field, String reasonWord) {
        assertThatThrownBy(() -> OrderOutcomeJson.parse(body))
                .isInstanceOfSatisfying(InvalidOrderEventException.class, e -> {
                    assertThat(e.field()).isEqualTo(field);
                    assertThat(e.reason()).contains(reasonWord);
                });
    }
}
