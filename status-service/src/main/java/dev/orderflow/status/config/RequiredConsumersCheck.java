package dev.orderflow.status.config;

import java.util.HashSet;
import java.util.List;

import jakarta.enterprise.context.ApplicationScoped;
import jakarta.enterprise.event.Observes;
import jakarta.inject.Inject;

import org.jboss.logging.Logger;

import dev.orderflow.order.events.ConsumerReports;
import io.quarkus.runtime.StartupEvent;

/**
 * Refuses to start with a required-consumer list that could never complete an order: empty,
 * duplicated, or with names no report can carry.
 */
@ApplicationScoped
public class RequiredConsumersCheck {

    private static final Logger LOG = Logger.getLogger(RequiredConsumersCheck.class);

    private final StatusServiceConfig config;

    @Inject
    public RequiredConsumersCheck(StatusServiceConfig config) {
        this.config = config;
    }

    void check(@Observes StartupEvent startup) {
        List<String> required = config.requiredConsumers();
        if (required.isEmpty()) {
            throw new IllegalStateException("orderflow.status.required-consumers must name at least one consumer");
        }
        if (new HashSet<>(required).size() != required.size()) {
            throw new IllegalStateException("orderflow.status.required-consumers names a consumer twice: " + required);
        }
        for (String consumer : required) {
            if (!ConsumerReports.isValidConsumerName(consumer)) {
                throw new IllegalStateException("orderflow.status.required-consumers: '" + consumer
                        + "' is no consumer name (lower-case [a-z][a-z0-9-]*, as in reports)");
            }
        }
        LOG.infof("Orders complete when these consumers are DONE: %s (groups %s)", required,
                required.stream().map(config::groupOf).toList());
    }
}
