package dev.orderflow.rocketmq.runtime;

/** What an incoming channel's listener tells the RocketMQ client about the messages it was given. */
enum Verdict {
    /** Acknowledged, dead-lettered or ignored: commit the offset. */
    DONE,
    /** Transient failure: redeliver with back-off (concurrently) or retry in place (orderly). */
    REDELIVER,
    /**
     * Not processed because the source is stopping (or stopped by {@link FailureStrategy#FAIL}):
     * leave the offset uncommitted, count no attempt.
     */
    RELEASE
}
