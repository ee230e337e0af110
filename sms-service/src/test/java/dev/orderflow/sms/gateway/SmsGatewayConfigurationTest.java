package dev.orderflow.sms.gateway;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import java.util.Map;

import org.junit.jupiter.api.Test;

import dev.orderflow.sms.config.SmsServiceConfig;
import io.smallrye.config.PropertiesConfigSource;
import io.smallrye.config.SmallRyeConfig;
import io.smallrye.config.SmallRyeConfigBuilder;

/**
 * No default gateway: without {@code sms-service.gateway.kind} the service refuses to start with
 * an error naming the keys (a deployment must never silently text nobody); the logging gateway only
 * when chosen; http only with its URL.
 */
class SmsGatewayConfigurationTest {

    private final SmsGatewayProducer producer = new SmsGatewayProducer();
    /** The http gateway's calls: none is made here, only the gateway chosen. */
    private final SmsProvider noCalls = null;

    @Test
    void withoutAGatewayTheStartFailsNamingTheKeys() {
        SmsServiceConfig config = config(Map.of());

        assertThatThrownBy(() -> producer.checkAtStart(null, config))
                .isInstanceOf(IllegalStateException.class)
                .hasMessageContaining("sms-service.gateway.kind")
                .hasMessageContaining("SMS_SERVICE_GATEWAY_KIND")
                .hasMessageContaining("sms-service.gateway.url");
    }

    @Test
    void theLoggingGatewayOnlyWhenChosen() {
        SmsServiceConfig config = config(Map.of("sms-service.gateway.kind", "logging"));

        producer.checkAtStart(null, config);
        assertThat(producer.smsGateway(config, noCalls)).isInstanceOf(LoggingSmsGateway.class);
    }

    @Test
    void httpNeedsItsUrl() {
        SmsServiceConfig withoutUrl = config(Map.of("sms-service.gateway.kind", "http"));
        assertThatThrownBy(() -> producer.smsGateway(withoutUrl, noCalls))
                .isInstanceOf(IllegalStateException.class).hasMessageContaining("sms-service.gateway.url");

        SmsServiceConfig withUrl = config(Map.of("sms-service.gateway.kind", "http",
                "sms-service.gateway.url", "http://127.0.0.1:1/messages"));
        assertThat(producer.smsGateway(withUrl, noCalls)).isInstanceOf(HttpSmsGateway.class);
    }

    private static SmsServiceConfig config(Map<String, String> properties) {
        SmallRyeConfig config = new SmallRyeConfigBuilder()
                .withMapping(SmsServiceConfig.class)
                .withSources(new PropertiesConfigSource(properties, "test", 100))
                .build();
        return config.getConfigMapping(SmsServiceConfig.class);
    }
}
