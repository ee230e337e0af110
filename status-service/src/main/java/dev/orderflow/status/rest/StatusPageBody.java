package dev.orderflow.status.rest;

import java.util.List;

import com.fasterxml.jackson.annotation.JsonPropertyOrder;

import dev.orderflow.status.domain.OrderState;
import dev.orderflow.status.service.StatusPage;

/** The body of {@code GET /orders/status}: one page of orders in one state, newest first. */
@JsonPropertyOrder({ "state", "page", "size", "total", "orders" })
public record StatusPageBody(OrderState state, int page, int size, long total, List<OrderStatusBody> orders) {

    static StatusPageBody of(StatusPage page) {
        return new StatusPageBody(page.state(), page.page(), page.size(), page.total(),
                page.orders().stream().map(OrderStatusBody::of).toList());
    }
}
