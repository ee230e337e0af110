-- status-service: the DLQ console's requests and audit. Versions 1.3.x belong to the console.
-- Instants are UTC (quarkus.hibernate-orm.jdbc.timezone=UTC).

-- One row per re-drive of one dead letter: requested by an operator, approved or rejected by a
-- different approver where the consumer needs approval, then sent to %RETRY%<group>.
CREATE TABLE console_redrive_request (
    id              BIGINT        NOT NULL AUTO_INCREMENT,
    consumer        VARCHAR(32)   NOT NULL,
    consumer_group  VARCHAR(128)  NOT NULL,
    dlq_message_id  VARCHAR(64)   NOT NULL,
    message_key     VARCHAR(128)  NULL,
    -- PENDING_APPROVAL | SENT | REJECTED | FAILED
    status          VARCHAR(16)   NOT NULL,
    requested_by    VARCHAR(64)   NOT NULL,
    requested_at    DATETIME(3)   NOT NULL,
    comment         VARCHAR(1024) NULL,
    -- The body as it sits in the DLQ, and the corrected body to send instead (NULL = send as is).
    original_body   MEDIUMTEXT    NOT NULL,
    corrected_body  MEDIUMTEXT    NULL,
    -- Who approved or rejected it, and when (NULL while pending and when no approval was needed).
    decided_by      VARCHAR(64)   NULL,
    decided_at      DATETIME(3)   NULL,
    -- Message id of the re-driven message once sent; why sending failed otherwise.
    sent_message_id VARCHAR(64)   NULL,
    sent_at         DATETIME(3)   NULL,
    failure         VARCHAR(1024) NULL,
    PRIMARY KEY (id),
    INDEX ix_redrive_status (status, id),
    INDEX ix_redrive_dlq_message (consumer, dlq_message_id)
) ENGINE = InnoDB DEFAULT CHARSET = utf8mb4;

-- Every console action, written in the same transaction as the state change it describes.
CREATE TABLE console_audit (
    id              BIGINT        NOT NULL AUTO_INCREMENT,
    at              DATETIME(3)   NOT NULL,
    actor           VARCHAR(64)   NOT NULL,
    -- REQUEST | APPROVE | REJECT | SEND
    action          VARCHAR(16)   NOT NULL,
    consumer        VARCHAR(32)   NOT NULL,
    consumer_group  VARCHAR(128)  NOT NULL,
    request_id      BIGINT        NULL,
    dlq_message_id  VARCHAR(64)   NULL,
    message_key     VARCHAR(128)  NULL,
    before_body     MEDIUMTEXT    NULL,
    after_body      MEDIUMTEXT    NULL,
    -- PENDING_APPROVAL | SENT | REJECTED | FAILED: the request's status after the action.
    outcome         VARCHAR(16)   NOT NULL,
    detail          VARCHAR(1024) NULL,
    PRIMARY KEY (id),
    INDEX ix_audit_at (at)
) ENGINE = InnoDB DEFAULT CHARSET = utf8mb4;
