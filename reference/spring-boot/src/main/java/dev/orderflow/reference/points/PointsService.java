package dev.orderflow.reference.points;

import java.math.RoundingMode;

import org.springframework.context.annotation.Profile;
import org.springframework.stereotype.Service;
import org.springframework.transaction.annotation.Transactional;

import dev.orderflow.reference.OrderCreated;
import dev.orderflow.reference.common.ConsumeRecord;
import dev.orderflow.reference.common.ConsumeRecordRepository;
import dev.orderflow.reference.common.OrderFlagsRepository;

@Service
@Profile("points")
public class PointsService {

    static final String GROUP = "reference-points";

    private final ConsumeRecordRepository consumeRecords;
    private final PointsRepository points;
    private final OrderFlagsRepository flags;

    public PointsService(ConsumeRecordRepository consumeRecords, PointsRepository points, OrderFlagsRepository flags) {
        this.consumeRecords = consumeRecords;
        this.points = points;
        this.flags = flags;
    }

    /** One transaction per message: dedupe record, floor(amount) points (as points-service at rate 1), the points flag. */
    @Transactional
    public void credit(OrderCreated event) {
        if (consumeRecords.existsByConsumerGroupAndOrderId(GROUP, event.orderId())) {
            return; // a redelivery
        }
        consumeRecords.save(new ConsumeRecord(GROUP, event.orderId()));
        points.add(event.customerId(), event.amount().setScale(0, RoundingMode.FLOOR).longValueExact());
        flags.markPointsDone(event.orderId());
    }
}
