package dev.orderflow.reference.sms;

import org.apache.rocketmq.spring.annotation.RocketMQMessageListener;
import org.apache.rocketmq.spring.core.RocketMQListener;
import org.springframework.context.annotation.Profile;
import org.springframework.stereotype.Component;

import dev.orderflow.reference.OrderCreated;

@Component
@Profile("sms")
@RocketMQMessageListener(topic = "${reference.topic}", consumerGroup = SmsService.GROUP)
public class SmsListener implements RocketMQListener<OrderCreated> {

    private final SmsService sms;

    public SmsListener(SmsService sms) {
        this.sms = sms;
    }

    @Override
    public void onMessage(OrderCreated event) {
        sms.send(event);
    }
}
