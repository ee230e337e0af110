package dev.orderflow.reference.inventory;

import org.springframework.data.jpa.repository.JpaRepository;
import org.springframework.data.jpa.repository.Modifying;
import org.springframework.data.jpa.repository.Query;
import org.springframework.data.repository.query.Param;

public interface StockRepository extends JpaRepository<Stock, String> {

    /** Takes {@code quantity} off the SKU's stock in one statement; 0 rows when unknown or short. */
    @Modifying
    @Query("update Stock s set s.available = s.available - :quantity where s.sku = :sku and s.available >= :quantity")
    int decrement(@Param("sku") String sku, @Param("quantity") long quantity);
}
