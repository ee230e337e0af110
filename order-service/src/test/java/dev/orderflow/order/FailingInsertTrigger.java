package dev.orderflow.order;

import org.junit.jupiter.api.extension.AfterAllCallback;
import org.junit.jupiter.api.extension.BeforeAllCallback;
import org.junit.jupiter.api.extension.ExtensionContext;

/**
 * An INSERT that fails inside MariaDB itself: while a test class extended with this runs, a trigger
 * on {@code orders} refuses every order of a customer whose id starts with {@link #CUSTOMER_PREFIX}.
 */
public final class FailingInsertTrigger implements BeforeAllCallback, AfterAllCallback {

    /** Orders of customers with this id prefix are refused. */
    public static final String CUSTOMER_PREFIX = "C-FAIL-INSERT-";
    /** What MariaDB answers such an INSERT with. */
    public static final String MESSAGE = "forced insert failure for tests";

    @Override
    public void beforeAll(ExtensionContext context) {
        drop();
        OrderDatabase.execute("create trigger orders_fail_insert_for_tests before insert on orders for each row"
                + " begin if new.customer_id like '" + CUSTOMER_PREFIX + "%' then"
                + " signal sqlstate '45000' set message_text = '" + MESSAGE + "'; end if; end");
    }

    @Override
    public void afterAll(ExtensionContext context) {
        drop();
    }

    private static void drop() {
        OrderDatabase.execute("drop trigger if exists orders_fail_insert_for_tests");
    }
}
