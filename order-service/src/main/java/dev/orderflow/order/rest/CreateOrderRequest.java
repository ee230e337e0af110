package dev.orderflow.order.rest;

import java.math.BigDecimal;
import java.util.List;

import org.eclipse.microprofile.openapi.annotations.media.Schema;

/**
 * Body of {@code POST /orders}. Unknown fields are rejected (400 naming the field), so a typo such
 * as {@code "quantiy"} never silently creates a wrong order.
 */
@Schema(name = "CreateOrderRequest")
public record CreateOrderRequest(
        @Schema(maxLength = 64, examples = "C-1",
                description = "Required from a service; a customer's token names it (leave it out, or give the same)")
        String customerId,
        @Schema(required = true, pattern = "^\\+?[0-9]{6,20}$", examples = "+819012345678") String phone,
        @Schema(required = true, minItems = 1, maxItems = 50) List<Item> items) {

    /** One line. {@code unitPrice} is a decimal string ("12.50") or a JSON number, at most two decimals. */
    @Schema(name = "CreateOrderItem")
    public record Item(
            @Schema(required = true, maxLength = 64, examples = "SKU-1") String sku,
            @Schema(required = true, minimum = "1", maximum = "1000") Integer quantity,
            @Schema(required = true, type = org.eclipse.microprofile.openapi.annotations.enums.SchemaType.STRING,
                    examples = "12.50") BigDecimal unitPrice) {
    }
}
