package dev.orderflow.reference.inventory;

import org.apache.rocketmq.spring.annotation.RocketMQMessageListener;
import org.apache.rocketmq.spring.core.RocketMQListener;
import org.springframework.context.annotation.Profile;
import org.springframework.stereotype.Component;

import dev.orderflow.reference.OrderCreated;

@Component
@Profile("inventory")
@RocketMQMessageListener(topic = "${reference.topic}", consumerGroup = InventoryService.GROUP)
public class InventoryListener implements RocketMQListener<OrderCreated> {

    private final InventoryService inventory;

    public InventoryListener(InventoryService inventory) {
        this.inventory = inventory;
    }

    @Override
    public void onMessage(OrderCreated event) {
        inventory.reserve(event);
    }
}
