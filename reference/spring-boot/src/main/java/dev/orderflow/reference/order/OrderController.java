package dev.orderflow.reference.order;

import java.math.BigDecimal;
import java.math.RoundingMode;
import java.net.URI;
import java.util.List;
import java.util.UUID;

import org.apache.rocketmq.client.producer.LocalTransactionState;
import org.apache.rocketmq.client.producer.SendStatus;
import org.apache.rocketmq.client.producer.TransactionSendResult;
import org.apache.rocketmq.spring.core.RocketMQTemplate;
import org.apache.rocketmq.spring.support.RocketMQHeaders;
import org.springframework.beans.factory.annotation.Value;
import org.springframework.context.annotation.Profile;
import org.springframework.http.HttpStatus;
import org.springframework.http.ResponseEntity;
import org.springframework.messaging.Message;
import org.springframework.messaging.support.MessageBuilder;
import org.springframework.web.bind.annotation.PostMapping;
import org.springframework.web.bind.annotation.RequestBody;
import org.springframework.web.bind.annotation.RequestMapping;
import org.springframework.web.bind.annotation.RestController;
import org.springframework.web.server.ResponseStatusException;

import com.fasterxml.jackson.annotation.JsonFormat;

import dev.orderflow.reference.OrderCreated;

/** {@code POST /orders}: the body order-service takes; answers 201 once the transactional send committed. */
@RestController
@Profile("order")
@RequestMapping("/orders")
public class OrderController {

    public record CreateOrderRequest(String customerId, String phone, List<Item> items) {

        public record Item(String sku, Integer quantity, BigDecimal unitPrice) {
        }
    }

    public record Created(String orderId, String status,
            @JsonFormat(shape = JsonFormat.Shape.STRING) BigDecimal amount) {
    }

    private final RocketMQTemplate rocketMQTemplate;
    private final String topic;

    public OrderController(RocketMQTemplate rocketMQTemplate, @Value("${reference.topic}") String topic) {
        this.rocketMQTemplate = rocketMQTemplate;
        this.topic = topic;
    }

    @PostMapping
    public ResponseEntity<Created> create(@RequestBody CreateOrderRequest request) {
        validate(request);
        String orderId = UUID.randomUUID().toString();
        BigDecimal amount = BigDecimal.ZERO;
        for (CreateOrderRequest.Item item : request.items()) {
            amount = amount.add(item.unitPrice().multiply(BigDecimal.valueOf(item.quantity())));
        }
        amount = amount.setScale(2, RoundingMode.UNNECESSARY);

        PurchaseOrder order = new PurchaseOrder(orderId, request.customerId(), request.phone(), amount);
        request.items().forEach(i -> order.addItem(i.sku(), i.quantity(), i.unitPrice()));
        OrderCreated event = new OrderCreated(orderId, request.customerId(), request.phone(), amount,
                request.items().stream().map(i -> new OrderCreated.Line(i.sku(), i.quantity())).toList());
        Message<OrderCreated> message = MessageBuilder.withPayload(event).setHeader(RocketMQHeaders.KEYS, orderId).build();

        TransactionSendResult result = rocketMQTemplate.sendMessageInTransaction(topic, message, order);
        if (result.getSendStatus() != SendStatus.SEND_OK
                || result.getLocalTransactionState() != LocalTransactionState.COMMIT_MESSAGE) {
            throw new ResponseStatusException(HttpStatus.SERVICE_UNAVAILABLE,
                    "Order not placed: " + result.getSendStatus() + " / " + result.getLocalTransactionState());
        }
        return ResponseEntity.created(URI.create("/orders/" + orderId + "/status"))
                .body(new Created(orderId, "CREATED", amount));
    }

    private static void validate(CreateOrderRequest request) {
        if (request.customerId() == null || request.customerId().isBlank() || request.phone() == null
                || request.items() == null || request.items().isEmpty()) {
            throw new ResponseStatusException(HttpStatus.BAD_REQUEST, "customerId, phone and items are required");
        }
        for (CreateOrderRequest.Item item : request.items()) {
            if (item.sku() == null || item.quantity() == null || item.quantity() < 1 || item.unitPrice() == null
                    || item.unitPrice().signum() < 0 || item.unitPrice().scale() > 2) {
                throw new ResponseStatusException(HttpStatus.BAD_REQUEST,
                        "each item needs a sku, a quantity >= 1 and a unitPrice with at most two decimals");
            }
        }
    }
}
