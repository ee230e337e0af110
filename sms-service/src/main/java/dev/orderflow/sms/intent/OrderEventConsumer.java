package dev.orderflow.sms.intent;

import java.util.concurrent.CompletionStage;

import jakarta.enterprise.context.ApplicationScoped;
import jakarta.inject.Inject;

import org.eclipse.microprofile.reactive.messaging.Incoming;
import org.eclipse.microprofile.reactive.messaging.Message;

import dev.orderflow.consumer.IdempotentConsumer;
import dev.orderflow.order.events.OrderEvent;
import dev.orderflow.order.events.OrderEventParser;
import io.smallrye.reactive.messaging.annotations.Blocking;

/**
 * sms_group's subscription to order_topic (channel {@code order-events}, tags create and cancel):
 * every message goes through the shared idempotent-consumer pipeline, whose business change is
 * {@link SmsIntentRecorder#record}. Nothing is sent from here: texts leave through the dispatcher.
 */
@ApplicationScoped
public class OrderEventConsumer {

    private final IdempotentConsumer pipeline;
    private final SmsIntentRecorder intents;

    @Inject
    public OrderEventConsumer(IdempotentConsumer pipeline, SmsIntentRecorder intents) {
        this.pipeline = pipeline;
        this.intents = intents;
    }

    /**
     * Unordered blocking: the connector's consume threads hand over several messages at once and
     * the pipeline is safe under concurrency (consume_record's unique key, the per-order lock).
     */
    @Incoming("order-events")
    @Blocking(ordered = false)
    public CompletionStage<Void> onOrderEvent(Message<?> message) {
        return pipeline.consume(message, OrderEventParser::parse, OrderEvent::messageKey, intents::record);
    }
}
