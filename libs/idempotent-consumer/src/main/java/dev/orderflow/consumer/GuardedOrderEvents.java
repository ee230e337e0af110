package dev.orderflow.consumer;

import java.util.concurrent.CompletionStage;

import jakarta.enterprise.context.ApplicationScoped;
import jakarta.inject.Inject;

import org.eclipse.microprofile.reactive.messaging.Message;

import dev.orderflow.order.events.OrderEvent;
import dev.orderflow.order.events.OrderEventParser;
import dev.orderflow.order.events.OrderEventType;

/**
 * How a service consumes {@code order_topic} when a create applies an effect and a cancel or fail
 * undoes it (inventory, points): each message through the pipeline ({@link IdempotentConsumer}:
 * dedupe, failure classes, report), each event through the {@link CancelBeforeCreateGuard}, then
 * to the service's own two changes. The service's {@code @Incoming} method only names them:
 *
 * <pre>{@code
 * return orderEvents.consume(message, inventory::deduct, inventory::restore);
 * }</pre>
 */
@ApplicationScoped
public class GuardedOrderEvents {

    /** A service's change for one event, in the pipeline's transaction. */
    @FunctionalInterface
    public interface Change {
        Outcome apply(OrderEvent event) throws Exception;
    }

    private final IdempotentConsumer pipeline;
    private final CancelBeforeCreateGuard guard;

    @Inject
    public GuardedOrderEvents(IdempotentConsumer pipeline, CancelBeforeCreateGuard guard) {
        this.pipeline = pipeline;
        this.guard = guard;
    }

    /**
     * Consumes one message (or batch) of {@code order_topic}.
     *
     * @param create what a create does
     * @param undo   what a cancel, or the fail of a failed order, does: undo what the create did
     *               (nothing when this service rejected the create)
     */
    public CompletionStage<Void> consume(Message<?> message, Change create, Change undo) {
        return pipeline.consume(message, OrderEventParser::parse, OrderEvent::messageKey,
                (event, context) -> guard.apply(event, context,
                        () -> event.eventType() == OrderEventType.CREATE ? create.apply(event) : undo.apply(event)));
    }
}
