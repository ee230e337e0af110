package dev.orderflow.consumer;

import java.io.Serializable;
import java.time.Instant;
import java.util.Objects;

import jakarta.persistence.Column;
import jakarta.persistence.Entity;
import jakarta.persistence.EnumType;
import jakarta.persistence.Enumerated;
import jakarta.persistence.Id;
import jakarta.persistence.IdClass;
import jakarta.persistence.Table;

import io.quarkus.hibernate.orm.panache.PanacheEntityBase;

/**
 * A message a consumer group has processed (table {@code consume_record}, see
 * {@code V1_0__consume_record.sql}): the pipeline's dedupe claim. Its identity is the pair the
 * table's unique key holds, {@code (consumer_group, message_key)}; the surrogate {@code id} column
 * is filled by the database and left unmapped, so that a batch's claims are assigned-key inserts,
 * which go to the server as one bulk command (Hibernate inserts rows whose id the table generates
 * one at a time).
 */
@Entity
@Table(name = "consume_record")
@IdClass(ConsumeRecord.Key.class)
public class ConsumeRecord extends PanacheEntityBase {

    @Id
    @Column(name = "consumer_group")
    public String consumerGroup;

    /** The business key deduped on. */
    @Id
    @Column(name = "message_key")
    public String messageKey;

    /** The broker's id of the delivery that claimed the key (for the operator). */
    @Column(name = "msg_id")
    public String msgId;

    @Enumerated(EnumType.STRING)
    public Outcome.Status outcome;

    /** The handler's reason, cut to {@link ConsumeFailure#MAX_REASON_LENGTH}; null for a plain DONE. */
    @Column(name = "outcome_reason")
    public String outcomeReason;

    @Column(name = "processed_at")
    public Instant processedAt;

    /** The identity of a record: group and business key. */
    public static class Key implements Serializable {

        public String consumerGroup;
        public String messageKey;

        @Override
        public boolean equals(Object other) {
            return other instanceof Key key && Objects.equals(consumerGroup, key.consumerGroup)
                    && Objects.equals(messageKey, key.messageKey);
        }

        @Override
        public int hashCode() {
            return Objects.hash(consumerGroup, messageKey);
        }
    }
}
