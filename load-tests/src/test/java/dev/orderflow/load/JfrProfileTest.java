package dev.orderflow.load;

import static org.assertj.core.api.Assertions.assertThat;

import org.junit.jupiter.api.Test;

class JfrProfileTest {

    @Test
    void classesAreCountedUnderTheirLibrary() {
        assertThat(JfrProfile.library("org.hibernate.engine.spi.ActionQueue")).isEqualTo("Hibernate ORM");
        assertThat(JfrProfile.library("org.mariadb.jdbc.client.impl.StandardClient")).isEqualTo("MariaDB Connector/J");
        assertThat(JfrProfile.library("java.util.HashMap")).isEqualTo("JDK");
        assertThat(JfrProfile.library("dev.orderflow.consumer.IdempotentConsumer")).isEqualTo("orderflow");
        assertThat(JfrProfile.library("org.example.tool.Thing")).as("unknown: first three package parts")
                .isEqualTo("org.example.tool");
        assertThat(JfrProfile.library("Top")).isEqualTo("Top");
    }
}
