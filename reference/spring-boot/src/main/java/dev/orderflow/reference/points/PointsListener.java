package dev.orderflow.reference.points;

import org.apache.rocketmq.spring.annotation.RocketMQMessageListener;
import org.apache.rocketmq.spring.core.RocketMQListener;
import org.springframework.context.annotation.Profile;
import org.springframework.stereotype.Component;

import dev.orderflow.reference.OrderCreated;

@Component
@Profile("points")
@RocketMQMessageListener(topic = "${reference.topic}", consumerGroup = PointsService.GROUP)
public class PointsListener implements RocketMQListener<OrderCreated> {

    private final PointsService points;

    public PointsListener(PointsService points) {
        this.points = points;
    }

    @Override
    public void onMessage(OrderCreated event) {
        points.credit(event);
    }
}
