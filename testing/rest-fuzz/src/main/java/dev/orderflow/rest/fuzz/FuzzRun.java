package dev.orderflow.rest.fuzz;

import java.io.IOException;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;

/**
 * Sends fuzz cases one after the other and collects, per endpoint, how many were tried,
 * rejected and accepted, and every violation of {@link ResponseChecks}.
 */
public final class FuzzRun {

    /** Called for each input the service accepted (2xx); returns the violations it finds in what was stored. */
    @FunctionalInterface
    public interface AcceptedCheck {
        List<String> check(FuzzCase fuzzCase, RawResponse response);
    }

    /** Inputs per endpoint. */
    public static final class Tally {
        private int inputs;
        private int rejected;
        private int accepted;

        public int inputs() {
            return inputs;
        }

        public int rejected() {
            return rejected;
        }

        public int accepted() {
            return accepted;
        }
    }

    private final RawHttp http;
    private final Map<String, Tally> tallies = new LinkedHashMap<>();
    private final List<String> violations = new ArrayList<>();

    public FuzzRun(RawHttp http) {
        this.http = http;
    }

    /** Sends every case; an accepted answer is handed to {@code onAccepted}. */
    public FuzzRun send(List<FuzzCase> cases, AcceptedCheck onAccepted) {
        for (FuzzCase fuzzCase : cases) {
            RawResponse response;
            try {
                response = http.exchange(fuzzCase.request());
            } catch (IOException e) {
                violations.add(fuzzCase + ": " + e);
                continue;
            }
            Tally tally = tallies.computeIfAbsent(fuzzCase.endpoint(), k -> new Tally());
            tally.inputs++;
            List<String> found = new ArrayList<>(ResponseChecks.check(fuzzCase, response));
            if (response.status() >= 200 && response.status() < 300) {
                tally.accepted++;
                found.addAll(onAccepted.check(fuzzCase, response));
            } else {
                tally.rejected++;
            }
            found.forEach(v -> violations.add(fuzzCase + " → " + response.status() + ": " + v + " | body: "
                    + abbreviate(response.bodyText())));
        }
        return this;
    }

    /** Sends every case; none may be accepted. */
    public FuzzRun send(List<FuzzCase> cases) {
        return send(cases, (fuzzCase, response) -> List.of("accepted an input that must be rejected"));
    }

    public Map<String, Tally> tallies() {
        return tallies;
    }

    public List<String> violations() {
        return violations;
    }

    public int inputs() {
        return tallies.values().stream().mapToInt(Tally::inputs).sum();
    }

    /** One line per endpoint, {@code FUZZ endpoint=POST /orders inputs=N rejected=R accepted=A}. */
    public List<String> summary() {
        List<String> lines = new ArrayList<>();
        tallies.forEach((endpoint, t) -> lines.add("FUZZ endpoint=" + endpoint + " inputs=" + t.inputs + " rejected="
                + t.rejected + " accepted=" + t.accepted));
        return lines;
    }

    /** Prints the summary and throws if there was any violation (kinds counted, the first 40 listed). */
    public void printAndVerify() {
        summary().forEach(System.out::println);
        if (!violations.isEmpty()) {
            violations.stream().limit(1_000).forEach(v -> System.out.println("FUZZ violation: " + v));
            Map<String, Integer> kinds = new java.util.TreeMap<>();
            violations.forEach(v -> kinds.merge(v.replaceAll(" \\[.*] → ", " → ").replaceAll(" \\| body: .*", ""),
                    1, Integer::sum));
            throw new AssertionError(violations.size() + " fuzz violations, by kind:\n" + kinds
                    + "\nfirst ones:\n" + String.join("\n", violations.subList(0, Math.min(40, violations.size()))));
        }
    }

    private static String abbreviate(String text) {
        String oneLine = text.replace('\n', ' ').replace('\r', ' ');
        return oneLine.length() > 300 ? oneLine.substring(0, 300) + "..." : oneLine;
    }
}
