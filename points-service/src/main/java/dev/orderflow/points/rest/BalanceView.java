package dev.orderflow.points.rest;

/** Body of {@code GET /points/{customerId}}: {@code {"customerId":"C-1","balance":25}}. */
public record BalanceView(String customerId, long balance) {
}
