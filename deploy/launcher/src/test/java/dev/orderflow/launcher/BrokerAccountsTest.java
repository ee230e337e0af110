package dev.orderflow.launcher;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.attribute.PosixFilePermissions;

import org.apache.rocketmq.common.topic.TopicValidator;
import org.junit.jupiter.api.Test;

import dev.orderflow.rocketmq.embedded.BrokerUser;

class BrokerAccountsTest {

    private final Path keys = Path.of("target", "broker-accounts-test-" + System.nanoTime()).toAbsolutePath();

    @Test
    void secretsAreMadeOnceKeptPrivateAndDifferPerAccount() throws IOException {
        BrokerAccounts first = BrokerAccounts.inDirectory(keys);
        Path file = keys.resolve(BrokerAccounts.FILE);

        assertThat(PosixFilePermissions.toString(Files.getPosixFilePermissions(file))).isEqualTo("rw-------");
        assertThat(first.secretKey("order-service")).hasSizeGreaterThanOrEqualTo(32)
                .isNotEqualTo(first.secretKey("inventory-service"));
        BrokerAccounts again = BrokerAccounts.load(file);
        for (BrokerUser user : first.users()) {
            assertThat(again.secretKey(user.accessKey())).as(user.accessKey()).isEqualTo(user.secretKey());
        }
    }

    @Test
    void everyServiceHasAnAccountOfItsOwnAndOnlyTheToolsAreSuperUsers() {
        BrokerAccounts accounts = BrokerAccounts.inDirectory(keys);

        assertThat(accounts.users()).extracting(BrokerUser::accessKey).containsExactlyInAnyOrder("order-service",
                "inventory-service", "sms-service", "points-service", "status-service", BrokerAccounts.TOOLS);
        assertThat(accounts.users()).filteredOn(BrokerUser::isSuperUser).extracting(BrokerUser::accessKey)
                .containsExactly(BrokerAccounts.TOOLS);
        // The transactional sender answers the broker's check-backs, which name the half-message topic.
        assertThat(accounts.users()).filteredOn(user -> user.toString().contains(TopicValidator.RMQ_SYS_TRANS_HALF_TOPIC))
                .extracting(BrokerUser::accessKey).containsExactly("order-service");
        assertThat(BrokerAccounts.properties("points-service"))
                .containsEntry("mp.messaging.connector.smallrye-rocketmq.access-key", "points-service");
        assertThat(accounts.environment("points-service"))
                .containsEntry("MP_MESSAGING_CONNECTOR_SMALLRYE_ROCKETMQ_SECRET_KEY", accounts.secretKey("points-service"));
        assertThat(accounts.hasAccount("fake-service")).isFalse();
        assertThatThrownBy(() -> accounts.secretKey("fake-service")).isInstanceOf(IllegalArgumentException.class)
                .hasMessageContaining("fake-service");
    }
}
