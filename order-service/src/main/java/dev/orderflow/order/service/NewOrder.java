package dev.orderflow.order.service;

import java.nio.charset.StandardCharsets;
import java.security.MessageDigest;
import java.security.NoSuchAlgorithmException;
import java.util.HexFormat;
import java.util.List;

import dev.orderflow.order.events.Money;
import dev.orderflow.order.events.OrderItem;

/** A validated order request: what the service needs to create an order. */
public record NewOrder(String customerId, String phone, List<OrderItem> items) {

    public NewOrder {
        items = List.copyOf(items);
    }

    /**
     * SHA-256 of the request's content in a canonical form (money at scale 2), stored with the
     * Idempotency-Key: a retry with the same key must carry the same request.
     */
    public String fingerprint() {
        StringBuilder canonical = new StringBuilder()
                .append(customerId).append('\n').append(phone).append('\n');
        for (OrderItem item : items) {
            canonical.append(item.sku()).append('\t').append(item.quantity()).append('\t')
                    .append(Money.scale2(item.unitPrice()).toPlainString()).append('\n');
        }
        try {
            byte[] digest = MessageDigest.getInstance("SHA-256").digest(canonical.toString().getBytes(StandardCharsets.UTF_8));
            return HexFormat.of().formatHex(digest);
        } catch (NoSuchAlgorithmException e) {
            throw new IllegalStateException("SHA-256 is part of every Java runtime", e);
        }
    }
}
