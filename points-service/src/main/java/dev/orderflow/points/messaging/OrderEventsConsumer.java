package dev.orderflow.points.messaging;

import java.util.concurrent.CompletionStage;

import jakarta.enterprise.context.ApplicationScoped;
import jakarta.inject.Inject;

import org.eclipse.microprofile.reactive.messaging.Incoming;
import org.eclipse.microprofile.reactive.messaging.Message;

import dev.orderflow.consumer.GuardedOrderEvents;
import dev.orderflow.points.service.PointsService;
import io.smallrye.reactive.messaging.annotations.Blocking;

/**
 * Consumes order_topic as points_group through the shared pipeline (dedupe, failure classes,
 * result report) and the shared cancel-before-create guard: a create credits points, a cancel or
 * the fail of an order that failed reverses them once; a cancel or fail consumed before its create
 * leaves a tombstone and the late create credits nothing (REJECTED "cancelled before create" or
 * "failed before create").
 */
@ApplicationScoped
public class OrderEventsConsumer {

    /** The incoming channel (application.properties: order_topic, points_group, create || cancel || fail). */
    public static final String CHANNEL = "order-events";

    private final GuardedOrderEvents orderEvents;
    private final PointsService points;

    @Inject
    public OrderEventsConsumer(GuardedOrderEvents orderEvents, PointsService points) {
        this.orderEvents = orderEvents;
        this.points = points;
    }

    @Incoming(CHANNEL)
    @Blocking(ordered = false)
    public CompletionStage<Void> onOrderEvent(Message<?> message) {
        return orderEvents.consume(message, points::credit, points::reverse);
    }
}
