package dev.orderflow.reference.status;

import java.time.LocalDateTime;

import org.springframework.context.annotation.Profile;
import org.springframework.http.HttpStatus;
import org.springframework.web.bind.annotation.GetMapping;
import org.springframework.web.bind.annotation.PathVariable;
import org.springframework.web.bind.annotation.RestController;
import org.springframework.web.server.ResponseStatusException;

import dev.orderflow.reference.common.OrderFlags;
import dev.orderflow.reference.common.OrderFlagsRepository;

/** {@code GET /orders/{id}/status}: the order's flags. */
@RestController
@Profile("status")
public class StatusController {

    public record StatusView(String orderId, String state, boolean inventoryDone, boolean smsDone, boolean pointsDone,
            LocalDateTime completedAt) {
    }

    private final OrderFlagsRepository flags;

    public StatusController(OrderFlagsRepository flags) {
        this.flags = flags;
    }

    @GetMapping("/orders/{id}/status")
    public StatusView status(@PathVariable String id) {
        OrderFlags row = flags.findById(id)
                .orElseThrow(() -> new ResponseStatusException(HttpStatus.NOT_FOUND, "No order " + id));
        return new StatusView(id, row.getCompletedAt() != null ? "COMPLETED" : "PENDING", row.isInventoryDone(),
                row.isSmsDone(), row.isPointsDone(), row.getCompletedAt());
    }
}
