-- How each order ended, as the status service decided it from every consumer's outcome
-- (order_outcome_topic): status COMPLETED or FAILED (CANCELLED is set when the cancel is accepted),
-- when the order reached it, and for a FAILED order why.
ALTER TABLE orders
    ADD COLUMN outcome_at       DATETIME(3)  NULL COMMENT 'when COMPLETED, FAILED or CANCELLED (every reversal done) was reached',
    ADD COLUMN failure_consumer VARCHAR(32)  NULL COMMENT 'FAILED: the consumer that refused the order',
    ADD COLUMN failure_class    VARCHAR(16)  NULL COMMENT 'FAILED: business, or the class of a dead letter an operator abandoned',
    ADD COLUMN failure_reason   VARCHAR(512) NULL COMMENT 'FAILED: the consumer''s or operator''s words';
