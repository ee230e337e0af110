-- The order's customer (from its create event), so that a customer reads its own orders' status
-- only. NULL until the create arrives, and on rows opened before it was recorded: those are shown to
-- staff and services only.
ALTER TABLE order_message_consume_status
    ADD COLUMN customer_id VARCHAR(128) NULL AFTER order_id;
