package dev.orderflow.inventory.messaging;

import java.util.concurrent.CompletionStage;

import jakarta.enterprise.context.ApplicationScoped;
import jakarta.inject.Inject;

import org.eclipse.microprofile.reactive.messaging.Incoming;
import org.eclipse.microprofile.reactive.messaging.Message;

import dev.orderflow.consumer.GuardedOrderEvents;
import dev.orderflow.inventory.service.InventoryService;
import io.smallrye.reactive.messaging.annotations.Blocking;

/**
 * Consumes order_topic as inventory_group through the shared pipeline (dedupe, failure classes,
 * result report) and the shared cancel-before-create guard: a create deducts, a cancel or the fail
 * of an order that failed restores what it deducted (a create this service rejected deducted
 * nothing); a cancel or fail consumed before its create leaves a tombstone and the late create
 * deducts nothing (REJECTED "cancelled before create" or "failed before create").
 */
@ApplicationScoped
public class OrderEventsConsumer {

    /** The incoming channel (application.properties: order_topic, inventory_group, create || cancel || fail). */
    public static final String CHANNEL = "order-events";

    private final GuardedOrderEvents orderEvents;
    private final InventoryService inventory;

    @Inject
    public OrderEventsConsumer(GuardedOrderEvents orderEvents, InventoryService inventory) {
        this.orderEvents = orderEvents;
        this.inventory = inventory;
    }

    @Incoming(CHANNEL)
    @Blocking(ordered = false)
    public CompletionStage<Void> onOrderEvent(Message<?> message) {
        return orderEvents.consume(message, inventory::deduct, inventory::restore);
    }
}
