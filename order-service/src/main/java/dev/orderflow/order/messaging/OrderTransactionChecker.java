package dev.orderflow.order.messaging;

import java.time.Duration;
import java.time.Instant;
import java.util.Optional;

import jakarta.enterprise.context.ApplicationScoped;
import jakarta.enterprise.context.control.ActivateRequestContext;
import jakarta.inject.Inject;

import org.jboss.logging.Logger;

import dev.orderflow.order.config.OrderServiceConfig;
import dev.orderflow.order.domain.Order;
import dev.orderflow.order.domain.OrderStatus;
import dev.orderflow.order.events.OrderMessaging;
import dev.orderflow.order.service.OrderService;
import dev.orderflow.rocketmq.RocketMQTransactionChecker;
import dev.orderflow.rocketmq.TransactionCheck;
import dev.orderflow.rocketmq.TransactionResolution;
import io.smallrye.common.annotation.Identifier;

/**
 * Settles half messages whose sender did not report the outcome (crash, lost commit), from the
 * orders table, which every instance shares:
 * <ul>
 * <li>{@code create}: the order row exists → COMMIT.</li>
 * <li>{@code cancel}: the order is CANCELLED → COMMIT.</li>
 * <li>{@code fail}: the order is FAILED → COMMIT.</li>
 * <li>otherwise, half message older than {@code order-service.messaging.rollback-unconfirmed-after}
 * → ROLLBACK (its local transaction can no longer commit); younger → UNKNOWN (it may still be
 * running; the broker asks again).</li>
 * </ul>
 * A database error is answered UNKNOWN: the broker asks again later.
 */
@ApplicationScoped
@Identifier(OrderService.ORDER_EVENTS_CHANNEL)
public class OrderTransactionChecker implements RocketMQTransactionChecker {

    private static final Logger LOG = Logger.getLogger(OrderTransactionChecker.class);

    private final Duration rollbackAfter;

    @Inject
    public OrderTransactionChecker(OrderServiceConfig config) {
        this.rollbackAfter = config.messaging().rollbackUnconfirmedAfter();
    }

    /** Reads the committed order row outside any transaction, in a request context of its own (the broker's callback thread has none). */
    @Override
    @ActivateRequestContext
    public TransactionResolution check(TransactionCheck check) {
        OrderMessaging.MessageKey key = OrderMessaging.parseMessageKey(check.key());
        boolean committed;
        if (key == null) {
            LOG.errorf("Check-back for a half message without an order key (keys=%s, tx=%s)", check.keys(),
                    check.transactionId());
            committed = false;
        } else {
            try {
                Optional<OrderStatus> status = Order.<Order> findByIdOptional(key.orderId()).map(order -> order.status);
                committed = switch (key.eventType()) {
                    case CREATE -> status.isPresent();
                    case CANCEL -> status.filter(OrderStatus.CANCELLED::equals).isPresent();
                    case FAIL -> status.filter(OrderStatus.FAILED::equals).isPresent();
                };
            } catch (RuntimeException e) {
                LOG.warnf(e, "Check-back for %s answered UNKNOWN: the database could not be read", check.key());
                return TransactionResolution.UNKNOWN;
            }
        }
        TransactionResolution resolution = committed ? TransactionResolution.COMMIT
                : isOlderThanWindow(check.bornTimestamp()) ? TransactionResolution.ROLLBACK
                : TransactionResolution.UNKNOWN;
        LOG.infof("Check-back for %s (tx %s) answered %s", check.key(), check.transactionId(), resolution);
        return resolution;
    }

    private boolean isOlderThanWindow(long bornTimestamp) {
        return Instant.ofEpochMilli(bornTimestamp).plus(rollbackAfter).isBefore(Instant.now());
    }
}
