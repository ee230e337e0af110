package dev.orderflow.rest.fuzz;

import static org.assertj.core.api.Assertions.assertThat;

import java.nio.charset.StandardCharsets;
import java.util.List;
import java.util.Set;

import org.junit.jupiter.api.Test;

/** The corpus without a server: deterministic, large enough, and its "must reject" bodies really are bad. */
class FuzzCorpusTest {

    private static final String VALID = "{\"customerId\":\"C-1\",\"phone\":\"+819012345678\","
            + "\"items\":[{\"sku\":\"SKU-1\",\"quantity\":2,\"unitPrice\":\"12.50\"}]}";
    private static final FuzzCorpus.JsonBodySpec SPEC = new FuzzCorpus.JsonBodySpec(VALID,
            Set.of("customerId", "items[0].sku"), true, 65_536, 1_048_576);

    @Test
    void sameSeedSameCasesOtherSeedOtherCases() {
        List<String> first = labels(new FuzzCorpus(7).jsonBody("e", "POST", "/o", SPEC, 300));
        List<String> again = labels(new FuzzCorpus(7).jsonBody("e", "POST", "/o", SPEC, 300));
        List<String> other = labels(new FuzzCorpus(8).jsonBody("e", "POST", "/o", SPEC, 300));

        assertThat(again).isEqualTo(first);
        assertThat(other).isNotEqualTo(first);
        assertThat(first).hasSizeGreaterThan(700);
    }

    @Test
    void everyBodyThatMustBeRejectedDiffersFromTheValidOneAndFreeTextIsOnlyInFreeTextFields() {
        List<FuzzCase> cases = new FuzzCorpus(7).jsonBody("e", "POST", "/o", SPEC, 300);

        for (FuzzCase fuzzCase : cases) {
            String body = new String(fuzzCase.request().body(), StandardCharsets.UTF_8);
            assertThat(body).as(fuzzCase.label()).isNotEqualTo(VALID);
            if (fuzzCase.expectation() == FuzzCase.Expectation.MAY_ACCEPT) {
                assertThat(fuzzCase.label().startsWith("customerId ") || fuzzCase.label().startsWith("items[0].sku "))
                        .as(fuzzCase.label()).isTrue();
            }
        }
        assertThat(cases).filteredOn(c -> c.label().startsWith("structural mutation"))
                .allSatisfy(c -> assertThat(FuzzCorpus.tryParse(new String(c.request().body(), StandardCharsets.UTF_8)))
                        .as(c.label()).isNull());
    }

    @Test
    void pathsAndReplacementsReachNestedFields() {
        List<FuzzCase> cases = new FuzzCorpus(7).jsonBody("e", "POST", "/o", SPEC, 0);

        assertThat(cases).anySatisfy(c -> {
            assertThat(c.label()).isEqualTo("items[0].quantity = \"2\"");
            assertThat(new String(c.request().body(), StandardCharsets.UTF_8)).contains("\"quantity\":\"2\"");
        });
        assertThat(cases).anySatisfy(c -> assertThat(c.label()).isEqualTo("without customerId"));
        assertThat(cases).anySatisfy(c -> {
            assertThat(c.label()).isEqualTo("items[0].quantity = 1e400");
            assertThat(new String(c.request().body(), StandardCharsets.UTF_8)).contains("\"quantity\":1e400");
        });
    }

    @Test
    void structuralPositionsSkipStringContents() {
        assertThat(FuzzCorpus.structuralPositions("{\"a:\":[1]}")).containsExactly(0, 1, 4, 5, 6, 8, 9);
    }

    private static List<String> labels(List<FuzzCase> cases) {
        return cases.stream().map(FuzzCase::label).toList();
    }
}
