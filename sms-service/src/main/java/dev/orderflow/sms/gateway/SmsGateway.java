package dev.orderflow.sms.gateway;

/**
 * Sends one text to a third party. Implementations must pass {@link SmsRequest#idempotencyKey()}
 * on to the provider: the dispatcher repeats a request after a timeout, a 5xx or a crash, always
 * with the same key, and relies on the provider to text the customer at most once per key.
 */
public interface SmsGateway {

    /**
     * Returns when the provider accepted the text.
     *
     * @throws SmsGatewayUnavailableException the outcome is unknown or the provider failed
     *                                        transiently (timeout, connection error, 5xx): retry
     * @throws SmsRejectedException           the provider refused this text (4xx): never retry
     */
    void send(SmsRequest request) throws SmsGatewayUnavailableException, SmsRejectedException;
}
