package dev.orderflow.status.reconciliation;

import java.math.BigDecimal;
import java.sql.Connection;
import java.sql.DriverManager;
import java.sql.PreparedStatement;
import java.sql.SQLException;
import java.sql.Statement;
import java.time.Instant;
import java.time.LocalDateTime;
import java.time.ZoneOffset;

/**
 * The other services' tables behind the ledgers reconciliation reads, created in this module's own
 * test databases ({@code orderflow_status_test_order|inventory|points|sms}) on the real MariaDB, with
 * rows written as those services would write them; {@link PeerLedgers} serves them as the ledgers.
 *
 * <p>Only the columns reconciliation reads are copied; the owning module's Flyway migration is the
 * source of truth (order-service V1__orders.sql, inventory-service stock_movement,
 * points-service points_ledger, sms-service sms_outbox). The UNIQUE keys those tables have are
 * left out on purpose, so a test can write the duplicate a bug (or a manual fix) would leave.
 */
final class ReconciliationFixture {

    private static final String SERVER = "jdbc:mariadb://127.0.0.1:3306/";
    static final String ORDER_DB = "orderflow_status_test_order";
    static final String INVENTORY_DB = "orderflow_status_test_inventory";
    static final String POINTS_DB = "orderflow_status_test_points";
    static final String SMS_DB = "orderflow_status_test_sms";
    static final String STATUS_DB = "orderflow_status_test";

    private ReconciliationFixture() {
    }

    /** Drops and creates the tables, empty. */
    static void recreateTables() {
        execute(ORDER_DB, "drop table if exists order_items", "drop table if exists orders",
                "create table orders (id varchar(26) not null primary key, customer_id varchar(64) not null,"
                        + " amount decimal(15,2) not null, status varchar(16) not null, created_at datetime(3) not null,"
                        + " updated_at datetime(3) not null)",
                "create table order_items (id bigint not null auto_increment primary key, order_id varchar(26) not null,"
                        + " line_no int not null, sku varchar(64) not null, quantity int not null)");
        execute(INVENTORY_DB, "drop table if exists stock_movement",
                "create table stock_movement (id bigint not null auto_increment primary key,"
                        + " order_id varchar(128) not null, sku varchar(64) not null, kind varchar(16) not null,"
                        + " quantity bigint not null, created_at datetime(3) not null)");
        execute(POINTS_DB, "drop table if exists points_ledger",
                "create table points_ledger (id bigint not null auto_increment primary key,"
                        + " order_id varchar(128) not null, customer_id varchar(128) not null, reason varchar(32) not null,"
                        + " points bigint not null, created_at datetime(3) not null)");
        execute(SMS_DB, "drop table if exists sms_outbox",
                "create table sms_outbox (id bigint not null auto_increment primary key, order_id varchar(64) not null,"
                        + " event_type varchar(16) not null, status varchar(16) not null, created_at datetime(3) not null)");
    }

    /** An order with its lines, each {@code sku, quantity} pair; status CREATED, COMPLETED, FAILED or CANCELLED. */
    static void order(String id, String amount, String status, Instant createdAt, Object... skuQuantity) {
        update(ORDER_DB, "insert into orders (id, customer_id, amount, status, created_at, updated_at)"
                + " values (?, 'customer-1', ?, ?, ?, ?)", id, new BigDecimal(amount), status, utc(createdAt),
                utc(createdAt.plusSeconds(1)));
        for (int i = 0; i < skuQuantity.length; i += 2) {
            update(ORDER_DB, "insert into order_items (order_id, line_no, sku, quantity) values (?, ?, ?, ?)", id,
                    i / 2 + 1, skuQuantity[i], skuQuantity[i + 1]);
        }
    }

    /** Sets the order's last update (its cancel, for a cancelled order). */
    static void lastUpdated(String orderId, Instant at) {
        update(ORDER_DB, "update orders set updated_at = ? where id = ?", utc(at), orderId);
    }

    static void movement(String orderId, String sku, String kind, long quantity, Instant at) {
        update(INVENTORY_DB, "insert into stock_movement (order_id, sku, kind, quantity, created_at)"
                + " values (?, ?, ?, ?, ?)", orderId, sku, kind, quantity, utc(at));
    }

    static void ledger(String orderId, String reason, long points, Instant at) {
        update(POINTS_DB, "insert into points_ledger (order_id, customer_id, reason, points, created_at)"
                + " values (?, 'customer-1', ?, ?, ?)", orderId, reason, points, utc(at));
    }

    /** A text, sent. */
    static void text(String orderId, String eventType, Instant at) {
        text(orderId, eventType, "SENT", at);
    }

    static void text(String orderId, String eventType, String status, Instant at) {
        update(SMS_DB, "insert into sms_outbox (order_id, event_type, status, created_at) values (?, ?, ?, ?)", orderId,
                eventType, status, utc(at));
    }

    /** This service's record that {@code consumer} rejected the order's create (insufficient stock): the order FAILED. */
    static void rejectedCreate(String orderId, String consumer, Instant at) {
        failedCreate(orderId, consumer, "REJECTED", "insufficient stock", "report", at);
    }

    /** This service's record that {@code consumer}'s create of the order went to its DLQ (class business): the order FAILED. */
    static void deadLetteredCreate(String orderId, String consumer, Instant at) {
        failedCreate(orderId, consumer, "DEAD_LETTERED", "unknown phone prefix", "dead-letter-queue", at);
    }

    private static void failedCreate(String orderId, String consumer, String outcome, String reason, String source,
            Instant at) {
        update(STATUS_DB, "insert into order_message_consume_status (order_id, state, created_at, first_seen_at,"
                + " updated_at, failure_consumer, failure_class, failure_reason) values (?, 'FAILED', ?, ?, ?, ?,"
                + " 'business', ?)", orderId, utc(at), utc(at), utc(at), consumer, reason);
        update(STATUS_DB, "insert into order_consumer_outcome (order_id, consumer, event_type, outcome, failure_class,"
                + " reason, occurred_at, source, recorded_at) values (?, ?, 'create', ?, 'business', ?, ?, ?, ?)",
                orderId, consumer, outcome, reason, utc(at), source, utc(at));
    }

    private static LocalDateTime utc(Instant instant) {
        return LocalDateTime.ofInstant(instant, ZoneOffset.UTC);
    }

    private static void execute(String database, String... statements) {
        try (Connection server = DriverManager.getConnection(SERVER, "root", "");
                Statement create = server.createStatement()) {
            create.execute("create database if not exists " + database);
        } catch (SQLException e) {
            throw new IllegalStateException("Cannot create " + database, e);
        }
        try (Connection connection = DriverManager.getConnection(SERVER + database, "root", "");
                Statement statement = connection.createStatement()) {
            for (String sql : statements) {
                statement.execute(sql);
            }
        } catch (SQLException e) {
            throw new IllegalStateException("Cannot prepare " + database, e);
        }
    }

    private static void update(String database, String sql, Object... params) {
        try (Connection connection = DriverManager.getConnection(SERVER + database, "root", "");
                PreparedStatement statement = connection.prepareStatement(sql)) {
            for (int i = 0; i < params.length; i++) {
                statement.setObject(i + 1, params[i]);
            }
            statement.executeUpdate();
        } catch (SQLException e) {
            throw new IllegalStateException(sql, e);
        }
    }
}
