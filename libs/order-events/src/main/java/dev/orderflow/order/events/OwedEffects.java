package dev.orderflow.order.events;

import java.math.BigDecimal;
import java.math.RoundingMode;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.TreeMap;

/**
 * What each consumer of {@link OrderMessaging#TOPIC} owes an order, by how the order ended: the one
 * statement of these rules. status-service's reconciliation and the fault and load verdicts compare
 * what the consumers wrote with this.
 *
 * <ul>
 * <li><b>inventory</b>: a DEDUCT per SKU of the units ordered (the order's lines of one SKU added
 * up); if the order was cancelled or failed, a RESTORE of the same units per SKU.</li>
 * <li><b>points</b>: an ORDER_CREDIT of floor(amount × rate); if cancelled, an ORDER_REVERSAL of
 * minus that; if failed, an ORDER_FAILURE_REVERSAL of minus that.</li>
 * <li><b>sms</b>: a confirmation text (CREATE); if cancelled, a cancellation text (CANCEL); if
 * failed, a failure text (FAIL), and the confirmation must never have been sent.</li>
 * </ul>
 * A consumer that rejected the order's create (insufficient stock, or its cancel or fail came
 * first) applied nothing, so it owes nothing for the create nor its undoing; sms still owes the
 * failure text of a failed order. Each effect is written once.
 */
public final class OwedEffects {

    /** inventory's {@code stock_movement.kind}. */
    public static final String DEDUCT = "DEDUCT";
    public static final String RESTORE = "RESTORE";
    /** points' {@code points_ledger.reason}. */
    public static final String ORDER_CREDIT = "ORDER_CREDIT";
    public static final String ORDER_REVERSAL = "ORDER_REVERSAL";
    public static final String ORDER_FAILURE_REVERSAL = "ORDER_FAILURE_REVERSAL";
    /** sms' {@code sms_outbox.event_type}: the text of a create, a cancel, a fail. */
    public static final String CONFIRMATION = "CREATE";
    public static final String CANCELLATION = "CANCEL";
    public static final String FAILURE = "FAIL";

    /** order-service's statuses that end an order otherwise than by completing. */
    public static final String CANCELLED = "CANCELLED";
    public static final String FAILED = "FAILED";

    /** A consumer of order events with effects to reconcile. */
    public enum Consumer {
        INVENTORY("inventory", OrderMessaging.INVENTORY_GROUP),
        POINTS("points", OrderMessaging.POINTS_GROUP),
        SMS("sms", OrderMessaging.SMS_GROUP);

        private final String label;
        private final String group;

        Consumer(String label, String group) {
            this.label = label;
            this.group = group;
        }

        /** Its short name, as status-service records its outcomes and reports findings. */
        public String label() {
            return label;
        }

        /** Its consumer group. */
        public String group() {
            return group;
        }
    }

    /**
     * An order as the rules see it.
     *
     * @param status     order-service's status: CREATED, COMPLETED, CANCELLED or FAILED
     * @param quantities units per SKU, the order's lines of one SKU added up
     */
    public record Order(BigDecimal amount, String status, Map<String, Long> quantities) {

        public boolean cancelled() {
            return CANCELLED.equals(status);
        }

        public boolean failed() {
            return FAILED.equals(status);
        }
    }

    /**
     * One effect owed.
     *
     * @param kind    the movement kind, ledger reason or text event type (the constants above)
     * @param subject the SKU of a stock movement; empty for points and texts
     * @param amount  units moved, points (negative for a reversal), 1 for a text
     * @param answers the event whose consumption writes it: when it is due
     */
    public record Effect(String kind, String subject, long amount, OrderEventType answers) {

        /** Identifies the effect whatever its amount: one of each is owed. */
        public String key() {
            return keyOf(kind, subject);
        }

        /** The {@link #key()} of an effect of this kind and subject, e.g. one a consumer wrote. */
        public static String keyOf(String kind, String subject) {
            return subject.isEmpty() ? kind : kind + " " + subject;
        }
    }

    private OwedEffects() {
    }

    /**
     * What {@code consumer} owes {@code order}, in a stable order.
     *
     * @param createRejected whether the consumer rejected the order's create
     * @param pointsRate     points per whole currency unit (points-service's {@code points.rate})
     */
    public static List<Effect> owedBy(Consumer consumer, Order order, boolean createRejected, BigDecimal pointsRate) {
        List<Effect> owed = new ArrayList<>();
        OrderEventType undoing = order.cancelled() ? OrderEventType.CANCEL : order.failed() ? OrderEventType.FAIL : null;
        switch (consumer) {
            case INVENTORY -> {
                if (!createRejected) {
                    new TreeMap<>(order.quantities()).forEach((sku, units) -> {
                        owed.add(new Effect(DEDUCT, sku, units, OrderEventType.CREATE));
                        if (undoing != null) {
                            owed.add(new Effect(RESTORE, sku, units, undoing));
                        }
                    });
                }
            }
            case POINTS -> {
                if (!createRejected) {
                    long credit = credit(order.amount(), pointsRate);
                    owed.add(new Effect(ORDER_CREDIT, "", credit, OrderEventType.CREATE));
                    if (undoing != null) {
                        owed.add(new Effect(order.cancelled() ? ORDER_REVERSAL : ORDER_FAILURE_REVERSAL, "", -credit,
                                undoing));
                    }
                }
            }
            case SMS -> {
                if (!createRejected) {
                    owed.add(new Effect(CONFIRMATION, "", 1, OrderEventType.CREATE));
                    if (order.cancelled()) {
                        owed.add(new Effect(CANCELLATION, "", 1, OrderEventType.CANCEL));
                    }
                }
                if (order.failed()) {
                    owed.add(new Effect(FAILURE, "", 1, OrderEventType.FAIL));
                }
            }
        }
        return owed;
    }

    /** Whether the order's confirmation text may have been sent: never for a failed order. */
    public static boolean confirmationMayBeSent(Order order) {
        return !order.failed();
    }

    /** The points an order's amount earns: floor(amount × rate). */
    public static long credit(BigDecimal amount, BigDecimal pointsRate) {
        return amount.multiply(pointsRate).setScale(0, RoundingMode.FLOOR).longValueExact();
    }
}
