-- Ids of the consume_report outbox come from a sequence, 64 at a time (PendingReport's generator),
-- so that a batch's reports go to the server as one bulk insert; Hibernate inserts rows whose id the
-- table generates one at a time. The sequence starts above every id already in the table: the pooled
-- generator takes a value v to mean the ids v-63 .. v.
CREATE SEQUENCE consume_report_seq START WITH 1 INCREMENT BY 64;
SET @consume_report_restart = (SELECT COALESCE(MAX(id), 0) + 64 FROM consume_report);
EXECUTE IMMEDIATE CONCAT('ALTER SEQUENCE consume_report_seq RESTART WITH ', @consume_report_restart);
