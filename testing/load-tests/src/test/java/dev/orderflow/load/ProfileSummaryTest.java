package dev.orderflow.load;

import static org.assertj.core.api.Assertions.assertThat;

import org.junit.jupiter.api.Test;

class ProfileSummaryTest {

    @Test
    void classesAreCountedUnderTheirLibrary() {
        assertThat(ProfileSummary.library("org.hibernate.engine.spi.ActionQueue")).isEqualTo("Hibernate ORM");
        assertThat(ProfileSummary.library("org.mariadb.jdbc.client.impl.StandardClient")).isEqualTo("MariaDB Connector/J");
        assertThat(ProfileSummary.library("java.util.HashMap")).isEqualTo("JDK");
        assertThat(ProfileSummary.library("dev.orderflow.consumer.IdempotentConsumer")).isEqualTo("orderflow");
        assertThat(ProfileSummary.library("org.example.tool.Thing")).as("unknown: first three package parts")
                .isEqualTo("org.example.tool");
        assertThat(ProfileSummary.library("Top")).isEqualTo("Top");
    }
}
