package dev.orderflow.sms.config;

import java.net.URI;
import java.time.Duration;
import java.util.Optional;

import io.smallrye.config.ConfigMapping;
import io.smallrye.config.WithDefault;

/** Settings of the SMS service, under {@code sms-service}. */
@ConfigMapping(prefix = "sms-service")
public interface SmsServiceConfig {

    /** The SMS gateway texts are sent through. */
    Gateway gateway();

    /** The dispatcher that sends outbox rows. */
    Dispatch dispatch();

    /** Retries of failed sends. */
    Retry retry();

    /** How long finished texts are kept. */
    Outbox outbox();

    /**
     * The timeout and circuit breaker of the {@code http} gateway's calls are not here: they are
     * MicroProfile Fault Tolerance settings of {@code dev.orderflow.sms.gateway.SmsProvider/send},
     * documented with these keys in application.properties.
     */
    interface Gateway {

        /**
         * {@code http} or {@code logging} (writes the text to the log, sends nothing). Required: the
         * service does not start without it, so a deployment never silently texts nobody.
         */
        Optional<Kind> kind();

        /** Endpoint the {@code http} gateway POSTs each text to; required when {@code kind=http}. */
        Optional<URI> url();

        /** Longest wait for the TCP connection to the gateway; a timeout is retried. */
        @WithDefault("PT2S")
        Duration connectTimeout();

        /**
         * Longest wait for the gateway's answer after the request was sent, and longest silence while
         * it is read; a timeout is retried (with the same Idempotency-Key, so a gateway that did send
         * the text does not send it again).
         */
        @WithDefault("PT5S")
        Duration readTimeout();

        enum Kind {
            /** {@link dev.orderflow.sms.gateway.LoggingSmsGateway}. */
            LOGGING,
            /** {@link dev.orderflow.sms.gateway.HttpSmsGateway}. */
            HTTP
        }
    }

    interface Dispatch {

        /**
         * Texts being sent at the same time by one instance (threads talking to the gateway), and so
         * the most rows one sweep claims.
         */
        @WithDefault("16")
        int concurrency();

        /**
         * How often due rows are looked for without a wake-up: picks up retries whose back-off has
         * passed, rows of a crashed instance and rows committed while this instance was busy.
         */
        @WithDefault("PT5S")
        Duration sweepInterval();

        /**
         * How long a claimed row belongs to the instance that claimed it. Must exceed the longest
         * send: connect timeout + read timeout (checked at startup), and the call timeout of
         * {@code SmsProvider/send} (not checked). After it, a row whose instance died is claimed
         * again and re-sent with the same Idempotency-Key.
         */
        @WithDefault("PT30S")
        Duration claimLease();

        /**
         * How long a text the gateway accepted may wait for its SENT to be recorded. Within it the
         * next sweep records it together with its claim (the next consumed batch's commit wakes
         * one): one transaction per round of texts instead of two.
         * When no sweep comes by then, one runs for it. The claim lease must exceed the longest
         * send plus this, checked at startup, so that no other claim takes a row over before its
         * SENT is recorded. PT0S records after every send, in a transaction of its own.
         */
        @WithDefault("PT0.2S")
        Duration recordDelay();
    }

    interface Retry {

        /** Delay before the second attempt; doubled for every further attempt. */
        @WithDefault("PT2S")
        Duration baseDelay();

        /** Upper bound of the delay between two attempts. */
        @WithDefault("PT5M")
        Duration maxDelay();

        /** Attempts in total (the first included) before a row that keeps failing transiently is FAILED. */
        @WithDefault("10")
        int maxAttempts();
    }

    interface Outbox {

        /**
         * How long a SENT or FAILED row is kept after its last attempt; then
         * {@link dev.orderflow.sms.outbox.SmsOutboxPurger} deletes it (and with it the customer's phone
         * number and text; {@code GET /sms} no longer lists it). PENDING rows are never deleted. A row
         * is also the second guard against a duplicate text behind consume_record, so keep this at
         * least {@code orderflow.idempotent-consumer.retention}: then the guard outlives the record.
         * status-service's {@code orderflow.reconciliation.sms-retention} must equal this: it does not
         * report a text missing that may have been purged.
         */
        @WithDefault("P30D")
        Duration retention();

        /** How often the purge runs by itself (the first run one interval after boot); PT0S turns it off. */
        @WithDefault("PT1H")
        Duration purgeInterval();

        /** Rows deleted per purge transaction; small, so the purge never holds many locks. */
        @WithDefault("500")
        int purgeBatchSize();
    }
}
