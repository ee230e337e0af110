package dev.orderflow.rest.problem;

import java.util.List;

/** Ends a request with a problem response; thrown by resources and services for expected 4xx answers. */
public class ProblemException extends RuntimeException {

    private final transient Problem problem;

    public ProblemException(Problem problem) {
        super(problem.detail(), null, false, false);
        this.problem = problem;
    }

    /** 400 naming one invalid field. */
    public static ProblemException badRequest(String field, String message) {
        return invalid(List.of(new FieldError(field, message)));
    }

    /** 400 naming every invalid field. */
    public static ProblemException invalid(List<FieldError> errors) {
        return new ProblemException(Problem.invalid(400, errors));
    }

    /** 404 of a kind of resource, e.g. {@code notFound("stock", "No stock for SKU SKU-9")}. */
    public static ProblemException notFound(String kind, String detail) {
        return new ProblemException(Problem.of(kind + "-not-found", "Not found", 404, detail));
    }

    public Problem problem() {
        return problem;
    }
}
