package dev.orderflow.sms.rest;

/**
 * An RFC 9457 problem body ({@code application/problem+json}). Never carries a stack trace.
 *
 * @param type   a URI naming the kind of problem
 * @param title  short summary of the kind
 * @param status the HTTP status
 * @param detail what went wrong with this request
 */
public record Problem(String type, String title, int status, String detail) {

    public static final String MEDIA_TYPE = "application/problem+json";
    private static final String TYPE_PREFIX = "https://orderflow.dev/problems/";

    public static Problem of(String kind, String title, int status, String detail) {
        return new Problem(TYPE_PREFIX + kind, title, status, detail);
    }
}
