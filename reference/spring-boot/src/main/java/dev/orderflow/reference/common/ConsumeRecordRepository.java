package dev.orderflow.reference.common;

import org.springframework.data.jpa.repository.JpaRepository;

public interface ConsumeRecordRepository extends JpaRepository<ConsumeRecord, Long> {

    boolean existsByConsumerGroupAndOrderId(String consumerGroup, String orderId);
}
