-- The DLQ console can also abandon the order of a dead letter (request + approval by a second
-- person, audited like re-drives): the order is decided FAILED and compensated instead of re-driven.
ALTER TABLE console_redrive_request
    ADD COLUMN action VARCHAR(16) NOT NULL DEFAULT 'REDRIVE' COMMENT 'REDRIVE or ABANDON';
