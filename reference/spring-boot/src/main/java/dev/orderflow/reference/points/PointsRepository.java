package dev.orderflow.reference.points;

import org.springframework.data.jpa.repository.JpaRepository;
import org.springframework.data.jpa.repository.Modifying;
import org.springframework.data.jpa.repository.Query;
import org.springframework.data.repository.query.Param;

public interface PointsRepository extends JpaRepository<PointsBalance, String> {

    /** Opens the customer's balance or adds to it, in one statement. */
    @Modifying
    @Query(value = "insert into points (customer_id, balance) values (:customerId, :points)"
            + " on duplicate key update balance = balance + :points", nativeQuery = true)
    int add(@Param("customerId") String customerId, @Param("points") long points);
}
