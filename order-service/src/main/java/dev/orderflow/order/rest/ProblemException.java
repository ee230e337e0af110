package dev.orderflow.order.rest;

import java.util.List;

/** Ends a request with a problem response; thrown by the REST layer for invalid input. */
public class ProblemException extends RuntimeException {

    private final transient Problem problem;

    public ProblemException(Problem problem) {
        super(problem.detail(), null, false, false);
        this.problem = problem;
    }

    public static ProblemException badRequest(String field, String message) {
        return new ProblemException(Problem.invalid(400, List.of(new FieldError(field, message))));
    }

    public Problem problem() {
        return problem;
    }
}
