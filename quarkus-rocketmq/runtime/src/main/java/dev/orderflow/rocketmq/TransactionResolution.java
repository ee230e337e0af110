package dev.orderflow.rocketmq;

/** The answer to a broker's check-back about a half message. */
public enum TransactionResolution {
    /** The local transaction committed: make the message visible. */
    COMMIT,
    /** The local transaction did not and will not commit: discard the half message. */
    ROLLBACK,
    /** Not known yet: the broker asks again later (up to its check maximum). */
    UNKNOWN
}
