package dev.orderflow.reference.inventory;

import org.springframework.context.annotation.Profile;
import org.springframework.stereotype.Service;
import org.springframework.transaction.annotation.Transactional;

import dev.orderflow.reference.OrderCreated;
import dev.orderflow.reference.common.ConsumeRecord;
import dev.orderflow.reference.common.ConsumeRecordRepository;
import dev.orderflow.reference.common.OrderFlagsRepository;

@Service
@Profile("inventory")
public class InventoryService {

    static final String GROUP = "reference-inventory";

    private final ConsumeRecordRepository consumeRecords;
    private final StockRepository stock;
    private final OrderFlagsRepository flags;

    public InventoryService(ConsumeRecordRepository consumeRecords, StockRepository stock, OrderFlagsRepository flags) {
        this.consumeRecords = consumeRecords;
        this.stock = stock;
        this.flags = flags;
    }

    /** One transaction per message: dedupe record, one decrement per line, the inventory flag. */
    @Transactional
    public void reserve(OrderCreated event) {
        if (consumeRecords.existsByConsumerGroupAndOrderId(GROUP, event.orderId())) {
            return; // a redelivery
        }
        consumeRecords.save(new ConsumeRecord(GROUP, event.orderId()));
        for (OrderCreated.Line line : event.items()) {
            if (stock.decrement(line.sku(), line.quantity()) != 1) {
                throw new IllegalStateException("No stock for " + line.sku() + " x " + line.quantity()
                        + " (order " + event.orderId() + ")");
            }
        }
        flags.markInventoryDone(event.orderId());
    }
}
