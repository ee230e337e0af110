package dev.orderflow.reference.inventory;

import org.springframework.context.annotation.Profile;
import org.springframework.transaction.annotation.Transactional;
import org.springframework.web.bind.annotation.PathVariable;
import org.springframework.web.bind.annotation.PutMapping;
import org.springframework.web.bind.annotation.RequestBody;
import org.springframework.web.bind.annotation.RequestMapping;
import org.springframework.web.bind.annotation.RestController;

/** {@code PUT /stock/{sku}} with {@code {"available":N}}: sets the SKU's stock, answers 200 with it. */
@RestController
@Profile("inventory")
@RequestMapping("/stock")
public class StockController {

    public record StockBody(Long available) {
    }

    public record StockView(String sku, long available) {
    }

    private final StockRepository stock;

    public StockController(StockRepository stock) {
        this.stock = stock;
    }

    @PutMapping("/{sku}")
    @Transactional
    public StockView put(@PathVariable String sku, @RequestBody StockBody body) {
        Stock row = stock.findById(sku).orElseGet(() -> new Stock(sku, 0));
        row.setAvailable(body.available());
        stock.save(row);
        return new StockView(sku, row.getAvailable());
    }
}
