package dev.orderflow.launcher;

import static org.assertj.core.api.Assertions.assertThat;

import java.util.HashSet;
import java.util.Set;

import org.junit.jupiter.api.Test;

class PortChoicesTest {

    @Test
    void noPortIsChosenTwiceAndEachWasFreeWhenChosen() {
        PortChoices choices = new PortChoices();
        Set<Integer> handedOut = new HashSet<>();
        for (int i = 0; i < 200; i++) {
            int port = choices.port();
            assertThat(handedOut.add(port)).as("port %d handed out twice", port).isTrue();
            assertThat(Ports.isFree(port)).as("port %d free", port).isTrue();
        }
        assertThat(choices.chosen()).isEqualTo(handedOut);
    }

    @Test
    void aBrokerPortTakesItsThreePortsAndNoneWasChosenBefore() {
        PortChoices choices = new PortChoices();
        Set<Integer> before = new HashSet<>();
        for (int i = 0; i < 50; i++) {
            before.add(choices.port());
        }
        for (int i = 0; i < 20; i++) {
            int broker = choices.brokerPort();
            Set<Integer> triple = Set.of(broker - 2, broker, broker + 1);
            assertThat(triple).as("broker triple of %d", broker).doesNotContainAnyElementsOf(before);
            triple.forEach(port -> assertThat(Ports.isFree(port)).as("port %d free", port).isTrue());
            before.addAll(triple);
            assertThat(choices.chosen()).containsAll(triple);
        }
        // Every later plain choice keeps clear of the brokers' ports.
        for (int i = 0; i < 100; i++) {
            assertThat(before.add(choices.port())).isTrue();
        }
    }
}
