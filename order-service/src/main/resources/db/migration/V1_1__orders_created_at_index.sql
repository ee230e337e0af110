-- status-service's reconciliation reads the orders created in its window (24 h, every hour:
-- ReconciliationSources.forEachOrderChunk, "where created_at >= ? and created_at < ?"). The index
-- (customer_id, created_at) cannot serve that range, so without this one every run read the whole
-- table, a cost that grows with the history rather than the window.
CREATE INDEX ix_orders_created_at ON orders (created_at);
