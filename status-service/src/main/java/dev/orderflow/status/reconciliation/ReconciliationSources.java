package dev.orderflow.status.reconciliation;

import java.math.BigDecimal;
import java.time.Instant;
import java.util.ArrayList;
import java.util.Collection;
import java.util.HashSet;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.function.Consumer;
import java.util.function.Function;
import java.util.function.Supplier;

import jakarta.enterprise.context.ApplicationScoped;
import jakarta.inject.Inject;
import jakarta.transaction.Transactional;
import jakarta.ws.rs.ProcessingException;
import jakarta.ws.rs.WebApplicationException;

import org.eclipse.microprofile.rest.client.inject.RestClient;

import dev.orderflow.ledger.EffectLedgerApi;
import dev.orderflow.ledger.LedgerLimits;
import dev.orderflow.ledger.LedgerOrder;
import dev.orderflow.ledger.OrderPage;
import dev.orderflow.ledger.RecordedEffect;
import dev.orderflow.order.events.OwedEffects;
import dev.orderflow.status.domain.ConsumerOutcome;

/**
 * Reads what reconciliation compares: orders from order-service's ledger API, the effects
 * inventory, points and sms wrote from theirs (each service answers for its own data, with a service
 * token), and this service's own {@code order_consumer_outcome} (a consumer that REJECTED a create
 * owes no effect). A service that cannot be reached or answers an error fails the run with a
 * {@link ReconciliationException} naming it.
 */
@ApplicationScoped
public class ReconciliationSources {

    /** An order in the window: its id, amount, status (CREATED, COMPLETED, CANCELLED or FAILED), times and units per SKU. */
    public record OrderRow(String id, BigDecimal amount, String status, Instant createdAt, Instant updatedAt,
            Map<String, Long> skus) {
    }

    /** A consumer's outcome of an order event as this service recorded it (DONE | REJECTED | DEAD_LETTERED). */
    public record OutcomeRow(String orderId, String consumer, String eventType, String outcome) {
    }

    private static final String ORDER_SERVICE = "order-service";

    private final LedgerClients.Orders orders;
    private final Map<OwedEffects.Consumer, EffectLedgerApi> effects;

    @Inject
    public ReconciliationSources(@RestClient LedgerClients.Orders orders, @RestClient LedgerClients.Inventory inventory,
            @RestClient LedgerClients.Points points, @RestClient LedgerClients.Sms sms) {
        this.orders = orders;
        this.effects = Map.of(OwedEffects.Consumer.INVENTORY, inventory, OwedEffects.Consumer.POINTS, points,
                OwedEffects.Consumer.SMS, sms);
    }

    /**
     * Streams the orders created in [from, to) to {@code work}, a page of at most {@code pageSize} at a
     * time: a run holds one page of orders and their effects, whatever the window. Returns the orders
     * streamed.
     */
    public int forEachOrderChunk(Instant from, Instant to, int pageSize, Consumer<List<OrderRow>> work) {
        String limit = Integer.toString(Math.min(pageSize, LedgerLimits.MAX_PAGE));
        int read = 0;
        String after = null;
        do {
            String cursor = after;
            OrderPage page = call(ORDER_SERVICE, () -> orders.orders(from.toString(), to.toString(), cursor, limit));
            if (page == null || page.orders() == null) {
                throw new ReconciliationException(ORDER_SERVICE + "'s ledger answered no page", null);
            }
            if (!page.orders().isEmpty()) {
                read += page.orders().size();
                work.accept(page.orders().stream().map(ReconciliationSources::row).toList());
            }
            after = page.next();
            if (after != null && (after.equals(cursor) || page.orders().isEmpty())) {
                // A cursor that does not move on would page forever.
                throw new ReconciliationException(ORDER_SERVICE + "'s ledger did not move past cursor " + cursor, null);
            }
        } while (after != null);
        return read;
    }

    /** Which of {@code orderIds} exist as orders (created at any time). */
    public Set<String> existingOrders(Collection<String> orderIds) {
        return new HashSet<>(inBatches(orderIds, batch -> call(ORDER_SERVICE, () -> orders.existing(batch))));
    }

    /** Every effect {@code consumer} wrote for {@code orderIds}. */
    public List<RecordedEffect> effects(OwedEffects.Consumer consumer, Collection<String> orderIds) {
        EffectLedgerApi ledger = effects.get(consumer);
        return inBatches(orderIds, batch -> call(consumer.label() + "-service", () -> ledger.effectsOf(batch)));
    }

    /** This service's recorded outcomes of {@code orderIds}' events (in a transaction: a scheduled run has no request). */
    @Transactional
    public List<OutcomeRow> outcomes(Collection<String> orderIds) {
        List<OutcomeRow> rows = new ArrayList<>();
        for (List<String> batch : batches(orderIds)) {
            ConsumerOutcome.<ConsumerOutcome>list("orderId in ?1", batch).forEach(o -> rows.add(new OutcomeRow(
                    o.orderId, o.consumer, o.eventType, o.outcome.name())));
        }
        return rows;
    }

    /**
     * Streams the distinct order ids named by the effects of {@code consumer} written in [from, to) to
     * {@code work}, at most {@code pageSize} at a time.
     */
    public void forEachEffectOrderIdChunk(OwedEffects.Consumer consumer, Instant from, Instant to, int pageSize,
            Consumer<List<String>> work) {
        EffectLedgerApi ledger = effects.get(consumer);
        int limit = Math.min(pageSize, LedgerLimits.MAX_PAGE);
        String after = null;
        while (true) {
            String cursor = after;
            String service = consumer.label() + "-service";
            List<String> page = call(service,
                    () -> ledger.orderIdsWritten(from.toString(), to.toString(), cursor, Integer.toString(limit)));
            if (page == null) {
                throw new ReconciliationException(service + "'s ledger answered no page", null);
            }
            if (!page.isEmpty()) {
                work.accept(page);
            }
            if (page.size() < limit) {
                return;
            }
            after = page.get(page.size() - 1);
            if (cursor != null && after.compareTo(cursor) <= 0) {
                // Ids that do not ascend past the cursor would page forever.
                throw new ReconciliationException(service + "'s ledger did not move past order id " + cursor, null);
            }
        }
    }

    private static OrderRow row(LedgerOrder order) {
        return new OrderRow(order.id(), order.amount(), order.status(), order.createdAt(), order.updatedAt(),
                order.skus() == null ? Map.of() : order.skus());
    }

    private static <T> List<T> inBatches(Collection<String> ids, Function<List<String>, List<T>> read) {
        List<T> all = new ArrayList<>();
        for (List<String> batch : batches(ids)) {
            all.addAll(read.apply(batch));
        }
        return all;
    }

    /** The ids in lists a ledger call takes ({@link LedgerLimits#MAX_IDS} at most); none for no id. */
    private static List<List<String>> batches(Collection<String> ids) {
        List<String> all = List.copyOf(ids);
        List<List<String>> batches = new ArrayList<>();
        for (int start = 0; start < all.size(); start += LedgerLimits.MAX_IDS) {
            batches.add(all.subList(start, Math.min(all.size(), start + LedgerLimits.MAX_IDS)));
        }
        return batches;
    }

    /**
     * Runs one ledger call; any failure (unreachable, timeout, an error status, an unreadable answer)
     * fails the run, naming the service and what went wrong, never the client's internals.
     */
    private static <T> T call(String service, Supplier<T> ledgerCall) {
        try {
            return ledgerCall.get();
        } catch (WebApplicationException e) {
            int status = e.getResponse().getStatus();
            throw new ReconciliationException(service + "'s ledger answered HTTP " + status
                    + (status == 401 || status == 403 ? " (this service's token or its service role)" : ""), e);
        } catch (ProcessingException e) {
            throw new ReconciliationException(service + "'s ledger could not be reached or read", e);
        } catch (RuntimeException e) {
            throw new ReconciliationException(service + "'s ledger call failed", e);
        }
    }
}
