-- Orders and their lines. Money is DECIMAL (never floating point); timestamps keep milliseconds
-- and hold UTC (quarkus.hibernate-orm.jdbc.timezone=UTC).

CREATE TABLE orders (
    id              VARCHAR(26)    NOT NULL,  -- ULID: unique and time-ordered
    customer_id     VARCHAR(64)    NOT NULL,
    phone           VARCHAR(32)    NOT NULL,
    amount          DECIMAL(15, 2) NOT NULL,
    status          VARCHAR(16)    NOT NULL,
    -- Client-supplied Idempotency-Key and the hash of the request it came with (same key with
    -- another body → 422). NULL when the client sent no key; UNIQUE ignores NULLs.
    idempotency_key VARCHAR(128)   NULL,
    request_hash    CHAR(64)       NULL,
    created_at      DATETIME(3)    NOT NULL,
    updated_at      DATETIME(3)    NOT NULL,
    version         INT            NOT NULL DEFAULT 0,
    PRIMARY KEY (id),
    CONSTRAINT uk_orders_idempotency_key UNIQUE (idempotency_key),
    INDEX ix_orders_customer_created (customer_id, created_at)
) ENGINE = InnoDB DEFAULT CHARSET = utf8mb4;

CREATE TABLE order_items (
    id         BIGINT         NOT NULL AUTO_INCREMENT,
    order_id   VARCHAR(26)    NOT NULL,
    line_no    INT            NOT NULL,
    sku        VARCHAR(64)    NOT NULL,
    quantity   INT            NOT NULL,
    unit_price DECIMAL(12, 2) NOT NULL,
    PRIMARY KEY (id),
    CONSTRAINT uk_order_items_line UNIQUE (order_id, line_no),
    CONSTRAINT fk_order_items_order FOREIGN KEY (order_id) REFERENCES orders (id),
    CONSTRAINT ck_order_items_quantity CHECK (quantity > 0),
    CONSTRAINT ck_order_items_unit_price CHECK (unit_price >= 0)
) ENGINE = InnoDB DEFAULT CHARSET = utf8mb4;
