-- status-service: what every required consumer did with each order's events.
-- Versions 1.0.x belong to the idempotent-consumer library (consume_record, consume_failure);
-- this service's scripts start at 1.1. Instants are UTC (quarkus.hibernate-orm.jdbc.timezone=UTC).

-- One row per order. A report or dead letter may arrive before the order's create event: the row
-- is then created "unopened" (created_at NULL) and the create event opens it. The API answers
-- 404 for unopened rows.
CREATE TABLE order_message_consume_status (
    order_id            VARCHAR(64)   NOT NULL,
    -- PENDING | COMPLETED | FAILED | CANCELLED, derived from order_consumer_outcome by StateRules.
    state               VARCHAR(16)   NOT NULL,
    -- When the order was created (the create event's occurredAt); NULL until the create arrives.
    created_at          DATETIME(3)   NULL,
    -- When the cancel event (or a first cancel report) arrived; NULL when no cancel was requested.
    cancel_requested_at DATETIME(3)   NULL,
    -- First time this service heard of the order (any input), and the last change.
    first_seen_at       DATETIME(3)   NOT NULL,
    updated_at          DATETIME(3)   NOT NULL,
    -- When every required consumer was first seen DONE for the create; never cleared.
    completed_at        DATETIME(3)   NULL,
    -- The first failure that made the order FAILED; stable while it stays FAILED.
    failure_consumer    VARCHAR(32)   NULL,
    failure_class       VARCHAR(16)   NULL,
    failure_reason      VARCHAR(1024) NULL,
    PRIMARY KEY (order_id),
    INDEX ix_status_state_created (state, created_at, order_id),
    INDEX ix_status_completed_at (completed_at)
) ENGINE = InnoDB DEFAULT CHARSET = utf8mb4;

-- One row per (order, consumer, event): what that consumer did with that event. Every consumer
-- that reports is kept, required or not, so that adding a consumer to the required set later
-- takes its earlier reports into account.
CREATE TABLE order_consumer_outcome (
    order_id      VARCHAR(64)   NOT NULL,
    consumer      VARCHAR(32)   NOT NULL,
    event_type    VARCHAR(8)    NOT NULL,  -- create | cancel
    outcome       VARCHAR(16)   NOT NULL,  -- DONE | REJECTED | DEAD_LETTERED
    failure_class VARCHAR(16)   NULL,      -- format | business | system (DEAD_LETTERED only)
    reason        VARCHAR(1024) NULL,
    -- When the consumer committed the outcome (report) or the message was dead-lettered.
    occurred_at   DATETIME(3)   NOT NULL,
    -- Where this service learned it: report | dead-letter-queue.
    source        VARCHAR(24)   NOT NULL,
    recorded_at   DATETIME(3)   NOT NULL,
    PRIMARY KEY (order_id, consumer, event_type),
    CONSTRAINT fk_outcome_status FOREIGN KEY (order_id) REFERENCES order_message_consume_status (order_id)
) ENGINE = InnoDB DEFAULT CHARSET = utf8mb4;
