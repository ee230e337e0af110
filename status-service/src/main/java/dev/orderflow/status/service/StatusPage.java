package dev.orderflow.status.service;

import java.util.List;

import dev.orderflow.status.domain.OrderState;

/** One page of opened orders in one state, newest first. */
public record StatusPage(OrderState state, int page, int size, long total, List<OrderStatusView> orders) {
}
