package dev.orderflow.reference.sms;

import org.springframework.context.annotation.Profile;
import org.springframework.stereotype.Service;
import org.springframework.transaction.annotation.Transactional;

import dev.orderflow.reference.OrderCreated;
import dev.orderflow.reference.common.ConsumeRecord;
import dev.orderflow.reference.common.ConsumeRecordRepository;
import dev.orderflow.reference.common.OrderFlagsRepository;

@Service
@Profile("sms")
public class SmsService {

    static final String GROUP = "reference-sms";

    private final ConsumeRecordRepository consumeRecords;
    private final SmsLogRepository smsLog;
    private final OrderFlagsRepository flags;

    public SmsService(ConsumeRecordRepository consumeRecords, SmsLogRepository smsLog, OrderFlagsRepository flags) {
        this.consumeRecords = consumeRecords;
        this.smsLog = smsLog;
        this.flags = flags;
    }

    /** One transaction per message: dedupe record, the text's log row, the sms flag. */
    @Transactional
    public void send(OrderCreated event) {
        if (consumeRecords.existsByConsumerGroupAndOrderId(GROUP, event.orderId())) {
            return; // a redelivery
        }
        consumeRecords.save(new ConsumeRecord(GROUP, event.orderId()));
        smsLog.save(new SmsLog(event.orderId(), event.phone(),
                "Thank you for your order " + event.orderId() + " of " + event.amount()));
        flags.markSmsDone(event.orderId());
    }
}
