package dev.orderflow.sms.intent;

import dev.orderflow.order.events.OrderEvent;

/** The wording of the texts. Kept short: one SMS segment for a typical order. */
final class SmsTexts {

    private SmsTexts() {
    }

    static String textFor(OrderEvent event) {
        return switch (event.eventType()) {
            case CREATE -> "Order " + event.orderId() + " confirmed: " + itemCount(event) + ", total "
                    + event.amount().toPlainString() + ". Thank you!";
            case CANCEL -> "Order " + event.orderId() + " has been cancelled.";
            case FAIL -> "Sorry, order " + event.orderId() + " could not be fulfilled and has been closed.";
        };
    }

    private static String itemCount(OrderEvent event) {
        int units = event.items().stream().mapToInt(item -> item.quantity()).sum();
        return units == 1 ? "1 item" : units + " items";
    }
}
