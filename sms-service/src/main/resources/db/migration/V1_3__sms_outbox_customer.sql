-- The customer each text is about (from its order event), so that a customer reads its own texts
-- only. NULL on rows written before it was recorded: those are shown to staff and services only.
ALTER TABLE sms_outbox
    ADD COLUMN customer_id VARCHAR(128) NULL AFTER order_id;
