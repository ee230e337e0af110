-- sms-service schema. Versions 1.0.x belong to the idempotent-consumer library (consume_record,
-- consume_failure, consume_report, order_event_progress: db/migration/common in its jar); this
-- service's scripts start at 1.1.

-- One row per text the service has decided to send: written by the order-event consumer in the
-- same transaction as its consume_record row (so the intent exists iff the message was consumed),
-- then sent by the dispatcher. business_key (<orderId>:<eventType>) is UNIQUE, is the message key
-- the pipeline dedupes on, and is the Idempotency-Key given to the gateway on every attempt.
CREATE TABLE sms_outbox (
    id              BIGINT        NOT NULL AUTO_INCREMENT,
    business_key    VARCHAR(255)  NOT NULL,
    order_id        VARCHAR(64)   NOT NULL,
    event_type      VARCHAR(16)   NOT NULL,
    phone           VARCHAR(32)   NOT NULL,
    text            VARCHAR(640)  NOT NULL,
    -- PENDING (not sent yet, or claimed by a dispatcher until next_attempt_at), SENT, FAILED.
    status          VARCHAR(16)   NOT NULL,
    -- Send attempts started, counted when a dispatcher claims the row.
    attempts        INT           NOT NULL DEFAULT 0,
    last_error      VARCHAR(1024) NULL,
    -- A PENDING row is due at this time: its first try, its next retry, or the end of a claim.
    next_attempt_at DATETIME(3)   NOT NULL,
    -- Identifies the current claim, so only the claiming dispatcher records the result.
    claim_token     VARCHAR(36)   NULL,
    created_at      DATETIME(3)   NOT NULL,
    updated_at      DATETIME(3)   NOT NULL,
    sent_at         DATETIME(3)   NULL,
    PRIMARY KEY (id),
    CONSTRAINT uk_sms_outbox_business_key UNIQUE (business_key),
    INDEX ix_sms_outbox_due (status, next_attempt_at),
    INDEX ix_sms_outbox_order (order_id, event_type)
) ENGINE = InnoDB DEFAULT CHARSET = utf8mb4;
