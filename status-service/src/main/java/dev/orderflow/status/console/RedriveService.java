package dev.orderflow.status.console;

import java.nio.charset.StandardCharsets;
import java.time.Instant;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;

import jakarta.enterprise.context.ApplicationScoped;
import jakarta.transaction.Transactional;

import javax.sql.DataSource;

import org.jboss.logging.Logger;

import dev.orderflow.order.events.OrderEventParser;
import dev.orderflow.rest.problem.Problem;
import dev.orderflow.rest.problem.ProblemException;
import dev.orderflow.rocketmq.DeadLetter;
import dev.orderflow.rocketmq.RocketMQAdmin;
import dev.orderflow.rocketmq.RocketMQAdminException;
import dev.orderflow.sql.BatchSql;

/**
 * Re-drives of dead letters: request, approval by a second person where the consumer needs it
 * ({@link ConsoleConfig#approvalRequiredFor}), rejection, and the send to {@code %RETRY%<group>}
 * (that group only, fresh attempt count: {@link RocketMQAdmin#redrive}). Every action writes its
 * audit row in the transaction that changes the request.
 *
 * <p>Sending is safe to repeat because the consumers dedupe on the message key; what the console
 * prevents is a second send of the same request (409) and a re-drive of an entry that already has
 * a pending or sent request (409: request it again only after a rejection or a failure).
 */
@ApplicationScoped
public class RedriveService {

    private static final Logger LOG = Logger.getLogger(RedriveService.class);
    private static final int FAILURE_TEXT_MAX = 1000;

    private final DataSource dataSource;
    private final DeadLetterQueues queues;
    private final RocketMQAdmin admin;
    private final ConsoleConfig config;

    RedriveService(DataSource dataSource, DeadLetterQueues queues, RocketMQAdmin admin, ConsoleConfig config) {
        this.dataSource = dataSource;
        this.queues = queues;
        this.admin = admin;
        this.config = config;
    }

    /**
     * One request per DLQ entry; sent at once when the consumer needs no approval.
     *
     * @throws ProblemException 400 bad input, 404 unknown consumer or entry, 409 entry already pending or sent
     */
    @Transactional
    public List<RedriveRequestView> request(String consumer, RedriveRequestInput input, String actor) {
        String group = queues.groupOf(consumer);
        List<String> ids = validate(input);
        Map<String, DeadLetter> letters = queues.find(consumer, ids);
        List<RedriveRequestView> created = new ArrayList<>();
        for (String id : ids) {
            DeadLetter letter = letters.get(id);
            if (letter == null) {
                throw ProblemException.notFound("dead-letter-not-found", "no entry " + id + " in the first "
                        + config.browseLimit() + " entries of the DLQ of " + consumer + " (" + group + ")");
            }
            refuseIfOpen(consumer, id);
            RedriveRequest request = new RedriveRequest();
            request.consumer = consumer;
            request.consumerGroup = group;
            request.dlqMessageId = id;
            request.messageKey = letter.key();
            request.status = RedriveStatus.PENDING_APPROVAL;
            request.requestedBy = actor;
            request.requestedAt = Instant.now();
            request.comment = input.comment();
            request.originalBody = letter.bodyAsString();
            request.correctedBody = input.correctedBody();
            request.insert(dataSource);
            audit(request, AuditEntry.Action.REQUEST, actor, input.comment());
            if (!config.approvalRequiredFor(consumer)) {
                send(request, letter, actor);
                request.updateDecision(dataSource);
            }
            created.add(RedriveRequestView.of(request));
        }
        return created;
    }

    /**
     * An approver other than the requester approves; the message is sent in the same call.
     *
     * @throws ProblemException 404 unknown request, 403 own request, 409 not pending
     */
    @Transactional
    public RedriveRequestView approve(long requestId, String actor) {
        RedriveRequest request = pending(requestId);
        if (request.requestedBy.equals(actor)) {
            throw new ProblemException(Problem.of("own-request", "Own request", 403,
                    "re-drive request " + requestId + " was requested by " + actor
                            + "; a different approver must approve it"));
        }
        request.decidedBy = actor;
        request.decidedAt = Instant.now();
        audit(request, AuditEntry.Action.APPROVE, actor, null);
        DeadLetter letter = queues.find(request.consumer, List.of(request.dlqMessageId)).get(request.dlqMessageId);
        if (letter == null) {
            fail(request, actor, "the DLQ entry is no longer among the first " + config.browseLimit()
                    + " entries (expired from the broker?)");
        } else {
            send(request, letter, actor);
        }
        request.updateDecision(dataSource);
        return RedriveRequestView.of(request);
    }

    /**
     * @throws ProblemException 404 unknown request, 409 not pending
     */
    @Transactional
    public RedriveRequestView reject(long requestId, String actor, String comment) {
        RedriveRequest request = pending(requestId);
        request.status = RedriveStatus.REJECTED;
        request.decidedBy = actor;
        request.decidedAt = Instant.now();
        audit(request, AuditEntry.Action.REJECT, actor, comment);
        request.updateDecision(dataSource);
        return RedriveRequestView.of(request);
    }

    /** Newest first; all statuses when {@code status} is null. */
    @Transactional
    public List<RedriveRequestView> list(RedriveStatus status, int limit) {
        List<Object> parameters = new ArrayList<>(2);
        if (status != null) {
            parameters.add(status);
        }
        parameters.add(limit);
        return BatchSql.select(dataSource, "select * from " + RedriveRequest.TABLE
                + (status == null ? "" : " where status = ?") + " order by id desc limit ?", parameters,
                RedriveRequest::read).stream().map(RedriveRequestView::of).toList();
    }

    /** The latest audit rows, newest first. */
    @Transactional
    public List<AuditEntryView> audit(int limit) {
        return BatchSql.select(dataSource, "select * from " + AuditEntry.TABLE + " order by id desc limit ?",
                List.of(limit), AuditEntry::read).stream().map(AuditEntryView::of).toList();
    }

    private List<String> validate(RedriveRequestInput input) {
        if (input == null || input.dlqMessageIds() == null || input.dlqMessageIds().isEmpty()
                || input.dlqMessageIds().stream().anyMatch(id -> id == null || id.isBlank())) {
            throw ProblemException.badRequest("dlqMessageIds", "name at least one DLQ message id, none blank");
        }
        List<String> ids = input.dlqMessageIds().stream().distinct().toList();
        if (input.correctedBody() != null) {
            if (ids.size() != 1) {
                throw ProblemException.badRequest("correctedBody", "a corrected body goes with exactly one DLQ message id");
            }
            try {
                OrderEventParser.parse(input.correctedBody());
            } catch (RuntimeException e) {
                throw ProblemException.badRequest("correctedBody", "not a valid order event: " + e.getMessage());
            }
        }
        if (input.comment() != null && input.comment().length() > FAILURE_TEXT_MAX) {
            throw ProblemException.badRequest("comment", "at most " + FAILURE_TEXT_MAX + " characters");
        }
        return ids;
    }

    private void refuseIfOpen(String consumer, String dlqMessageId) {
        List<RedriveRequest> open = BatchSql.select(dataSource, "select * from " + RedriveRequest.TABLE
                + " where consumer = ? and dlq_message_id = ? and status in (?, ?) order by id limit 1",
                List.of(consumer, dlqMessageId, RedriveStatus.PENDING_APPROVAL, RedriveStatus.SENT), RedriveRequest::read);
        if (!open.isEmpty()) {
            RedriveRequest existing = open.get(0);
            throw conflict("DLQ entry " + dlqMessageId + " already has re-drive request " + existing.id + " ("
                    + existing.status + ")");
        }
    }

    private RedriveRequest pending(long requestId) {
        List<RedriveRequest> found = BatchSql.select(dataSource, "select * from " + RedriveRequest.TABLE
                + " where id = ? for update", List.of(requestId), RedriveRequest::read);
        RedriveRequest request = found.isEmpty() ? null : found.get(0);
        if (request == null) {
            throw ProblemException.notFound("redrive-request-not-found", "no re-drive request " + requestId);
        }
        if (request.status != RedriveStatus.PENDING_APPROVAL) {
            throw conflict("re-drive request " + requestId + " is " + request.status + ", not PENDING_APPROVAL"
                    + (request.status == RedriveStatus.SENT ? ": it was sent already and is not sent again" : ""));
        }
        return request;
    }

    private void send(RedriveRequest request, DeadLetter letter, String actor) {
        byte[] newBody = request.correctedBody == null ? null : request.correctedBody.getBytes(StandardCharsets.UTF_8);
        try {
            request.sentMessageId = admin.redrive(request.consumerGroup, letter, newBody);
        } catch (RocketMQAdminException | IllegalArgumentException e) {
            // Not stored by the broker, or an entry that cannot be re-driven (no origin topic): FAILED, audited.
            LOG.warnf("Re-drive request %d of %s to %s failed: %s", request.id, request.dlqMessageId,
                    request.consumerGroup, e.getMessage());
            fail(request, actor, "not re-driven: " + e.getMessage());
            return;
        }
        request.status = RedriveStatus.SENT;
        request.sentAt = Instant.now();
        audit(request, AuditEntry.Action.SEND, actor, "sent as " + request.sentMessageId);
    }

    private void fail(RedriveRequest request, String actor, String why) {
        request.status = RedriveStatus.FAILED;
        request.failure = truncate(why);
        audit(request, AuditEntry.Action.SEND, actor, request.failure);
    }

    private void audit(RedriveRequest request, AuditEntry.Action action, String actor, String detail) {
        AuditEntry entry = new AuditEntry();
        entry.at = Instant.now();
        entry.actor = actor;
        entry.action = action;
        entry.consumer = request.consumer;
        entry.consumerGroup = request.consumerGroup;
        entry.requestId = request.id;
        entry.dlqMessageId = request.dlqMessageId;
        entry.messageKey = request.messageKey;
        entry.beforeBody = request.originalBody;
        entry.afterBody = request.bodyToSend();
        entry.outcome = request.status;
        entry.detail = truncate(detail);
        entry.insert(dataSource);
    }

    private static ProblemException conflict(String detail) {
        return new ProblemException(Problem.of("redrive-conflict", "Re-drive conflict", 409, detail));
    }

    private static String truncate(String text) {
        return text == null || text.length() <= FAILURE_TEXT_MAX ? text : text.substring(0, FAILURE_TEXT_MAX);
    }
}
