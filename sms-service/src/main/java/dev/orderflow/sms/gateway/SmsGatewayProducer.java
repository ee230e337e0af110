package dev.orderflow.sms.gateway;

import jakarta.enterprise.inject.Produces;
import jakarta.inject.Singleton;

import com.fasterxml.jackson.databind.ObjectMapper;

import dev.orderflow.sms.config.SmsServiceConfig;

/** The {@link SmsGateway} chosen by {@code sms-service.gateway.kind}. */
public class SmsGatewayProducer {

    @Produces
    @Singleton
    SmsGateway smsGateway(SmsServiceConfig config, ObjectMapper objectMapper) {
        SmsServiceConfig.Gateway gateway = config.gateway();
        return switch (gateway.kind()) {
            case LOGGING -> new LoggingSmsGateway();
            case HTTP -> new HttpSmsGateway(
                    gateway.url().orElseThrow(() -> new IllegalStateException(
                            "sms-service.gateway.url is required when sms-service.gateway.kind=http")),
                    gateway.connectTimeout(), gateway.readTimeout(), objectMapper);
        };
    }
}
