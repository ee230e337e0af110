package dev.orderflow.sms;

import static dev.orderflow.sms.SmsTestEvents.newOrderId;
import static dev.orderflow.sms.SmsTestEvents.newPhone;
import static org.assertj.core.api.Assertions.assertThat;

import java.time.Duration;

import jakarta.inject.Inject;

import org.junit.jupiter.api.Test;

import dev.orderflow.consumer.testing.CommittedState;
import dev.orderflow.sms.config.SmsServiceConfig;
import dev.orderflow.sms.outbox.SmsOutboxPurger;
import io.quarkus.test.common.TestResourceScope;
import io.quarkus.test.common.WithTestResource;
import io.quarkus.test.junit.QuarkusTest;

/**
 * The outbox's retention on the real MariaDB: finished texts older than
 * {@code sms-service.outbox.retention} are deleted, texts still to be sent never are, whatever their
 * age, and the purge finds its rows through the due index instead of reading the outbox.
 */
@QuarkusTest
@WithTestResource(value = FakeSmsGatewayResource.class, scope = TestResourceScope.MATCHING_RESOURCES)
class SmsOutboxPurgerTest {

    private static final int RECENT_ROWS = 5000;

    @Inject
    SmsOutboxPurger purger;

    @Inject
    SmsServiceConfig config;

    @Test
    void deletesFinishedTextsOlderThanTheRetentionAndKeepsPendingAndRecentOnes() {
        assertThat(config.outbox().purgeBatchSize()).as("test config: several batches").isEqualTo(2);
        long retentionSeconds = config.outbox().retention().toSeconds();
        long old = retentionSeconds + Duration.ofHours(1).toSeconds();
        long recent = retentionSeconds - Duration.ofHours(1).toSeconds();
        String phone = newPhone();
        String sentLongAgo = newOrderId();
        String failedLongAgo = newOrderId();
        String sentRecently = newOrderId();
        String waiting = newOrderId();
        insertRow(sentLongAgo + "-1", "CREATE", "SENT", old, phone);
        insertRow(sentLongAgo + "-2", "CREATE", "SENT", old, phone);
        insertRow(sentLongAgo + "-2", "CANCEL", "SENT", old, phone);
        insertRow(failedLongAgo, "CREATE", "FAILED", old, phone);
        insertRow(sentRecently, "CREATE", "SENT", recent, phone);
        // A cancellation notice due long ago that still waits for its confirmation (due in an hour, so
        // no dispatcher sends either during the test): it has not been sent, so it must stay.
        insertRow(waiting, "CREATE", "PENDING", -3600, phone);
        insertRow(waiting, "CANCEL", "PENDING", old, phone);
        String filler = newOrderId();
        CommittedState.execute("insert into sms_outbox (business_key, order_id, event_type, phone, text, status,"
                + " attempts, next_attempt_at, created_at, updated_at, sent_at) select concat(?, '-', seq, ':create'),"
                + " concat(?, '-', seq), 'CREATE', ?, 'sent just now', 'SENT', 1, utc_timestamp(3),"
                + " utc_timestamp(3), utc_timestamp(3), utc_timestamp(3) from seq_1_to_" + RECENT_ROWS, filler, filler,
                phone);

        long scannedBefore = SmsDatabase.rowsReadInFullScans();
        int purged = purger.purgeExpired();
        long scanned = SmsDatabase.rowsReadInFullScans() - scannedBefore;

        // Old finished rows left behind by earlier runs on the same database are purged too.
        assertThat(purged).isGreaterThanOrEqualTo(4);
        assertThat(rowsOf(sentLongAgo + "-%")).isZero();
        assertThat(rowsOf(failedLongAgo)).isZero();
        assertThat(rowsOf(sentRecently)).isEqualTo(1);
        assertThat(rowsOf(waiting)).isEqualTo(2);
        assertThat(rowsOf(filler + "-%")).isEqualTo(RECENT_ROWS);
        // Reading the status variables is a full scan of a few hundred rows itself; the outbox holds
        // more than RECENT_ROWS.
        assertThat(scanned).as("rows read in full scans while purging").isLessThan(RECENT_ROWS / 2);
        assertThat(purger.purgeExpired()).isZero();
    }

    /** A row whose last attempt (or due time, for a PENDING one) was {@code secondsAgo} ago. */
    private static void insertRow(String orderId, String eventType, String status, long secondsAgo, String phone) {
        CommittedState.execute("insert into sms_outbox (business_key, order_id, event_type, phone, text, status,"
                + " attempts, next_attempt_at, created_at, updated_at, sent_at) values (?, ?, ?, ?, 'a text', ?, 1,"
                + " utc_timestamp(3) - interval ? second, utc_timestamp(3) - interval ? second,"
                + " utc_timestamp(3) - interval ? second, if(? = 'SENT', utc_timestamp(3) - interval ? second, null))",
                orderId + ":" + eventType.toLowerCase(), orderId, eventType, phone, status, secondsAgo,
                Math.max(secondsAgo, 0), Math.max(secondsAgo, 0), status, secondsAgo);
    }

    private static long rowsOf(String orderIdPattern) {
        return CommittedState.number("select count(*) from sms_outbox where order_id like ?", orderIdPattern);
    }
}
