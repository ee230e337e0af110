package dev.orderflow.sms.gateway;

import jakarta.enterprise.event.Observes;
import jakarta.enterprise.inject.Produces;
import jakarta.inject.Singleton;

import com.fasterxml.jackson.databind.ObjectMapper;

import dev.orderflow.sms.config.SmsServiceConfig;
import io.quarkus.runtime.StartupEvent;

/** The {@link SmsGateway} chosen by {@code sms-service.gateway.kind}. */
public class SmsGatewayProducer {

    static final String NO_GATEWAY = "No SMS gateway configured: set sms-service.gateway.kind"
            + " (SMS_SERVICE_GATEWAY_KIND) to http, with sms-service.gateway.url (SMS_SERVICE_GATEWAY_URL), or to"
            + " logging to write the texts to the log instead of sending them";

    /** Fails the start, not the first text, when no gateway is chosen. */
    void checkAtStart(@Observes StartupEvent event, SmsServiceConfig config) {
        if (config.gateway().kind().isEmpty()) {
            throw new IllegalStateException(NO_GATEWAY);
        }
    }

    @Produces
    @Singleton
    SmsGateway smsGateway(SmsServiceConfig config, ObjectMapper objectMapper) {
        SmsServiceConfig.Gateway gateway = config.gateway();
        return switch (gateway.kind().orElseThrow(() -> new IllegalStateException(NO_GATEWAY))) {
            case LOGGING -> new LoggingSmsGateway();
            case HTTP -> new HttpSmsGateway(
                    gateway.url().orElseThrow(() -> new IllegalStateException(
                            "sms-service.gateway.url (SMS_SERVICE_GATEWAY_URL) is required when"
                                    + " sms-service.gateway.kind=http")),
                    gateway.connectTimeout(), gateway.readTimeout(), objectMapper);
        };
    }
}
