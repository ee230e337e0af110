CREATE TABLE IF NOT EXISTS orders (
    id VARCHAR(36) NOT NULL PRIMARY KEY,
    customer_id VARCHAR(64) NOT NULL,
    phone VARCHAR(32) NOT NULL,
    amount DECIMAL(12, 2) NOT NULL,
    created_at DATETIME(3) NOT NULL DEFAULT CURRENT_TIMESTAMP(3),
    status VARCHAR(16) NOT NULL
) ENGINE = InnoDB;

CREATE TABLE IF NOT EXISTS order_items (
    id BIGINT NOT NULL AUTO_INCREMENT PRIMARY KEY,
    order_id VARCHAR(36) NOT NULL,
    sku VARCHAR(64) NOT NULL,
    quantity INT NOT NULL,
    unit_price DECIMAL(12, 2) NOT NULL,
    KEY order_items_order (order_id),
    CONSTRAINT order_items_order_fk FOREIGN KEY (order_id) REFERENCES orders (id)
) ENGINE = InnoDB;

CREATE TABLE IF NOT EXISTS order_flags (
    order_id VARCHAR(36) NOT NULL PRIMARY KEY,
    inventory_done BOOLEAN NOT NULL DEFAULT FALSE,
    sms_done BOOLEAN NOT NULL DEFAULT FALSE,
    points_done BOOLEAN NOT NULL DEFAULT FALSE,
    completed_at DATETIME(3) NULL
) ENGINE = InnoDB;

CREATE TABLE IF NOT EXISTS stock (
    sku VARCHAR(64) NOT NULL PRIMARY KEY,
    available BIGINT NOT NULL
) ENGINE = InnoDB;

CREATE TABLE IF NOT EXISTS points (
    customer_id VARCHAR(64) NOT NULL PRIMARY KEY,
    balance BIGINT NOT NULL
) ENGINE = InnoDB;

CREATE TABLE IF NOT EXISTS sms_log (
    id BIGINT NOT NULL AUTO_INCREMENT PRIMARY KEY,
    order_id VARCHAR(36) NOT NULL,
    phone VARCHAR(32) NOT NULL,
    text VARCHAR(255) NOT NULL,
    sent_at DATETIME(3) NOT NULL,
    KEY sms_log_order (order_id)
) ENGINE = InnoDB;

CREATE TABLE IF NOT EXISTS consume_record (
    id BIGINT NOT NULL AUTO_INCREMENT PRIMARY KEY,
    consumer_group VARCHAR(64) NOT NULL,
    order_id VARCHAR(36) NOT NULL,
    consumed_at DATETIME(3) NOT NULL,
    UNIQUE KEY consume_record_once (consumer_group, order_id)
) ENGINE = InnoDB;
