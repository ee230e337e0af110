package dev.orderflow.consumer;

import java.util.List;

import jakarta.enterprise.context.ApplicationScoped;
import jakarta.inject.Inject;

import javax.sql.DataSource;

import dev.orderflow.sql.BatchSql;

/** Business changes of the test app, run by handlers inside the pipeline's transaction. */
@ApplicationScoped
class TestEffects {

    @Inject
    DataSource dataSource;

    void apply(String messageKey) {
        BatchSql.update(dataSource, "insert into test_effect (message_key) values (?)", List.of(messageKey));
    }

    /** Blocks while another connection holds the row lock; fails with a lock wait timeout after 2 s. */
    void deductLockedStock() {
        BatchSql.update(dataSource, "update test_stock set available = available - 1 where sku = 'SKU-LOCKED'",
                List.of());
    }
}
