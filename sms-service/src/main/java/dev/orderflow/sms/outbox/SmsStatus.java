package dev.orderflow.sms.outbox;

/** Where an outbox row stands. */
public enum SmsStatus {
    /**
     * An order's confirmation, held until the status service reports the order COMPLETED (then
     * PENDING); never claimed by a dispatcher.
     */
    HELD,
    /** A held confirmation whose order failed or was cancelled first: never sent. Final. */
    WITHDRAWN,
    /** Not sent yet: waiting for its first attempt or a retry, or claimed by a dispatcher right now. */
    PENDING,
    /** The gateway accepted the text. Final: never sent again. */
    SENT,
    /** The gateway refused it (4xx) or every attempt failed. Final. */
    FAILED
}
