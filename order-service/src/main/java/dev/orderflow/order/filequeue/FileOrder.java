package dev.orderflow.order.filequeue;

import dev.orderflow.order.service.NewOrder;

/**
 * One order read from a file.
 *
 * @param reference      where it came from: the file name, or {@code orderRef} of a CSV group
 * @param order          the validated order (same validation as {@code POST /orders})
 * @param idempotencyKey derived from the file's content (see {@link FileOrderParser})
 */
public record FileOrder(String reference, NewOrder order, String idempotencyKey) {
}
