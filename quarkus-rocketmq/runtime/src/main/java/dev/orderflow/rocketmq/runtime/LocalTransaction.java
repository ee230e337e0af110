package dev.orderflow.rocketmq.runtime;

import org.apache.rocketmq.client.producer.LocalTransactionState;

/**
 * The local side of one transactional send, run by the producer once the half message is
 * stored, on the sending thread. Implementations never throw: they report what happened.
 */
interface LocalTransaction {

    /** Runs the local work and says whether the half message must be committed or rolled back. */
    LocalTransactionState run();
}
