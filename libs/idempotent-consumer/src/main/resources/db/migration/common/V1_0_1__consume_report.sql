-- Outbox of consumer result reports (dev.orderflow:idempotent-consumer, ConsumeReporter/ConsumeReportRelay).
-- A row is inserted in the same transaction as consume_record and the business effect (DONE/REJECTED)
-- or as the consume_failure row (DEAD_LETTERED), so a report exists if and only if that committed.
-- The relay sends each row to order_result_topic and deletes it after SEND_OK; a crash between the
-- two sends it again (at-least-once: the status service applies reports idempotently).
CREATE TABLE consume_report (
    id             BIGINT        NOT NULL AUTO_INCREMENT,
    consumer_group VARCHAR(128)  NOT NULL,
    message_key    VARCHAR(255)  NOT NULL,
    report_key     VARCHAR(255)  NOT NULL,
    consumer       VARCHAR(32)   NOT NULL,
    outcome        VARCHAR(16)   NOT NULL,
    body           VARCHAR(4000) NOT NULL,
    created_at     DATETIME(3)   NOT NULL,
    PRIMARY KEY (id),
    INDEX ix_consume_report_key (report_key)
) ENGINE = InnoDB DEFAULT CHARSET = utf8mb4;
