package dev.orderflow.status.security;

/**
 * Roles of the admin API ({@code /admin/*}, HTTP Basic, users from configuration). Each role is
 * granted on its own: an operator who should also read gets {@code viewer,operator}, but every
 * reading endpoint admits all three roles.
 */
public final class AdminRoles {

    /** Reads: DLQ listing, re-drive requests, audit, reconciliation. */
    public static final String VIEWER = "viewer";
    /** Requests re-drives and runs actions. */
    public static final String OPERATOR = "operator";
    /** Approves or rejects re-drive requests of other users. */
    public static final String APPROVER = "approver";

    private AdminRoles() {
    }
}
