package dev.orderflow.status.console;

import java.util.Map;
import java.util.Optional;

import io.smallrye.config.ConfigMapping;
import io.smallrye.config.WithDefault;

/** Settings of the DLQ console ({@code /admin/dlq}, {@code /admin/redrive-requests}), under {@code orderflow.status.console}. */
@ConfigMapping(prefix = "orderflow.status.console")
public interface ConsoleConfig {

    /**
     * Per required consumer (short name): whether re-driving its dead letters needs a second
     * person (an approver other than the requester). Consumers not listed need approval: a
     * consumer that moves amounts must never be re-driven by one person by accident.
     */
    Map<String, Boolean> approvalRequired();

    /**
     * Most DLQ entries read per queue, oldest first: the listing's largest {@code max}, and how
     * far a re-drive looks for the requested entry.
     */
    @WithDefault("500")
    int browseLimit();

    /** Most audit rows one {@code GET /admin/audit} returns. */
    @WithDefault("500")
    int auditLimit();

    default boolean approvalRequiredFor(String consumer) {
        return Optional.ofNullable(approvalRequired().get(consumer)).orElse(true);
    }
}
