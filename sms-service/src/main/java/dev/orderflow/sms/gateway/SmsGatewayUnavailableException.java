package dev.orderflow.sms.gateway;

/**
 * The provider could not be reached, timed out or failed on its side (5xx, 408, 429), or was not
 * called because its circuit breaker is open. The text may or may not have been sent: retry later
 * with the same idempotency key.
 */
public class SmsGatewayUnavailableException extends Exception {

    public SmsGatewayUnavailableException(String message) {
        super(message);
    }

    public SmsGatewayUnavailableException(String message, Throwable cause) {
        super(message, cause);
    }
}
