package dev.orderflow.sms;

import java.io.IOException;
import java.io.UncheckedIOException;
import java.util.Map;

import io.quarkus.test.common.QuarkusTestResourceLifecycleManager;

/** Starts the {@link FakeSmsGateway} and points the application's HTTP gateway at it. */
public class FakeSmsGatewayResource implements QuarkusTestResourceLifecycleManager {

    @Override
    public Map<String, String> start() {
        try {
            FakeSmsGateway gateway = FakeSmsGateway.start();
            return Map.of("sms-service.gateway.kind", "http", "sms-service.gateway.url", gateway.url());
        } catch (IOException e) {
            throw new UncheckedIOException("cannot start the fake SMS gateway", e);
        }
    }

    @Override
    public void stop() {
        FakeSmsGateway.stop();
    }
}
