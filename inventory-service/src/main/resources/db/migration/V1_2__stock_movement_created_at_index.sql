-- status-service's reconciliation reads the movements written in its window (24 h, every hour:
-- ReconciliationSources.forEachEffectOrderIdChunk, "where created_at >= ? and created_at < ?").
-- Without an index every run read the whole table, a cost that grows with the history rather than
-- the window.
CREATE INDEX ix_stock_movement_created_at ON stock_movement (created_at);
