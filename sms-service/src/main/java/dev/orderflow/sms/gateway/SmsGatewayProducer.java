package dev.orderflow.sms.gateway;

import jakarta.enterprise.event.Observes;
import jakarta.enterprise.inject.Produces;
import jakarta.inject.Singleton;

import dev.orderflow.sms.config.SmsServiceConfig;
import io.quarkus.runtime.StartupEvent;

/** The {@link SmsGateway} chosen by {@code sms-service.gateway.kind}. */
public class SmsGatewayProducer {

    static final String NO_GATEWAY = "No SMS gateway configured: set sms-service.gateway.kind"
            + " (SMS_SERVICE_GATEWAY_KIND) to http, with sms-service.gateway.url (SMS_SERVICE_GATEWAY_URL), or to"
            + " logging to write the texts to the log instead of sending them";

    static final String URL_REQUIRED = "sms-service.gateway.url (SMS_SERVICE_GATEWAY_URL) is required when"
            + " sms-service.gateway.kind=http";

    /** Fails the start, not the first text, when no gateway is chosen. */
    void checkAtStart(@Observes StartupEvent event, SmsServiceConfig config) {
        if (config.gateway().kind().isEmpty()) {
            throw new IllegalStateException(NO_GATEWAY);
        }
    }

    /** @param provider the http gateway's calls; a client proxy, its bean created (with the URL) on the first text */
    @Produces
    @Singleton
    SmsGateway smsGateway(SmsServiceConfig config, SmsProvider provider) {
        SmsServiceConfig.Gateway gateway = config.gateway();
        return switch (gateway.kind().orElseThrow(() -> new IllegalStateException(NO_GATEWAY))) {
            case LOGGING -> new LoggingSmsGateway();
            case HTTP -> new HttpSmsGateway(gateway.url().orElseThrow(() -> new IllegalStateException(URL_REQUIRED)),
                    provider);
        };
    }
}
