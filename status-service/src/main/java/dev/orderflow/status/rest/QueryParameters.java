package dev.orderflow.status.rest;

import dev.orderflow.rest.problem.ProblemException;

/** Integer query parameters of the status and admin APIs: a bad value is a 400 problem naming the field. */
public final class QueryParameters {

    private QueryParameters() {
    }

    /** {@code text} as an integer in [min, max], {@code defaultValue} when absent or blank. */
    public static int intInRange(String field, String text, int defaultValue, int min, int max) {
        if (text == null || text.isBlank()) {
            return defaultValue;
        }
        int value;
        try {
            value = Integer.parseInt(text.trim());
        } catch (NumberFormatException e) {
            throw ProblemException.badRequest(field, "must be an integer, was '" + text + "'");
        }
        if (value < min || value > max) {
            throw ProblemException.badRequest(field, "must be between " + min + " and " + max + ", was " + value);
        }
        return value;
    }
}
