package dev.orderflow.order.service;

import java.sql.Connection;
import java.sql.SQLException;
import java.time.Instant;
import java.time.temporal.ChronoUnit;
import java.util.List;
import java.util.Optional;

import jakarta.enterprise.context.ApplicationScoped;
import jakarta.inject.Inject;

import javax.sql.DataSource;

import org.eclipse.microprofile.reactive.messaging.Message;
import org.jboss.logging.Logger;

import dev.orderflow.order.domain.Order;
import dev.orderflow.order.domain.OrderIds;
import dev.orderflow.order.domain.OrderLine;
import dev.orderflow.order.domain.OrderRows;
import dev.orderflow.order.domain.OrderStatus;
import dev.orderflow.order.events.OrderEvent;
import dev.orderflow.order.events.OrderEventJson;
import dev.orderflow.order.events.OrderEventType;
import dev.orderflow.order.events.OrderItem;
import dev.orderflow.rocketmq.OutgoingRocketMQMetadata;
import dev.orderflow.rocketmq.RocketMQTransactionUnknownException;
import dev.orderflow.rocketmq.RocketMQTransactions;

/**
 * Creates and cancels orders so that the order row exists if and only if its event becomes
 * visible: each change runs as the local transaction of a transactional message on
 * {@link #ORDER_EVENTS_CHANNEL} (half message first, then the INSERT/UPDATE, then commit or
 * rollback of the message; a crash in between is settled by {@code OrderTransactionChecker}).
 * A create's rows are committed by {@link OrderGroupCommit}, together with those of the creates
 * running at the same time; a cancel runs in a JTA transaction of its own.
 *
 * <p>Called without an active transaction (REST worker threads): every database access here
 * opens its own.
 */
@ApplicationScoped
public class OrderService {

    /** Outgoing transactional channel to {@code order_topic}. */
    public static final String ORDER_EVENTS_CHANNEL = "order-events";

    private static final Logger LOG = Logger.getLogger(OrderService.class);
    private static final int DUPLICATE_ENTRY_ERROR = 1062;

    private final RocketMQTransactions transactions;
    private final OrderIds orderIds;
    private final OrderGroupCommit groupCommit;
    private final DataSource dataSource;

    @Inject
    public OrderService(RocketMQTransactions transactions, OrderIds orderIds, OrderGroupCommit groupCommit,
            DataSource dataSource) {
        this.transactions = transactions;
        this.orderIds = orderIds;
        this.groupCommit = groupCommit;
        this.dataSource = dataSource;
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
     * @throws OrderOutcomeUnknownException    when the commit ended unclearly (the check-back settles it)
     */
    public OrderView cancel(String orderId) {
        OrderView current = find(orderId).orElseThrow(() -> new OrderNotFoundException(orderId));
        if (current.status() == OrderStatus.CANCELLED) {
            throw new OrderAlreadyCancelledException(orderId);
        }
        Instant now = Instant.now().truncatedTo(ChronoUnit.MILLIS);
        OrderEvent event = OrderEvent.of(OrderEventType.CANCEL, orderId, current.customerId(), current.phone(),
                current.items(), now);
        try {
            return transactions.execute(ORDER_EVENTS_CHANNEL, messageOf(event), () -> cancelLocked(orderId, now));
        } catch (RocketMQTransactionUnknownException e) {
            throw new OrderOutcomeUnknownException(orderId, OrderEventType.CANCEL, e);
        }
    }

    /** The local work of a cancel, inside the JTA transaction of its half message (the connection is enlisted in it). */
    private OrderView cancelLocked(String orderId, Instant now) throws SQLException {
        try (Connection connection = dataSource.getConnection()) {
            // Locked re-read: of two concurrent cancels only one changes the row; the other rolls
            // its half message back and reports the conflict.
            Order order = OrderRows.findForUpdate(connection, orderId)
                    .orElseThrow(() -> new OrderNotFoundException(orderId));
            if (order.status == OrderStatus.CANCELLED) {
                throw new OrderAlreadyCancelledException(orderId);
            }
            order.status = OrderStatus.CANCELLED;
            order.updatedAt = now;
            OrderRows.updateStatus(connection, order);
            return OrderView.of(order);
        }
    }

    public Optional<OrderView> find(String orderId) {
        return read(connection -> OrderRows.find(connection, orderId).map(OrderView::of));
    }

    /** A page of the customer's orders, newest first, and the total count. */
    public OrderPageView pageOfCustomer(String customerId, int page, int size) {
        return read(connection -> {
            List<OrderView> orders = OrderRows.pageOfCustomer(connection, customerId, page, size).stream()
                    .map(OrderView::of).toList();
            return new OrderPageView(orders, page, size, OrderRows.countOfCustomer(connection, customerId));
        });
    }

    private Optional<OrderView> findByIdempotencyKey(String idempotencyKey) {
        return read(connection -> OrderRows.findByIdempotencyKey(connection, idempotencyKey).map(OrderView::of));
    }

    /**
     * A read on a connection of its own (autocommit: committed rows only). A database failure
     * becomes unchecked with the SQLException as its cause, which the REST layer maps (503 when
     * the database is unavailable).
     */
    private <T> T read(Query<T> query) {
        try (Connection connection = dataSource.getConnection()) {
            return query.run(connection);
        } catch (SQLException e) {
            throw new IllegalStateException("Reading orders failed: " + e.getMessage(), e);
        }
    }

    @FunctionalInterface
    private interface Query<T> {
        T run(Connection connection) throws SQLException;
    }

    private static CreateResult replay(OrderView earlier, String fingerprint) {
        if (!fingerprint.equals(earlier.requestHash())) {
            throw new IdempotencyKeyReusedException(earlier.id());
        }
        return new CreateResult(earlier, false);
    }

    /** The message carrying {@code event}: tag create/cancel, KEYS {@code <orderId>:<event>}. */
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
