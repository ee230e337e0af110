-- status-service's reconciliation reads the ledger rows written in its window (24 h, every hour:
-- ReconciliationSources.forEachEffectOrderIdChunk, "where created_at >= ? and created_at < ?").
-- Without an index every run read the whole table, a cost that grows with the history rather than
-- the window.
CREATE INDEX ix_points_ledger_created_at ON points_ledger (created_at);
