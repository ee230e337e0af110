package dev.orderflow.status.messaging;

import java.util.concurrent.CompletionStage;

import jakarta.enterprise.context.ApplicationScoped;
import jakarta.inject.Inject;

import org.eclipse.microprofile.reactive.messaging.Incoming;
import org.eclipse.microprofile.reactive.messaging.Message;

import dev.orderflow.consumer.IdempotentConsumer;
import dev.orderflow.order.events.ConsumerReport;
import dev.orderflow.order.events.ConsumerReportParser;
import dev.orderflow.order.events.OrderEvent;
import dev.orderflow.order.events.OrderEventParser;
import dev.orderflow.status.service.StatusRecorder;
import io.smallrye.reactive.messaging.annotations.Blocking;

/**
 * The two statically configured inputs, both through the shared pipeline (dedupe on
 * consume_record, ack after commit). Unordered blocking: inputs about one order are serialized
 * by the row lock in {@link StatusRecorder}, not by the channel.
 */
@ApplicationScoped
public class StatusInputs {

    private final IdempotentConsumer consumer;
    private final StatusRecorder recorder;

    @Inject
    public StatusInputs(IdempotentConsumer consumer, StatusRecorder recorder) {
        this.consumer = consumer;
        this.recorder = recorder;
    }

    /** order_topic create/cancel as group status_group, deduped on {@code <orderId>:<eventType>}. */
    @Incoming("order-events")
    @Blocking(ordered = false)
    public CompletionStage<Void> onOrderEvent(Message<?> message) {
        return consumer.consume(message, OrderEventParser::parse, OrderEvent::messageKey,
                (event, context) -> recorder.orderEvent(event));
    }

    /** Consumer reports on order_result_topic, deduped on {@code <orderId>:<eventType>:<consumer>}. */
    @Incoming("consumer-reports")
    @Blocking(ordered = false)
    public CompletionStage<Void> onConsumerReport(Message<?> message) {
        return consumer.consume(message, ConsumerReportParser::parse, ConsumerReport::messageKey,
                (report, context) -> recorder.report(report));
    }
}
