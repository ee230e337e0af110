package dev.orderflow.consumer;

import java.io.Serializable;
import java.time.Instant;
import java.util.Objects;

import jakarta.persistence.Column;
import jakarta.persistence.Entity;
import jakarta.persistence.Id;
import jakarta.persistence.IdClass;
import jakarta.persistence.Table;

import io.quarkus.hibernate.orm.panache.PanacheEntityBase;

/**
 * What a consumer group has consumed of an order (table {@code order_event_progress}, see
 * {@code V1_0_2__order_event_progress.sql}), kept by {@link CancelBeforeCreateGuard}.
 */
@Entity
@Table(name = "order_event_progress")
@IdClass(OrderEventProgress.Key.class)
public class OrderEventProgress extends PanacheEntityBase {

    @Id
    @Column(name = "consumer_group")
    public String consumerGroup;

    @Id
    @Column(name = "order_id")
    public String orderId;

    /** A {@code CancelBeforeCreateGuard.State} name, or {@code NEW} while the group has consumed nothing of the order. */
    public String state;

    @Column(name = "updated_at")
    public Instant updatedAt;

    /** The identity of a progress row: group and order. */
    public static class Key implements Serializable {

        public String consumerGroup;
        public String orderId;

        @Override
        public boolean equals(Object other) {
            return other instanceof Key key && Objects.equals(consumerGroup, key.consumerGroup)
                    && Objects.equals(orderId, key.orderId);
        }

        @Override
        public int hashCode() {
            return Objects.hash(consumerGroup, orderId);
        }
    }
}
