package dev.orderflow.consumer;

import jakarta.enterprise.context.ApplicationScoped;
import jakarta.inject.Inject;
import jakarta.persistence.EntityManager;

/** Business changes of the test app, run by handlers inside the pipeline's transaction. */
@ApplicationScoped
class TestEffects {

    @Inject
    EntityManager entityManager;

    void apply(String messageKey) {
        entityManager.createNativeQuery("insert into test_effect (message_key) values (:key)")
                .setParameter("key", messageKey).executeUpdate();
    }

    /** Blocks while another connection holds the row lock; fails with a lock wait timeout after 2 s. */
    void deductLockedStock() {
        entityManager.createNativeQuery("update test_stock set available = available - 1 where sku = 'SKU-LOCKED'")
                .executeUpdate();
    }
}
