package dev.orderflow.order.events;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import java.time.Instant;

import org.junit.jupiter.api.Test;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.CsvSource;

class ConsumerReportParserTest {

    private static final Instant AT = Instant.parse("2025-03-01T10:15:30.123Z");

    private static final String DEAD_LETTERED = """
            {"schemaVersion":1,"orderId":"O-1","eventType":"create","consumer":"inventory","outcome":"DEAD_LETTERED",
             "failureClass":"business","reason":"unknown SKU SKU-9","occurredAt":"2025-03-01T10:15:30.123Z","later":1}""";

    @Test
    void everyOutcomeSurvivesARoundTrip() {
        for (ConsumerReport report : new ConsumerReport[] {
                ConsumerReport.done("O-1", OrderEventType.CREATE, ConsumerReports.INVENTORY, AT),
                ConsumerReport.rejected("O-1", OrderEventType.CREATE, ConsumerReports.INVENTORY, "insufficient stock", AT),
                ConsumerReport.deadLettered("O-1", OrderEventType.CANCEL, ConsumerReports.POINTS, "format", "not JSON", AT) }) {
            assertThat(ConsumerReportParser.parse(ConsumerReportJson.toJson(report))).isEqualTo(report);
        }
    }

    @Test
    void writesTheDocumentedShapeWithNullsAndKey() {
        ConsumerReport report = ConsumerReport.done("O-1", OrderEventType.CANCEL, ConsumerReports.SMS, AT);

        assertThat(ConsumerReportJson.toJson(report)).isEqualTo("{\"schemaVersion\":1,\"orderId\":\"O-1\","
                + "\"eventType\":\"cancel\",\"consumer\":\"sms\",\"outcome\":\"DONE\",\"failureClass\":null,"
                + "\"reason\":null,\"occurredAt\":\"2025-03-01T10:15:30.123Z\"}");
        assertThat(report.messageKey()).isEqualTo("O-1:cancel:sms");
        assertThat(report.tag()).isEqualTo("sms");
    }

    @Test
    void parsesADeadLetteredReportAndIgnoresUnknownFields() {
        ConsumerReport report = ConsumerReportParser.parse(DEAD_LETTERED);

        assertThat(report).isEqualTo(ConsumerReport.deadLettered("O-1", OrderEventType.CREATE, "inventory", "business",
                "unknown SKU SKU-9", AT));
    }

    /** Each row: a replacement applied to the valid body, the field the error must name, a word of the reason. */
    @ParameterizedTest(name = "{2}: {3}")
    @CsvSource(delimiter = '|', value = {
            "\"schemaVersion\":1,||schemaVersion|missing",
            "\"schemaVersion\":1|\"schemaVersion\":2|schemaVersion|unsupported",
            "\"orderId\":\"O-1\"|\"orderId\":\"O:1\"|orderId|contain",
            "\"orderId\":\"O-1\"|\"orderId\":\" \"|orderId|blank",
            "\"eventType\":\"create\"|\"eventType\":\"refund\"|eventType|create, cancel or fail",
            "\"consumer\":\"inventory\"|\"consumer\":\"Inventory\"|consumer|lower-case",
            "\"consumer\":\"inventory\",||consumer|missing",
            "\"outcome\":\"DEAD_LETTERED\"|\"outcome\":\"done\"|outcome|DONE, REJECTED",
            "\"failureClass\":\"business\"|\"failureClass\":\"oops\"|failureClass|format, business or system",
            "\"failureClass\":\"business\"|\"failureClass\":7|failureClass|string",
            "\"reason\":\"unknown SKU SKU-9\"|\"reason\":null|reason|required",
            "\"occurredAt\":\"2025-03-01T10:15:30.123Z\"|\"occurredAt\":\"now\"|occurredAt|ISO-8601",
    })
    void namesTheInvalidField(String find, String replace, String field, String reasonWord) {
        String body = DEAD_LETTERED.replace(find, replace == null ? "" : replace);
        assertThat(body).as("test row must change the body").isNotEqualTo(DEAD_LETTERED);

        assertThatThrownBy(() -> ConsumerReportParser.parse(body))
                .isInstanceOfSatisfying(InvalidConsumerReportException.class, e -> {
                    assertThat(e.field()).isEqualTo(field);
                    assertThat(e.getMessage()).contains(reasonWord);
                });
    }

    @Test
    void outcomesRejectFieldsThatDoNotBelongToThem() {
        assertThatThrownBy(() -> ConsumerReportParser.parse(DEAD_LETTERED.replace("DEAD_LETTERED", "DONE")))
                .isInstanceOfSatisfying(InvalidConsumerReportException.class,
                        e -> assertThat(e.field()).isEqualTo("failureClass"));
        assertThatThrownBy(() -> ConsumerReport.rejected("O-1", OrderEventType.CREATE, "inventory", " ", AT))
                .isInstanceOf(IllegalArgumentException.class).hasMessageContaining("reason");
        assertThatThrownBy(() -> ConsumerReportParser.parse("[1]"))
                .isInstanceOfSatisfying(InvalidConsumerReportException.class, e -> assertThat(e.field()).isEqualTo("$"));
    }
}
