-- points-service tables. Versions 1.0.x are the idempotent-consumer library's (consume_record,
-- consume_failure, consume_report, order_event_progress, from classpath:db/migration/common).

-- Balance per customer; created by the customer's first credited order.
CREATE TABLE points_account (
    customer_id VARCHAR(128) NOT NULL,
    balance     BIGINT       NOT NULL,
    updated_at  DATETIME(3)  NOT NULL,
    PRIMARY KEY (customer_id)
) ENGINE = InnoDB DEFAULT CHARSET = utf8mb4;

-- Every change of a balance: ORDER_CREDIT (points > 0 or 0) when an order's create was applied,
-- ORDER_REVERSAL (minus the same points) when its cancel was. UNIQUE(order_id, reason) is a second
-- line of defence behind consume_record: an order is credited and reversed at most once.
CREATE TABLE points_ledger (
    id          BIGINT       NOT NULL AUTO_INCREMENT,
    order_id    VARCHAR(128) NOT NULL,
    customer_id VARCHAR(128) NOT NULL,
    reason      VARCHAR(32)  NOT NULL,
    points      BIGINT       NOT NULL,
    created_at  DATETIME(3)  NOT NULL,
    PRIMARY KEY (id),
    CONSTRAINT uk_points_ledger_order_reason UNIQUE (order_id, reason),
    INDEX ix_points_ledger_customer (customer_id)
) ENGINE = InnoDB DEFAULT CHARSET = utf8mb4;
