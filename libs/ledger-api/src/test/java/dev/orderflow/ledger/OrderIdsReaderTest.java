package dev.orderflow.ledger;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import java.nio.charset.StandardCharsets;

import org.junit.jupiter.api.Test;

import dev.orderflow.rest.problem.ProblemException;

class OrderIdsReaderTest {

    @Test
    void readsAnArrayOfStrings() {
        assertThat(OrderIdsReader.parse(bytes("[\"A\", \"B\", \"\\ud83d\\ude00\"]"))).containsExactly("A", "B", "\ud83d\ude00");
        assertThat(OrderIdsReader.parse(bytes(" "))).isNull();
        assertThat(OrderIdsReader.parse(bytes("null"))).isNull();
    }

    @Test
    void refusesEveryOtherShapeNamingTheField() {
        for (String body : new String[] { "[7]", "[true]", "{}", "\"A\"", "[[\"A\"]]", "[{}]" }) {
            assertThatThrownBy(() -> OrderIdsReader.parse(bytes(body))).as(body)
                    .isInstanceOfSatisfying(ProblemException.class,
                            e -> assertThat(e.problem().errors().get(0).field()).isEqualTo("orderIds"));
        }
        for (String body : new String[] { "[\"A\"] x", "[\"A\"", "['A']", "[\"A\",]" }) {
            assertThatThrownBy(() -> OrderIdsReader.parse(bytes(body))).as(body)
                    .isInstanceOfSatisfying(ProblemException.class,
                            e -> assertThat(e.problem().errors().get(0).field()).isEqualTo("body"));
        }
        for (String body : new String[] { "[\"a\\u0000b\"]", "[\"x\\ud800\"]", "[\"\\udc00y\"]" }) {
            assertThatThrownBy(() -> OrderIdsReader.parse(bytes(body))).as(body)
                    .isInstanceOfSatisfying(ProblemException.class,
                            e -> assertThat(e.problem().errors().get(0).field()).isEqualTo("orderIds"));
        }
        assertThatThrownBy(() -> OrderIdsReader.parse(new byte[] { '[', '"', (byte) 0xFF, '"', ']' }))
                .isInstanceOfSatisfying(ProblemException.class,
                        e -> assertThat(e.problem().errors().get(0).field()).isEqualTo("body"));
    }

    private static byte[] bytes(String text) {
        return text.getBytes(StandardCharsets.UTF_8);
    }
}
