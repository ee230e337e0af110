package dev.orderflow.order.rest;

import java.util.List;

import jakarta.annotation.security.RolesAllowed;
import jakarta.inject.Inject;

import dev.orderflow.ledger.LedgerOrder;
import dev.orderflow.ledger.LedgerRequests;
import dev.orderflow.ledger.OrderLedgerApi;
import dev.orderflow.ledger.OrderPage;
import dev.orderflow.order.service.OrderLedger;
import dev.orderflow.security.Roles;

/**
 * The orders as status-service's reconciliation reads them. Paths, parameters and bodies come from {@link OrderLedgerApi}; services and staff may
 * call it, customers may not (it spans every customer's orders).
 */
public class OrderLedgerResource implements OrderLedgerApi {

    private final OrderLedger ledger;

    @Inject
    public OrderLedgerResource(OrderLedger ledger) {
        this.ledger = ledger;
    }

    @Override
    @RolesAllowed({ Roles.SERVICE, Roles.VIEWER, Roles.OPERATOR, Roles.APPROVER })
    public OrderPage orders(String from, String to, String after, String limit) {
        LedgerRequests.Window window = LedgerRequests.window(from, to, limit);
        OrderLedger.Position position = LedgerCursor.decode(after);
        List<LedgerOrder> orders = ledger.page(window.from(), window.to(), position, window.limit());
        if (orders.size() < window.limit()) {
            return new OrderPage(orders, null);
        }
        // A full page may be the last one too: the next call then answers an empty page.
        LedgerOrder last = orders.get(orders.size() - 1);
        return new OrderPage(orders, LedgerCursor.encode(new OrderLedger.Position(last.createdAt(), last.id())));
    }

    @Override
    @RolesAllowed({ Roles.SERVICE, Roles.VIEWER, Roles.OPERATOR, Roles.APPROVER })
    public List<String> existing(List<String> orderIds) {
        return ledger.existing(LedgerRequests.orderIds(orderIds));
    }
}
