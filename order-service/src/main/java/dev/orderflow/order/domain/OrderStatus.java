package dev.orderflow.order.domain;

/** Lifecycle of an order as this service sees it. */
public enum OrderStatus {
    CREATED,
    CANCELLED
}
