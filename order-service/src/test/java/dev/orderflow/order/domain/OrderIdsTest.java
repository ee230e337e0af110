package dev.orderflow.order.domain;

import static org.assertj.core.api.Assertions.assertThat;

import java.util.ArrayList;
import java.util.HashSet;
import java.util.List;

import org.junit.jupiter.api.Test;

class OrderIdsTest {

    @Test
    void idsAreUniqueStrictlyIncreasingUlids() {
        OrderIds ids = new OrderIds();
        List<String> generated = new ArrayList<>();
        for (int i = 0; i < 20_000; i++) {
            generated.add(ids.next());
        }

        assertThat(new HashSet<>(generated)).hasSize(generated.size());
        assertThat(generated).isSorted();
        assertThat(generated).allSatisfy(id -> assertThat(id).matches("[0-9A-HJKMNP-TV-Z]{26}"));
    }

    @Test
    void encodesTimeFirstThenRandomness() {
        assertThat(OrderIds.encode(0, 0, 0)).isEqualTo("00000000000000000000000000");
        assertThat(OrderIds.encode(1, 0, 1)).isEqualTo("00000000010000000000000001");
        assertThat(OrderIds.encode(0, 0xFFFF, -1L)).isEqualTo("0000000000ZZZZZZZZZZZZZZZZ");
        assertThat(OrderIds.encode(1_700_000_000_000L, 0, 0).substring(0, 10))
                .isLessThan(OrderIds.encode(1_700_000_000_001L, 0, 0).substring(0, 10));
    }
}
