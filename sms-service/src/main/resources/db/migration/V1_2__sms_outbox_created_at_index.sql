-- status-service's reconciliation reads the texts decided in its window (24 h, every hour:
-- ReconciliationSources.forEachEffectOrderIdChunk, "where created_at >= ? and created_at < ?").
-- Without an index every run read the whole outbox (up to its 30-day retention, SmsOutboxPurger).
CREATE INDEX ix_sms_outbox_created_at ON sms_outbox (created_at);
