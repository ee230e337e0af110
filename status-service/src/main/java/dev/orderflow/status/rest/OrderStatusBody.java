package dev.orderflow.status.rest;

import java.util.Map;

import com.fasterxml.jackson.annotation.JsonInclude;
import com.fasterxml.jackson.annotation.JsonProperty;
import com.fasterxml.jackson.annotation.JsonPropertyOrder;

import dev.orderflow.status.domain.ConsumerState;
import dev.orderflow.status.domain.Failure;
import dev.orderflow.status.domain.OrderState;
import dev.orderflow.status.service.OrderStatusView;

/**
 * The body of {@code GET /orders/{orderId}/status}; tools rely on its exact shape. {@code completedAt},
 * {@code failure} and {@code compensation} are always present, null when absent: {@code failure}
 * says why a FAILED order failed or what an order in ATTENTION waits for; {@code compensation}
 * (FAILED only) each required consumer's state for the order's fail event, DONE once its reversal
 * is applied.
 */
@JsonInclude(JsonInclude.Include.ALWAYS)
@JsonPropertyOrder({ "orderId", "state", "consumers", "createdAt", "completedAt", "failure", "compensation" })
public record OrderStatusBody(String orderId, OrderState state, Map<String, ConsumerState> consumers,
        String createdAt, String completedAt, FailureBody failure, Map<String, ConsumerState> compensation) {

    static OrderStatusBody of(OrderStatusView view) {
        return new OrderStatusBody(view.orderId(), view.state(), view.consumers(), ApiTime.format(view.createdAt()),
                ApiTime.format(view.completedAt()), FailureBody.of(view.failure()), view.compensation());
    }

    /** {@code {"consumer":"inventory","class":"business","reason":"..."}}. */
    @JsonPropertyOrder({ "consumer", "class", "reason" })
    public record FailureBody(String consumer, @JsonProperty("class") String failureClass, String reason) {

        static FailureBody of(Failure failure) {
            return failure == null ? null : new FailureBody(failure.consumer(), failure.failureClass(), failure.reason());
        }
    }
}
