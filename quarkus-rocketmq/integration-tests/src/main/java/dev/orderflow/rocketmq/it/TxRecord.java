package dev.orderflow.rocketmq.it;

import java.time.Instant;

import jakarta.persistence.Entity;
import jakarta.persistence.Id;
import jakarta.persistence.Table;

import io.quarkus.hibernate.orm.panache.PanacheEntityBase;

/**
 * The local row a transactional send announces, keyed by the message key: the check-back asks
 * "does the row for this key exist?".
 */
@Entity
@Table(name = "it_tx_record")
public class TxRecord extends PanacheEntityBase {

    @Id
    public String messageKey;

    public String payload;

    public Instant createdAt;

    public static TxRecord of(String messageKey, String payload) {
        TxRecord record = new TxRecord();
        record.messageKey = messageKey;
        record.payload = payload;
        record.createdAt = Instant.now();
        return record;
    }
}
