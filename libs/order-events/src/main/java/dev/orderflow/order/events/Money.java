package dev.orderflow.order.events;

import java.math.BigDecimal;
import java.math.RoundingMode;
import java.util.Collection;

/** Money arithmetic of the contract: BigDecimal with exactly two decimal places. */
public final class Money {

    public static final int SCALE = 2;

    private Money() {
    }

    /**
     * {@code value} with scale 2.
     *
     * @throws ArithmeticException when {@code value} has more than two significant decimals
     *                             (money is never rounded silently)
     */
    public static BigDecimal scale2(BigDecimal value) {
        return value == null ? null : value.setScale(SCALE, RoundingMode.UNNECESSARY);
    }

    /** Sum of the line totals, scale 2. */
    public static BigDecimal total(Collection<OrderItem> items) {
        BigDecimal total = BigDecimal.ZERO;
        for (OrderItem item : items) {
            total = total.add(item.lineTotal());
        }
        return scale2(total);
    }
}
