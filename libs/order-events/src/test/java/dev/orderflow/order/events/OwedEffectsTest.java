package dev.orderflow.order.events;

import static dev.orderflow.order.events.OwedEffects.Consumer.INVENTORY;
import static dev.orderflow.order.events.OwedEffects.Consumer.POINTS;
import static dev.orderflow.order.events.OwedEffects.Consumer.SMS;
import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.tuple;

import java.math.BigDecimal;
import java.util.List;
import java.util.Map;

import org.junit.jupiter.api.Test;

import dev.orderflow.order.events.OwedEffects.Effect;
import dev.orderflow.order.events.OwedEffects.Order;

class OwedEffectsTest {

    private static final BigDecimal RATE = BigDecimal.ONE;
    private static final Map<String, Long> LINES = Map.of("SKU-2", 1L, "SKU-1", 3L);

    private static List<Effect> owed(OwedEffects.Consumer consumer, String status, boolean createRejected) {
        return OwedEffects.owedBy(consumer, new Order(new BigDecimal("12.75"), status, LINES), createRejected, RATE);
    }

    @Test
    void aCompletedOrderOwesADeductPerSkuItsCreditAndItsConfirmation() {
        assertThat(owed(INVENTORY, "COMPLETED", false)).extracting(Effect::kind, Effect::subject, Effect::amount,
                Effect::answers).containsExactly(tuple("DEDUCT", "SKU-1", 3L, OrderEventType.CREATE),
                        tuple("DEDUCT", "SKU-2", 1L, OrderEventType.CREATE));
        assertThat(owed(POINTS, "COMPLETED", false)).containsExactly(
                new Effect("ORDER_CREDIT", "", 12, OrderEventType.CREATE));
        assertThat(owed(SMS, "CREATED", false)).containsExactly(new Effect("CREATE", "", 1, OrderEventType.CREATE));
    }

    @Test
    void aCancelledOrderOwesEachEffectUndoneOnce() {
        assertThat(owed(INVENTORY, "CANCELLED", false)).extracting(Effect::key, Effect::amount, Effect::answers)
                .containsExactly(tuple("DEDUCT SKU-1", 3L, OrderEventType.CREATE),
                        tuple("RESTORE SKU-1", 3L, OrderEventType.CANCEL),
                        tuple("DEDUCT SKU-2", 1L, OrderEventType.CREATE),
                        tuple("RESTORE SKU-2", 1L, OrderEventType.CANCEL));
        assertThat(owed(POINTS, "CANCELLED", false)).extracting(Effect::kind, Effect::amount)
                .containsExactly(tuple("ORDER_CREDIT", 12L), tuple("ORDER_REVERSAL", -12L));
        assertThat(owed(SMS, "CANCELLED", false)).extracting(Effect::kind).containsExactly("CREATE", "CANCEL");
    }

    @Test
    void aFailedOrderIsCompensatedAndGetsAFailureTextEvenFromAConsumerThatNeverSawItsCreate() {
        assertThat(owed(POINTS, "FAILED", false)).extracting(Effect::kind, Effect::amount, Effect::answers)
                .containsExactly(tuple("ORDER_CREDIT", 12L, OrderEventType.CREATE),
                        tuple("ORDER_FAILURE_REVERSAL", -12L, OrderEventType.FAIL));
        assertThat(owed(SMS, "FAILED", false)).extracting(Effect::kind).containsExactly("CREATE", "FAIL");
        assertThat(owed(SMS, "FAILED", true)).extracting(Effect::kind).containsExactly("FAIL");
        assertThat(OwedEffects.confirmationMayBeSent(new Order(BigDecimal.ONE, "FAILED", LINES))).isFalse();
        assertThat(OwedEffects.confirmationMayBeSent(new Order(BigDecimal.ONE, "CANCELLED", LINES))).isTrue();
    }

    @Test
    void aConsumerThatRejectedTheCreateOwesNothingElse() {
        for (String status : List.of("CREATED", "COMPLETED", "CANCELLED", "FAILED")) {
            assertThat(owed(INVENTORY, status, true)).as(status).isEmpty();
            assertThat(owed(POINTS, status, true)).as(status).isEmpty();
        }
        assertThat(owed(SMS, "CANCELLED", true)).isEmpty();
    }

    @Test
    void theCreditIsTheAmountTimesTheRateRoundedDown() {
        assertThat(OwedEffects.credit(new BigDecimal("10.99"), new BigDecimal("1.5"))).isEqualTo(16);
        assertThat(OwedEffects.credit(new BigDecimal("0.99"), BigDecimal.ONE)).isZero();
    }
}
