package dev.orderflow.reference.order;

import java.io.IOException;

import org.apache.rocketmq.spring.annotation.RocketMQTransactionListener;
import org.apache.rocketmq.spring.core.RocketMQLocalTransactionListener;
import org.apache.rocketmq.spring.core.RocketMQLocalTransactionState;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;
import org.springframework.context.annotation.Profile;
import org.springframework.messaging.Message;

import com.fasterxml.jackson.databind.ObjectMapper;

import dev.orderflow.reference.OrderCreated;

/** Commits the order in the database, then lets the half message through; a check-back looks the order up. */
@Profile("order")
@RocketMQTransactionListener
public class OrderTransactionListener implements RocketMQLocalTransactionListener {

    private static final Logger LOG = LoggerFactory.getLogger(OrderTransactionListener.class);

    private final OrderService orderService;
    private final ObjectMapper objectMapper;

    public OrderTransactionListener(OrderService orderService, ObjectMapper objectMapper) {
        this.orderService = orderService;
        this.objectMapper = objectMapper;
    }

    @Override
    public RocketMQLocalTransactionState executeLocalTransaction(Message msg, Object arg) {
        PurchaseOrder order = (PurchaseOrder) arg;
        try {
            orderService.create(order);
            return RocketMQLocalTransactionState.COMMIT;
        } catch (RuntimeException e) {
            LOG.error("Order {} not saved", order.getId(), e);
            return RocketMQLocalTransactionState.ROLLBACK;
        }
    }

    @Override
    public RocketMQLocalTransactionState checkLocalTransaction(Message msg) {
        try {
            OrderCreated event = objectMapper.readValue((byte[]) msg.getPayload(), OrderCreated.class);
            // Not found may still mean "not committed yet": let the broker ask again later.
            return orderService.exists(event.orderId()) ? RocketMQLocalTransactionState.COMMIT
                    : RocketMQLocalTransactionState.UNKNOWN;
        } catch (IOException e) {
            LOG.error("Unreadable half message", e);
            return RocketMQLocalTransactionState.ROLLBACK;
        }
    }
}
