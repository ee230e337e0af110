package dev.orderflow.order.config;

import java.time.Duration;

import io.smallrye.config.ConfigMapping;
import io.smallrye.config.WithDefault;

/** Settings of the order service, under {@code order-service}. */
@ConfigMapping(prefix = "order-service")
public interface OrderServiceConfig {

    /** Base URL of status-service; {@code statusUrl} in responses is {@code <base>/orders/{orderId}/status}. */
    @WithDefault("http://localhost:8084")
    String statusBaseUrl();

    /** Request limits. */
    Limits limits();

    /** Transactional messaging. */
    Messaging messaging();

    /** The access records sent to {@code access_log_topic} (at-most-once, see {@code AccessLogPublisher}). */
    AccessLog accessLog();

    /** Group commit of new orders (see {@code OrderGroupCommit}). */
    GroupCommit groupCommit();

    interface Limits {
        /** Most lines in one order; more → 400 naming {@code items}. */
        @WithDefault("50")
        int maxItems();

        /** Largest quantity of one line. */
        @WithDefault("1000")
        int maxQuantity();

        /** Largest unit price (keeps the amount inside DECIMAL(15,2)). */
        @WithDefault("9999999.99")
        String maxUnitPrice();

        /** Largest accepted request body in bytes; larger → 413 problem. */
        @WithDefault("65536")
        int maxBodyBytes();

        /** Largest page size of {@code GET /orders}; larger → 400 naming {@code size}. */
        @WithDefault("100")
        int maxPageSize();

        /** Page size of {@code GET /orders} when the client gives none. */
        @WithDefault("20")
        int defaultPageSize();
    }

    interface Messaging {
        /**
         * Age after which a half message without its order row is rolled back by the check-back.
         * Must exceed the longest local transaction (plus clock skew between hosts): a younger half
         * message may belong to a transaction still running, and is answered UNKNOWN.
         */
        @WithDefault("PT60S")
        Duration rollbackUnconfirmedAfter();

        /** Seconds in the {@code Retry-After} header of a 503 (broker or database unavailable). */
        @WithDefault("5")
        int retryAfterSeconds();
    }

    interface AccessLog {
        /** Most records waiting for the next batch; a record that finds the queue full is dropped and counted. */
        @WithDefault("10000")
        int queueSize();

        /** Most records in one batch (one broker request); about 250 bytes each. */
        @WithDefault("256")
        int batchSize();

        /** How often the queued records are sent (the longest a record waits while the broker keeps up). */
        @WithDefault("PT0.1S")
        Duration flushInterval();
    }

    interface GroupCommit {
        /**
         * Most orders committed in one database transaction. The creates waiting when a commit ends
         * form the next group (none waits for a group to fill); 1 commits each order alone.
         */
        @WithDefault("64")
        int maxOrders();
    }
}
