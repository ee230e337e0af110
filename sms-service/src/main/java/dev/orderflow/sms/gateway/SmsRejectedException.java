package dev.orderflow.sms.gateway;

/**
 * The provider refused the text for good (a 4xx such as an invalid number): sending it again would
 * be refused again, so the outbox row becomes FAILED.
 */
public class SmsRejectedException extends Exception {

    public SmsRejectedException(String message) {
        super(message);
    }
}
