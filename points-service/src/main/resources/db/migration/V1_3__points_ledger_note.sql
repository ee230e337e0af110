-- Why an entry was made, beyond its reason: for ORDER_FAILURE_REVERSAL (the points of an order that
-- failed, taken back) the failure: consumer, class and reason.
ALTER TABLE points_ledger
    ADD COLUMN note VARCHAR(600) NULL COMMENT 'for a failed order''s reversal: why the order failed';
