package dev.orderflow.sms.gateway;

import org.jboss.logging.Logger;

/**
 * The default gateway: writes each text to the log and sends nothing. For development and for
 * installations without an SMS provider. The phone number is masked in the log.
 */
public class LoggingSmsGateway implements SmsGateway {

    private static final Logger LOG = Logger.getLogger(LoggingSmsGateway.class);

    @Override
    public void send(SmsRequest request) {
        LOG.infof("SMS to %s [Idempotency-Key %s]: %s", masked(request.phone()), request.idempotencyKey(),
                request.text());
    }

    /** All but the last three characters replaced by '*'. */
    static String masked(String phone) {
        int visible = Math.min(3, phone.length());
        return "*".repeat(phone.length() - visible) + phone.substring(phone.length() - visible);
    }
}
