-- Business tables of the pipeline's test app.

-- One row per applied effect, deliberately without a unique key: only the pipeline prevents doubles.
CREATE TABLE test_effect (
    id          BIGINT       NOT NULL AUTO_INCREMENT,
    message_key VARCHAR(255) NOT NULL,
    PRIMARY KEY (id),
    INDEX ix_test_effect_key (message_key)
) ENGINE = InnoDB;

-- A row the transient-failure test locks from another connection.
CREATE TABLE test_stock (
    sku       VARCHAR(64) NOT NULL,
    available INT         NOT NULL,
    PRIMARY KEY (sku)
) ENGINE = InnoDB;

INSERT INTO test_stock (sku, available) VALUES ('SKU-LOCKED', 10);
