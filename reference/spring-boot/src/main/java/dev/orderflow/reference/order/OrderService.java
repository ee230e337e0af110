package dev.orderflow.reference.order;

import org.springframework.context.annotation.Profile;
import org.springframework.stereotype.Service;
import org.springframework.transaction.annotation.Transactional;

import dev.orderflow.reference.common.OrderFlags;
import dev.orderflow.reference.common.OrderFlagsRepository;

@Service
@Profile("order")
public class OrderService {

    private final PurchaseOrderRepository orders;
    private final OrderFlagsRepository flags;

    public OrderService(PurchaseOrderRepository orders, OrderFlagsRepository flags) {
        this.orders = orders;
        this.flags = flags;
    }

    /** The local transaction of the half message: the order, its items and its flags row. */
    @Transactional
    public void create(PurchaseOrder order) {
        orders.save(order);
        flags.save(new OrderFlags(order.getId()));
    }

    @Transactional(readOnly = true)
    public boolean exists(String orderId) {
        return orders.existsById(orderId);
    }
}
