-- Tables of the idempotent-consumer pipeline (dev.orderflow:idempotent-consumer).
-- Shipped in the jar; each consumer service adds classpath:db/migration/common to
-- quarkus.flyway.locations. Versions 1.0.x belong to this library: service migrations start at 1.1.

-- One row per (consumer group, business message key) whose effect committed. Written in the same
-- transaction as the effect: the UNIQUE key is what makes redelivery harmless.
CREATE TABLE consume_record (
    id             BIGINT       NOT NULL AUTO_INCREMENT,
    consumer_group VARCHAR(128) NOT NULL,
    message_key    VARCHAR(255) NOT NULL,
    msg_id         VARCHAR(128) NULL,
    outcome        VARCHAR(16)  NOT NULL,
    outcome_reason VARCHAR(1024) NULL,
    processed_at   DATETIME(3)  NOT NULL,
    PRIMARY KEY (id),
    CONSTRAINT uk_consume_record_group_key UNIQUE (consumer_group, message_key),
    INDEX ix_consume_record_processed_at (processed_at)
) ENGINE = InnoDB DEFAULT CHARSET = utf8mb4;

-- One row per failed delivery attempt, written in its own transaction (it must survive the
-- rollback of the business transaction): what failed, why, and how often.
CREATE TABLE consume_failure (
    id             BIGINT        NOT NULL AUTO_INCREMENT,
    consumer_group VARCHAR(128)  NOT NULL,
    message_key    VARCHAR(255)  NULL,
    msg_id         VARCHAR(128)  NULL,
    failure_class  VARCHAR(16)   NOT NULL,
    permanent      BOOLEAN       NOT NULL,
    reason         VARCHAR(1024) NOT NULL,
    attempt        INT           NOT NULL,
    failed_at      DATETIME(3)   NOT NULL,
    PRIMARY KEY (id),
    INDEX ix_consume_failure_group_key (consumer_group, message_key),
    INDEX ix_consume_failure_failed_at (failed_at)
) ENGINE = InnoDB DEFAULT CHARSET = utf8mb4;
