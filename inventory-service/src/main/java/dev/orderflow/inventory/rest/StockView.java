package dev.orderflow.inventory.rest;

import dev.orderflow.inventory.domain.Stock;

/** Body of stock responses: {@code {"sku":"SKU-1","available":99998}}. */
public record StockView(String sku, long available) {

    static StockView of(Stock stock) {
        return new StockView(stock.sku, stock.available);
    }
}
