package dev.orderflow.order.events;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import java.math.BigDecimal;
import java.time.Instant;

import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.CsvSource;
import org.junit.jupiter.api.Test;

class OrderEventParserTest {

    private static final String VALID = """
            {"schemaVersion":1,"eventType":"create","orderId":"O-1","customerId":"C-1","phone":"+819012345678",
             "items":[{"sku":"SKU-1","quantity":2,"unitPrice":"12.50"}],"amount":"25.00",
             "occurredAt":"2025-03-01T10:15:30.123Z","addedLater":"ignored"}""";

    @Test
    void parsesAValidBodyAndIgnoresUnknownFields() {
        OrderEvent event = OrderEventParser.parse(VALID);

        assertThat(event.eventType()).isEqualTo(OrderEventType.CREATE);
        assertThat(event.orderId()).isEqualTo("O-1");
        assertThat(event.items()).containsExactly(new OrderItem("SKU-1", 2, new BigDecimal("12.50")));
        assertThat(event.amount()).isEqualTo(new BigDecimal("25.00"));
        assertThat(event.occurredAt()).isEqualTo(Instant.parse("2025-03-01T10:15:30.123Z"));
        assertThat(event.messageKey()).isEqualTo("O-1:create");
    }

    /** Each row: a replacement applied to the valid body, the field the error must name, a word of the reason. */
    @ParameterizedTest(name = "{1}: {2}")
    @CsvSource(delimiter = '|', value = {
            "\"schemaVersion\":1,||schemaVersion|missing",
            "\"schemaVersion\":1|\"schemaVersion\":2|schemaVersion|unsupported",
            "\"schemaVersion\":1|\"schemaVersion\":\"1\"|schemaVersion|integer",
            "\"eventType\":\"create\"|\"eventType\":\"refund\"|eventType|create, cancel or fail",
            "\"orderId\":\"O-1\",||orderId|missing",
            "\"orderId\":\"O-1\"|\"orderId\":\"  \"|orderId|blank",
            "\"orderId\":\"O-1\"|\"orderId\":\"O:1\"|orderId|contain",
            "\"customerId\":\"C-1\"|\"customerId\":7|customerId|string",
            "\"phone\":\"+819012345678\",||phone|missing",
            "[{\"sku\":\"SKU-1\",\"quantity\":2,\"unitPrice\":\"12.50\"}]|[]|items|empty",
            "[{\"sku\":\"SKU-1\",\"quantity\":2,\"unitPrice\":\"12.50\"}]|{}|items|array",
            "\"sku\":\"SKU-1\",||items[0].sku|missing",
            "\"quantity\":2|\"quantity\":0|items[0].quantity|at least 1",
            "\"quantity\":2|\"quantity\":2.5|items[0].quantity|integer",
            "\"unitPrice\":\"12.50\"|\"unitPrice\":12.50|items[0].unitPrice|string",
            "\"unitPrice\":\"12.50\"|\"unitPrice\":\"-1.00\"|items[0].unitPrice|negative",
            "\"unitPrice\":\"12.50\"|\"unitPrice\":\"12.505\"|items[0].unitPrice|two decimals",
            "\"unitPrice\":\"12.50\"|\"unitPrice\":\"twelve\"|items[0].unitPrice|decimal",
            "\"amount\":\"25.00\"|\"amount\":\"24.00\"|amount|add up to 25.00",
            "\"amount\":\"25.00\",||amount|missing",
            "\"occurredAt\":\"2025-03-01T10:15:30.123Z\"|\"occurredAt\":\"yesterday\"|occurredAt|ISO-8601",
    })
    void namesTheInvalidField(String find, String replace, String field, String reasonWord) {
        String body = VALID.replace(find, replace == null ? "" : replace);
        assertThat(body).as("test row must change the body").isNotEqualTo(VALID);

        assertThatThrownBy(() -> OrderEventParser.parse(body))
                .isInstanceOfSatisfying(InvalidOrderEventException.class, e -> {
                    assertThat(e.field()).isEqualTo(field);
                    assertThat(e.reason()).contains(reasonWord);
                });
    }

    @ParameterizedTest
    @CsvSource(delimiter = '|', value = { "not json at all|not JSON", "[1,2]|not a JSON object", "''|empty body",
            "{\"schemaVersion\":1|not JSON" })
    void rejectsBodiesThatAreNotAnObject(String body, String reasonWord) {
        assertThatThrownBy(() -> OrderEventParser.parse(body))
                .isInstanceOfSatisfying(InvalidOrderEventException.class, e -> {
                    assertThat(e.field()).isEqualTo(InvalidOrderEventException.WHOLE_BODY);
                    assertThat(e.reason()).contains(reasonWord);
                });
    }
}
