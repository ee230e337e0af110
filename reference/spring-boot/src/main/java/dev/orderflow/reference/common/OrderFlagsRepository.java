package dev.orderflow.reference.common;

import org.springframework.data.jpa.repository.JpaRepository;
import org.springframework.data.jpa.repository.Modifying;
import org.springframework.data.jpa.repository.Query;
import org.springframework.data.repository.query.Param;

/**
 * The flag updates, one statement each: the row lock orders the three consumers, and whichever
 * sets the last flag also sets {@code completed_at}.
 */
public interface OrderFlagsRepository extends JpaRepository<OrderFlags, String> {

    @Modifying
    @Query(value = "update order_flags set inventory_done = 1, completed_at = case when sms_done = 1 and points_done = 1"
            + " then now(3) else completed_at end where order_id = :orderId", nativeQuery = true)
    int markInventoryDone(@Param("orderId") String orderId);

    @Modifying
    @Query(value = "update order_flags set sms_done = 1, completed_at = case when inventory_done = 1 and points_done = 1"
            + " then now(3) else completed_at end where order_id = :orderId", nativeQuery = true)
    int markSmsDone(@Param("orderId") String orderId);

    @Modifying
    @Query(value = "update order_flags set points_done = 1, completed_at = case when inventory_done = 1 and sms_done = 1"
            + " then now(3) else completed_at end where order_id = :orderId", nativeQuery = true)
    int markPointsDone(@Param("orderId") String orderId);
}
