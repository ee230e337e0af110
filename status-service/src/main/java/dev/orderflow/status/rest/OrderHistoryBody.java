package dev.orderflow.status.rest;

import java.util.List;

import com.fasterxml.jackson.annotation.JsonInclude;
import com.fasterxml.jackson.annotation.JsonProperty;
import com.fasterxml.jackson.annotation.JsonPropertyOrder;

import dev.orderflow.status.domain.ConsumerState;
import dev.orderflow.status.domain.OrderState;
import dev.orderflow.status.service.OrderHistoryView;

/**
 * The body of {@code GET /orders/{orderId}/status/history}: when the order reached each milestone
 * (null until it did) and each required consumer's flag per event. Every field is always present.
 */
@JsonInclude(JsonInclude.Include.ALWAYS)
@JsonPropertyOrder({ "orderId", "state", "createdAt", "cancelRequestedAt", "completedAt", "failedAt", "cancelledAt",
        "failure", "events" })
public record OrderHistoryBody(String orderId, OrderState state, String createdAt, String cancelRequestedAt,
        String completedAt, String failedAt, String cancelledAt, OrderStatusBody.FailureBody failure,
        List<EventBody> events) {

    static OrderHistoryBody of(OrderHistoryView view) {
        return new OrderHistoryBody(view.orderId(), view.state(), ApiTime.format(view.createdAt()),
                ApiTime.format(view.cancelRequestedAt()), ApiTime.format(view.completedAt()),
                ApiTime.format(view.failedAt()), ApiTime.format(view.cancelledAt()),
                OrderStatusBody.FailureBody.of(view.failure()),
                view.events().stream().map(EventBody::of).toList());
    }

    /** {@code event}: create, cancel or compensation (the reversal of a FAILED order). */
    @JsonPropertyOrder({ "event", "consumers" })
    public record EventBody(String event, List<ConsumerBody> consumers) {

        static EventBody of(OrderHistoryView.EventFlags flags) {
            return new EventBody(flags.event(), flags.consumers().stream().map(ConsumerBody::of).toList());
        }
    }

    /**
     * One consumer's flag; {@code at} when the consumer committed it (or the message was
     * dead-lettered), {@code recordedAt} when status-service learned it, {@code source} how
     * ({@code report} or {@code dead-letter-queue}); all null while PENDING.
     */
    @JsonPropertyOrder({ "consumer", "state", "at", "recordedAt", "source", "class", "reason" })
    public record ConsumerBody(String consumer, ConsumerState state, String at, String recordedAt, String source,
            @JsonProperty("class") String failureClass, String reason) {

        static ConsumerBody of(OrderHistoryView.ConsumerFlag flag) {
            return new ConsumerBody(flag.consumer(), flag.state(), ApiTime.format(flag.occurredAt()),
                    ApiTime.format(flag.recordedAt()), flag.source(), flag.failureClass(), flag.reason());
        }
    }
}
