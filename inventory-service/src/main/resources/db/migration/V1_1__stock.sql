-- inventory-service tables. Versions 1.0.x are the idempotent-consumer library's (consume_record,
-- consume_failure, consume_report, order_event_progress, from classpath:db/migration/common).

-- Units available per SKU. A create locks the rows of its SKUs (FOR UPDATE, in SKU order).
CREATE TABLE stock (
    sku        VARCHAR(64) NOT NULL,
    available  BIGINT      NOT NULL,
    updated_at DATETIME(3) NOT NULL,
    PRIMARY KEY (sku),
    CONSTRAINT ck_stock_available_not_negative CHECK (available >= 0)
) ENGINE = InnoDB DEFAULT CHARSET = utf8mb4;

-- What each order did to the stock: one DEDUCT row per SKU when its create was applied, one RESTORE
-- row per SKU when its cancel gave the units back. The UNIQUE key is a second line of defence
-- behind consume_record: an order can never deduct or restore a SKU twice.
CREATE TABLE stock_movement (
    id         BIGINT       NOT NULL AUTO_INCREMENT,
    order_id   VARCHAR(128) NOT NULL,
    sku        VARCHAR(64)  NOT NULL,
    kind       VARCHAR(16)  NOT NULL,
    quantity   BIGINT       NOT NULL,
    created_at DATETIME(3)  NOT NULL,
    PRIMARY KEY (id),
    CONSTRAINT uk_stock_movement_order_sku_kind UNIQUE (order_id, sku, kind),
    CONSTRAINT ck_stock_movement_quantity_positive CHECK (quantity > 0)
) ENGINE = InnoDB DEFAULT CHARSET = utf8mb4;
