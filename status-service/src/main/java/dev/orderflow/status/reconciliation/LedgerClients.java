package dev.orderflow.status.reconciliation;

import org.eclipse.microprofile.rest.client.inject.RegisterRestClient;

import dev.orderflow.ledger.EffectLedgerApi;
import dev.orderflow.ledger.OrderLedgerApi;
import io.quarkus.oidc.client.filter.OidcClientFilter;

/**
 * The other services' ledger APIs as REST clients: base URLs, timeouts under
 * {@code quarkus.rest-client.<config key>.*}; each call carries a service token from the OIDC client
 * (client-credentials grant, {@code quarkus.oidc-client.*}).
 */
public final class LedgerClients {

    private LedgerClients() {
    }

    @RegisterRestClient(configKey = "order-ledger")
    @OidcClientFilter
    public interface Orders extends OrderLedgerApi {
    }

    @RegisterRestClient(configKey = "inventory-ledger")
    @OidcClientFilter
    public interface Inventory extends EffectLedgerApi {
    }

    @RegisterRestClient(configKey = "points-ledger")
    @OidcClientFilter
    public interface Points extends EffectLedgerApi {
    }

    @RegisterRestClient(configKey = "sms-ledger")
    @OidcClientFilter
    public interface Sms extends EffectLedgerApi {
    }
}
