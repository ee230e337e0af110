package dev.orderflow.order.service;

import java.sql.SQLException;
import java.time.Instant;
import java.time.temporal.ChronoUnit;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.Set;

import jakarta.enterprise.context.ApplicationScoped;
import jakarta.enterprise.context.control.ActivateRequestContext;
import jakarta.inject.Inject;
import jakarta.persistence.LockModeType;

import org.eclipse.microprofile.reactive.messaging.Message;
import org.jboss.logging.Logger;

import dev.orderflow.order.domain.Order;
import dev.orderflow.order.domain.OrderIds;
import dev.orderflow.order.domain.OrderLine;
import dev.orderflow.order.domain.OrderStatus;
import dev.orderflow.order.events.OrderEvent;
import dev.orderflow.order.events.OrderEventJson;
import dev.orderflow.order.events.OrderEventType;
import dev.orderflow.order.events.OrderFailure;
import dev.orderflow.order.events.OrderItem;
import dev.orderflow.order.events.OrderOutcome;
import dev.orderflow.rocketmq.OutgoingRocketMQMetadata;
import dev.orderflow.rocketmq.RocketMQTransactionUnknownException;
import dev.orderflow.rocketmq.RocketMQTransactions;
import io.quarkus.narayana.jta.QuarkusTransaction;
import io.quarkus.panache.common.Page;
import io.quarkus.panache.common.Sort;

/**
 * Creates, cancels and fails orders so that the order row exists if and only if its event becomes
 * visible: each change runs as the local transaction of a transactional message on
 * {@link #ORDER_EVENTS_CHANNEL} (half message first, then the INSERT/UPDATE, then commit or
 * rollback of the message; a crash in between is settled by {@code OrderTransactionChecker}).
 * A create's rows are committed by {@link OrderGroupCommit}, together with those of the creates
 * running at the same time; a cancel runs in a JTA transaction of its own.
 *
 * <p>Called without an active transaction (REST worker threads, consumers, the file queue): every
 * change here runs in a JTA transaction of its own, reads run outside any (committed rows only) in
 * the caller's request context, or one of their own.
 */
@ApplicationScoped
@ActivateRequestContext
public class OrderService {

    /** Outgoing transactional channel to {@code order_topic}. */
    public static final String ORDER_EVENTS_CHANNEL = "order-events";

    private static final Logger LOG = Logger.getLogger(OrderService.class);
    private static final int DUPLICATE_ENTRY_ERROR = 1062;

    private final RocketMQTransactions transactions;
    private final OrderIds orderIds;
    private final OrderGroupCommit groupCommit;

    @Inject
    public OrderService(RocketMQTransactions transactions, OrderIds orderIds, OrderGroupCommit groupCommit) {
        this.transactions = transactions;
        this.orderIds = orderIds;
        this.groupCommit = groupCommit;
    }

    /**
     * Creates the order and sends its {@code create} event, or returns the order an earlier
     * request with the same idempotency key created (sending nothing).
     *
     * @param idempotencyKey the client's Idempotency-Key, or null
     * @throws IdempotencyKeyReusedException when the key came with a different request before
     * @throws dev.orderflow.rocketmq.RocketMQSendException when the broker is unreachable (nothing written)
     * @throws OrderOutcomeUnknownException when the commit ended unclearly (the check-back settles it)
     * @throws dev.orderflow.rocketmq.RocketMQTransactionRolledBackException when the transaction rolled
     *         back at commit (nothing written, nothing sent)
     */
    public CreateResult create(NewOrder request, String idempotencyKey) {
        String fingerprint = request.fingerprint();
        if (idempotencyKey != null) {
            Optional<OrderView> earlier = findByIdempotencyKey(idempotencyKey);
            if (earlier.isPresent()) {
                return replay(earlier.get(), fingerprint);
            }
        }

        Instant now = Instant.now().truncatedTo(ChronoUnit.MILLIS);
        String orderId = orderIds.next();
        OrderEvent event = OrderEvent.of(OrderEventType.CREATE, orderId, request.customerId(), request.phone(),
                request.items(), now);
        try {
            OrderView created = transactions.executeCommitting(ORDER_EVENTS_CHANNEL, messageOf(event), () -> {
                Order order = new Order();
                order.id = orderId;
                order.customerId = request.customerId();
                order.phone = request.phone();
                order.amount = event.amount();
                order.status = OrderStatus.CREATED;
                order.idempotencyKey = idempotencyKey;
                order.requestHash = idempotencyKey == null ? null : fingerprint;
                order.createdAt = now;
                order.updatedAt = now;
                for (OrderItem item : request.items()) {
                    order.addItem(new OrderLine(item.sku(), item.quantity(), item.unitPrice()));
                }
                // Committed with the other creates waiting now; a refused row fails here, so the message rolls back.
                groupCommit.insertCommitted(order);
                return OrderView.of(order);
            });
            LOG.debugf("Created order %s (%s)", orderId, event.amount());
            return new CreateResult(created, true);
        } catch (RocketMQTransactionUnknownException e) {
            throw new OrderOutcomeUnknownException(orderId, OrderEventType.CREATE, e);
        } catch (RuntimeException e) {
            if (idempotencyKey != null && violates(e, Order.IDEMPOTENCY_KEY_CONSTRAINT)) {
                // A concurrent request with the same key won the race; its message is the only one.
                OrderView winner = findByIdempotencyKey(idempotencyKey).orElseThrow(() -> e);
                return replay(winner, fingerprint);
            }
            throw e;
        }
    }

    /**
     * Cancels the order and sends its {@code cancel} event.
     *
     * @throws OrderNotFoundException          no such order
     * @throws OrderAlreadyCancelledException  cancelled before (no second message)
     * @throws OrderFailedException            the order failed (and was compensated): nothing to cancel
     * @throws OrderOutcomeUnknownException    when the commit ended unclearly (the check-back settles it)
     */
    public OrderView cancel(String orderId) {
        OrderView current = find(orderId).orElseThrow(() -> new OrderNotFoundException(orderId));
        refuseCancel(orderId, current.status(), current.failure());
        Instant now = Instant.now().truncatedTo(ChronoUnit.MILLIS);
        OrderEvent event = OrderEvent.of(OrderEventType.CANCEL, orderId, current.customerId(), current.phone(),
                current.items(), now);
        try {
            return transactions.execute(ORDER_EVENTS_CHANNEL, messageOf(event), () -> cancelLocked(orderId, now));
        } catch (RocketMQTransactionUnknownException e) {
            throw new OrderOutcomeUnknownException(orderId, OrderEventType.CANCEL, e);
        }
    }

    /** The local work of a cancel, inside the JTA transaction of its half message. */
    private static OrderView cancelLocked(String orderId, Instant now) {
        // Locked re-read: of two concurrent cancels only one changes the row; the other rolls its
        // half message back and reports the conflict.
        Order order = lockedOrder(orderId);
        refuseCancel(orderId, order.status, order.failure());
        order.status = OrderStatus.CANCELLED;
        // A COMPLETED order's completion time no longer says how it ended: the end of the cancel will.
        order.outcomeAt = null;
        order.updatedAt = now;
        return OrderView.of(order);
    }

    /** The order, its row locked until the transaction ends (serialises concurrent cancels and fails). */
    private static Order lockedOrder(String orderId) {
        return Order.<Order> findByIdOptional(orderId, LockModeType.PESSIMISTIC_WRITE)
                .orElseThrow(() -> new OrderNotFoundException(orderId));
    }

    private static void refuseCancel(String orderId, OrderStatus status, OrderFailure failure) {
        if (status == OrderStatus.CANCELLED) {
            throw new OrderAlreadyCancelledException(orderId);
        }
        if (status == OrderStatus.FAILED) {
            throw new OrderFailedException(orderId, failure);
        }
    }

    /**
     * Records COMPLETED outcomes and the end of cancellations, in one transaction. An outcome for an
     * order that left CREATED meanwhile (a duplicate, or a cancel accepted first) changes nothing.
     *
     * @param outcomes COMPLETED or CANCELLED outcomes
     * @throws RuntimeException when the database fails (the transaction rolled back: nothing written)
     */
    public void recordOutcomes(List<OrderOutcome> outcomes) {
        if (outcomes.isEmpty()) {
            return;
        }
        Instant now = Instant.now().truncatedTo(ChronoUnit.MILLIS);
        Map<String, Instant> completed = new LinkedHashMap<>();
        Map<String, Instant> cancelled = new LinkedHashMap<>();
        for (OrderOutcome outcome : outcomes) {
            switch (outcome.outcome()) {
                // The first of duplicates in one batch wins, as it would across batches.
                case COMPLETED -> completed.putIfAbsent(outcome.orderId(), outcome.reachedAt());
                case CANCELLED -> cancelled.putIfAbsent(outcome.orderId(), outcome.reachedAt());
                case FAILED -> throw new IllegalArgumentException("a FAILED outcome goes through fail()");
            }
        }
        QuarkusTransaction.requiringNew().run(() -> {
            for (Order order : lockedOrders(completed.keySet(), OrderStatus.CREATED)) {
                order.status = OrderStatus.COMPLETED;
                order.outcomeAt = completed.get(order.id);
                order.updatedAt = now;
            }
            for (Order order : lockedOrders(cancelled.keySet(), OrderStatus.CANCELLED)) {
                if (order.outcomeAt == null) { // once: the first end of a cancellation counts
                    order.outcomeAt = cancelled.get(order.id);
                    order.updatedAt = now;
                }
            }
        });
    }

    /** Those of the orders that are in {@code status}, their rows locked in id order (no deadlock between batches). */
    private static List<Order> lockedOrders(Set<String> ids, OrderStatus status) {
        if (ids.isEmpty()) {
            return List.of();
        }
        return Order.<Order> find("id in ?1 and status = ?2", Sort.by("id"), ids, status)
                .withLock(LockModeType.PESSIMISTIC_WRITE).list();
    }

    /**
     * Marks the order FAILED with its failure and sends its {@code fail} event, which makes every
     * consumer undo what the create did: one local transaction with the half message, as create
     * and cancel. Does nothing for an order that is no longer CREATED (a duplicate outcome, or a
     * cancel accepted first, whose reversals compensate it).
     *
     * @return whether this call failed the order
     * @throws OrderNotFoundException          no such order here
     * @throws OrderOutcomeUnknownException    when the commit ended unclearly (the check-back settles it)
     */
    public boolean fail(OrderOutcome outcome) {
        String orderId = outcome.orderId();
        OrderView current = find(orderId).orElseThrow(() -> new OrderNotFoundException(orderId));
        if (current.status() != OrderStatus.CREATED) {
            return false;
        }
        Instant now = Instant.now().truncatedTo(ChronoUnit.MILLIS);
        OrderEvent event = OrderEvent.failed(orderId, current.customerId(), current.phone(), current.items(),
                outcome.failure(), now);
        try {
            transactions.execute(ORDER_EVENTS_CHANNEL, messageOf(event), () -> failLocked(outcome, now));
            LOG.infof("Order %s failed (%s, %s: %s); compensation sent", orderId, outcome.failure().consumer(),
                    outcome.failure().failureClass(), outcome.failure().reason());
            return true;
        } catch (OrderNoLongerOpenException e) {
            return false;
        } catch (RocketMQTransactionUnknownException e) {
            throw new OrderOutcomeUnknownException(orderId, OrderEventType.FAIL, e);
        }
    }

    /** The local work of a fail, inside the JTA transaction of its half message. */
    private static OrderView failLocked(OrderOutcome outcome, Instant now) {
        Order order = lockedOrder(outcome.orderId());
        if (order.status != OrderStatus.CREATED) {
            // Changed since the unlocked read: its half message rolls back.
            throw new OrderNoLongerOpenException(outcome.orderId(), order.status);
        }
        order.fail(outcome.failure());
        order.outcomeAt = outcome.reachedAt();
        order.updatedAt = now;
        return OrderView.of(order);
    }

    /** The order left CREATED between the read and the locked re-read of a fail. */
    static final class OrderNoLongerOpenException extends RuntimeException {
        OrderNoLongerOpenException(String orderId, OrderStatus status) {
            super("Order " + orderId + " is " + status + ", not CREATED", null, false, false);
        }
    }

    public Optional<OrderView> find(String orderId) {
        return Order.<Order> findByIdOptional(orderId).map(OrderView::of);
    }

    /** A page of the customer's orders, newest first (ties: higher id first), and the total count. */
    public OrderPageView pageOfCustomer(String customerId, int page, int size) {
        List<OrderView> orders = Order.<Order> find("customerId", Sort.descending("createdAt", "id"), customerId)
                .page(Page.of(page, size)).list().stream().map(OrderView::of).toList();
        return new OrderPageView(orders, page, size, Order.count("customerId", customerId));
    }

    private static Optional<OrderView> findByIdempotencyKey(String idempotencyKey) {
        return Order.<Order> find("idempotencyKey", idempotencyKey).firstResultOptional().map(OrderView::of);
    }

    private static CreateResult replay(OrderView earlier, String fingerprint) {
        if (!fingerprint.equals(earlier.requestHash())) {
            throw new IdempotencyKeyReusedException(earlier.id());
        }
        return new CreateResult(earlier, false);
    }

    /** The message carrying {@code event}: tag create/cancel/fail, KEYS {@code <orderId>:<event>}. */
    static Message<String> messageOf(OrderEvent event) {
        return Message.of(OrderEventJson.toJson(event)).addMetadata(OutgoingRocketMQMetadata.builder()
                .withTag(event.tag())
                .withKeys(event.messageKey())
                .build());
    }

    private static boolean violates(Throwable e, String constraint) {
        for (Throwable c = e; c != null; c = c.getCause() == c ? null : c.getCause()) {
            if (c instanceof SQLException sql && sql.getErrorCode() == DUPLICATE_ENTRY_ERROR
                    && String.valueOf(sql.getMessage()).contains(constraint)) {
                return true;
            }
        }
        return false;
    }

    /** One page of orders. */
    public record OrderPageView(List<OrderView> orders, int page, int size, long total) {
    }
}
