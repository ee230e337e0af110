package dev.orderflow.sms;

import static dev.orderflow.sms.SmsTestEvents.awaitStatus;
import static dev.orderflow.sms.SmsTestEvents.newOrderId;
import static dev.orderflow.sms.SmsTestEvents.newPhone;
import static org.assertj.core.api.Assertions.assertThat;

import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.UUID;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.CyclicBarrier;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;

import jakarta.inject.Inject;

import org.junit.jupiter.api.Test;

import dev.orderflow.consumer.testing.CommittedState;
import dev.orderflow.sms.FakeSmsGateway.Call;
import dev.orderflow.sms.outbox.ClaimedSms;
import dev.orderflow.sms.outbox.SmsOutbox;
import io.quarkus.test.common.TestResourceScope;
import io.quarkus.test.common.WithTestResource;
import io.quarkus.test.junit.QuarkusTest;

/**
 * Claims with several dispatchers at once, on the real MariaDB: two "instances" (test threads
 * calling {@link SmsOutbox#claimDue}) race the application's own dispatcher for the same due rows.
 * The test's instances then "crash": they never send nor record a result, and the application's
 * dispatcher must pick their rows up once the claim lease (5 s in %test) has run out.
 */
@QuarkusTest
@WithTestResource(value = FakeSmsGatewayResource.class, scope = TestResourceScope.MATCHING_RESOURCES)
class SmsOutboxClaimTest {

    private static final int ROWS = 20;
    private static final int FILLER_ROWS = 5000;

    private final FakeSmsGateway gateway = FakeSmsGateway.running();

    @Inject
    SmsOutbox outbox;

    @Test
    void concurrentDispatchersClaimDisjointRowsAndRowsOfACrashedOneAreSentOnceAfterTheLease() throws Exception {
        String phone = newPhone();
        List<String> keys = insertDueRows(phone);

        CyclicBarrier start = new CyclicBarrier(2);
        ExecutorService instances = Executors.newFixedThreadPool(2);
        List<ClaimedSms> claimedByFirst;
        List<ClaimedSms> claimedBySecond;
        try {
            CompletableFuture<List<ClaimedSms>> first = CompletableFuture.supplyAsync(() -> claimTogether(start), instances);
            CompletableFuture<List<ClaimedSms>> second = CompletableFuture.supplyAsync(() -> claimTogether(start), instances);
            claimedByFirst = first.get();
            claimedBySecond = second.get();
        } finally {
            instances.shutdown();
        }

        List<String> crashedKeys = new ArrayList<>();
        claimedByFirst.forEach(c -> crashedKeys.add(c.businessKey()));
        claimedBySecond.forEach(c -> crashedKeys.add(c.businessKey()));
        assertThat(crashedKeys).isNotEmpty().doesNotHaveDuplicates();
        assertThat(claimedByFirst).allSatisfy(c -> assertThat(c.attempt()).isEqualTo(1));

        // Every row ends SENT, texted exactly once: the application's dispatcher sent what it claimed
        // at once and the crashed instances' rows after their lease, each with its own key.
        keys.forEach(key -> awaitStatus(key, "SENT"));
        assertThat(gateway.callsTo(phone)).extracting(Call::idempotencyKey).containsExactlyInAnyOrderElementsOf(keys);
        assertThat(gateway.textsTo(phone)).hasSize(ROWS);
        for (String key : crashedKeys) {
            // Claimed once by a crashed instance, then by the application: two attempts, one call.
            assertThat(SmsDatabase.outboxRow(key).attempts()).as(key).isEqualTo(2);
        }
    }

    /**
     * A round of one dispatcher: the texts it sent are recorded SENT and its next rows claimed in one
     * call. The application's dispatcher races for the same rows, so which rows the round claims is
     * not fixed; that the recorded ones are SENT, never texted by anyone, and never claimed again is.
     */
    @Test
    void aRoundRecordsItsSentTextsAndClaimsFurtherRowsInOneCall() {
        String phone = newPhone();
        List<String> keys = insertDueRows(phone);
        List<ClaimedSms> sentByTest = outbox.claimDue(ROWS / 2, Duration.ofSeconds(5));
        assertThat(sentByTest).isNotEmpty();

        SmsOutbox.SentAndClaimed round = outbox.markSentAndClaimDue(sentByTest, ROWS, Duration.ofSeconds(5));

        assertThat(round.recorded()).isEqualTo(sentByTest.size());
        List<String> sentKeys = sentByTest.stream().map(ClaimedSms::businessKey).toList();
        assertThat(round.claimed()).extracting(ClaimedSms::businessKey).doesNotContainAnyElementsOf(sentKeys);
        for (String key : sentKeys) {
            assertThat(SmsDatabase.outboxRow(key).status()).as(key).isEqualTo("SENT");
            assertThat(SmsDatabase.outboxRow(key).attempts()).as(key).isEqualTo(1);
        }
        // The test never sends what its round claimed: the application's dispatcher sends those after the lease.
        keys.forEach(key -> awaitStatus(key, "SENT"));
        assertThat(gateway.callsTo(phone)).extracting(Call::idempotencyKey)
                .containsExactlyInAnyOrderElementsOf(keys.stream().filter(key -> !sentKeys.contains(key)).toList());
    }

    /**
     * Recording a round's sent texts reads those rows, not the outbox: with {@value #FILLER_ROWS} other
     * rows in the table, the server reads far fewer rows in a full scan than the table holds (a
     * statement that found its rows by claim token alone, which has no index, would read every one,
     * each round). The claims are made by the test, on rows not due for an hour, so that the
     * application's dispatcher leaves them alone.
     */
    @Test
    void recordingSentTextsReadsTheirRowsNotTheWholeOutbox() {
        String prefix = newOrderId();
        CommittedState.execute("insert into sms_outbox (business_key, order_id, event_type, phone, text, status,"
                + " attempts, next_attempt_at, created_at, updated_at, sent_at) select concat(?, '-', seq, ':create'),"
                + " concat(?, '-', seq), 'CREATE', '+15550000000', 'sent long ago', 'SENT', 1, utc_timestamp(3),"
                + " utc_timestamp(3), utc_timestamp(3), utc_timestamp(3) from seq_1_to_" + FILLER_ROWS, prefix, prefix);
        String phone = newPhone();
        List<ClaimedSms> claims = new ArrayList<>();
        for (int i = 0; i < 3; i++) {
            String orderId = newOrderId();
            String key = orderId + ":create";
            String token = UUID.randomUUID().toString();
            CommittedState.execute("insert into sms_outbox (business_key, order_id, event_type, phone, text, status,"
                    + " attempts, next_attempt_at, claim_token, created_at, updated_at) values (?, ?, 'CREATE', ?,"
                    + " 'claimed', 'PENDING', 1, utc_timestamp(3) + interval 1 hour, ?, utc_timestamp(3),"
                    + " utc_timestamp(3))", key, orderId, phone, token);
            long id = CommittedState.number("select id from sms_outbox where business_key = ?", key);
            claims.add(new ClaimedSms(id, token, key, phone, "claimed", 1));
        }

        long scannedBefore = SmsDatabase.rowsReadInFullScans();
        int recorded = outbox.markSent(claims);
        long scanned = SmsDatabase.rowsReadInFullScans() - scannedBefore;

        assertThat(recorded).isEqualTo(claims.size());
        claims.forEach(claim -> assertThat(SmsDatabase.outboxRow(claim.businessKey()).status()).isEqualTo("SENT"));
        // Reading the status variables is a full scan of a few hundred rows itself; the whole outbox is more
        // than FILLER_ROWS.
        assertThat(scanned).as("rows read in full scans while recording").isLessThan(FILLER_ROWS / 2);
    }

    /** {@value #ROWS} PENDING rows due now, inserted in one statement (due at the same moment for every dispatcher). */
    private static List<String> insertDueRows(String phone) {
        List<String> keys = new ArrayList<>();
        StringBuilder insert = new StringBuilder("insert into sms_outbox (business_key, order_id, event_type, phone, "
                + "text, status, attempts, next_attempt_at, created_at, updated_at) values ");
        List<Object> values = new ArrayList<>();
        for (int i = 0; i < ROWS; i++) {
            String orderId = newOrderId();
            String key = orderId + ":create";
            keys.add(key);
            insert.append(i == 0 ? "" : ", ")
                    .append("(?, ?, 'CREATE', ?, ?, 'PENDING', 0, utc_timestamp(3), utc_timestamp(3), utc_timestamp(3))");
            values.addAll(List.of(key, orderId, phone, "text of " + key));
        }
        CommittedState.execute(insert.toString(), values.toArray());
        return keys;
    }

    private List<ClaimedSms> claimTogether(CyclicBarrier start) {
        try {
            start.await();
        } catch (Exception e) {
            throw new IllegalStateException("claimers did not start together", e);
        }
        return outbox.claimDue(ROWS, Duration.ofSeconds(5));
    }
}
