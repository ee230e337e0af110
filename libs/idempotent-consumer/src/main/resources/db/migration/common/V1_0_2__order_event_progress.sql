-- Per consumer group and order: which of the order's events this group has consumed
-- (dev.orderflow:idempotent-consumer, CancelBeforeCreateGuard). The row is locked by every create
-- and cancel of the order in that group, so the two are decided one after the other even when
-- they are consumed at the same time on different queues. A CANCELLED_BEFORE_CREATE row is the
-- tombstone that makes a late create apply nothing.
CREATE TABLE order_event_progress (
    consumer_group VARCHAR(128) NOT NULL,
    order_id       VARCHAR(128) NOT NULL,
    state          VARCHAR(32)  NOT NULL,
    updated_at     DATETIME(3)  NOT NULL,
    PRIMARY KEY (consumer_group, order_id),
    INDEX ix_order_event_progress_updated_at (updated_at)
) ENGINE = InnoDB DEFAULT CHARSET = utf8mb4;
