-- The outcomes this service publishes (order_outcome_topic): when an order was decided FAILED
-- (final: a business rejection, or an operator's abandon) and when it reached CANCELLED. completed_at
-- already marks COMPLETED. State ATTENTION: a dead letter or a failed reversal waits for an operator.
ALTER TABLE order_message_consume_status
    ADD COLUMN failed_at    DATETIME(3) NULL COMMENT 'when decided FAILED (final; outcome published)',
    ADD COLUMN cancelled_at DATETIME(3) NULL COMMENT 'when CANCELLED was reached (outcome published)';
