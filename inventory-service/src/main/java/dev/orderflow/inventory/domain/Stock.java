package dev.orderflow.inventory.domain;

import java.time.Instant;

/** Units of one SKU available for new orders: a row of {@code stock}. */
public record Stock(String sku, long available, Instant updatedAt) {
}
