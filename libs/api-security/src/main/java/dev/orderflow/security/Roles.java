package dev.orderflow.security;

import java.util.List;

/**
 * The roles a token may carry (claim {@code groups}, or the issuer's role claim mapped to it). Every
 * endpoint names those it admits with {@code @RolesAllowed}; an endpoint without an annotation is
 * refused ({@code quarkus.security.jaxrs.deny-unannotated-endpoints=true}).
 */
public final class Roles {

    /** A shop customer: its own orders, status, points and texts (its id in the token's {@code customer_id}). */
    public static final String CUSTOMER = "customer";
    /** Sets stock levels. */
    public static final String INVENTORY_MANAGER = "inventory-manager";
    /** Reads every order, the DLQs, requests, audit and reconciliation. */
    public static final String VIEWER = "viewer";
    /** Also requests re-drives, abandons and reconciliation runs. */
    public static final String OPERATOR = "operator";
    /** Also approves or rejects other people's requests. */
    public static final String APPROVER = "approver";
    /** Another service of the suite (or a trusted back office): any customer's data, no console actions. */
    public static final String SERVICE = "service";

    /** The people behind the console: each may read any customer's order data. */
    public static final List<String> STAFF = List.of(VIEWER, OPERATOR, APPROVER);

    private Roles() {
    }
}
