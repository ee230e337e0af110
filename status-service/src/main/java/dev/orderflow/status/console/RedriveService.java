package dev.orderflow.status.console;

import java.nio.charset.StandardCharsets;
import java.time.Instant;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;

import jakarta.enterprise.context.ApplicationScoped;
import jakarta.persistence.LockModeType;
import jakarta.transaction.Transactional;

import org.jboss.logging.Logger;

import dev.orderflow.order.events.OrderEventParser;
import dev.orderflow.order.events.OrderEventType;
import dev.orderflow.order.events.OrderMessaging;
import dev.orderflow.rest.problem.Problem;
import dev.orderflow.rest.problem.ProblemException;
import dev.orderflow.rocketmq.DeadLetter;
import dev.orderflow.rocketmq.RocketMQAdmin;
import dev.orderflow.rocketmq.RocketMQAdminException;
import dev.orderflow.status.domain.Failure;
import dev.orderflow.status.domain.OrderState;
import dev.orderflow.status.service.OrderStatusNotFoundException;
import dev.orderflow.status.service.StatusQueries;
import dev.orderflow.status.service.StatusRecorder;
import io.quarkus.hibernate.orm.panache.PanacheQuery;
import io.quarkus.panache.common.Page;
import io.quarkus.panache.common.Sort;

/**
 * Re-drives of dead letters: request, approval by a second person where the consumer needs it
 * ({@link ConsoleConfig#approvalRequiredFor}), rejection, and the send to {@code %RETRY%<group>}
 * (that group only, fresh attempt count: {@link RocketMQAdmin#redrive}). Every action writes its
 * audit row in the transaction that changes the request.
 *
 * <p>The alternative to a re-drive is to abandon the order of a dead-lettered create: the order
 * is decided FAILED ({@link StatusRecorder#abandon}) and compensated like any failed order. That
 * cannot be undone (the customer is told, stock and points are given back), so it always needs a
 * second person's approval, whatever the consumer's setting.
 *
 * <p>Sending is safe to repeat because the consumers dedupe on the message key; what the console
 * prevents is a second send of the same request (409) and a re-drive of an entry that already has
 * a pending or sent request (409: request it again only after a rejection or a failure).
 */
@ApplicationScoped
public class RedriveService {

    private static final Logger LOG = Logger.getLogger(RedriveService.class);
    private static final int FAILURE_TEXT_MAX = 1000;

    private final DeadLetterQueues queues;
    private final RocketMQAdmin admin;
    private final ConsoleConfig config;
    private final StatusQueries statuses;
    private final StatusRecorder recorder;

    RedriveService(DeadLetterQueues queues, RocketMQAdmin admin, ConsoleConfig config,
            StatusQueries statuses, StatusRecorder recorder) {
        this.queues = queues;
        this.admin = admin;
        this.config = config;
        this.statuses = statuses;
        this.recorder = recorder;
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
            RedriveRequest request = newRequest(RedriveRequest.RequestAction.REDRIVE, consumer, group, letter, actor,
                    input.comment());
            request.correctedBody = input.correctedBody();
            request.persist();
            audit(request, AuditEntry.Action.REQUEST, actor, input.comment());
            if (!config.approvalRequiredFor(consumer)) {
                send(request, letter, actor);
            }
            created.add(RedriveRequestView.of(request));
        }
        return created;
    }

    /**
     * A request to abandon the order of one dead-lettered create; it waits for an approver. The
     * comment is required: it becomes the order's failure reason, which the customer's SMS and the
     * order's API show.
     *
     * @throws ProblemException 400 bad input or not a create's dead letter, 404 unknown consumer or
     *                          entry, 409 entry already has an open request or the order is not in ATTENTION
     */
    @Transactional
    public RedriveRequestView requestAbandon(String consumer, RedriveRequestInput input, String actor) {
        String group = queues.groupOf(consumer);
        if (input == null || input.dlqMessageIds() == null || input.dlqMessageIds().size() != 1
                || input.dlqMessageIds().get(0) == null || input.dlqMessageIds().get(0).isBlank()) {
            throw ProblemException.badRequest("dlqMessageIds", "name exactly one DLQ message id");
        }
        if (input.correctedBody() != null) {
            throw ProblemException.badRequest("correctedBody", "an abandon sends nothing; leave correctedBody out");
        }
        if (input.comment() == null || input.comment().isBlank() || input.comment().length() > FAILURE_TEXT_MAX) {
            throw ProblemException.badRequest("comment",
                    "say why the order is given up (1 to " + FAILURE_TEXT_MAX + " characters)");
        }
        String id = input.dlqMessageIds().get(0);
        DeadLetter letter = queues.find(consumer, List.of(id)).get(id);
        if (letter == null) {
            throw ProblemException.notFound("dead-letter-not-found", "no entry " + id + " in the first "
                    + config.browseLimit() + " entries of the DLQ of " + consumer + " (" + group + ")");
        }
        String orderId = abandonableOrder(letter);
        refuseIfOpen(consumer, id);
        RedriveRequest request = newRequest(RedriveRequest.RequestAction.ABANDON, consumer, group, letter, actor,
                input.comment());
        request.persist();
        audit(request, AuditEntry.Action.REQUEST, actor, "abandon order " + orderId + ": " + input.comment());
        return RedriveRequestView.of(request);
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
        if (request.action == RedriveRequest.RequestAction.ABANDON) {
            abandon(request, actor);
            return RedriveRequestView.of(request);
        }
        DeadLetter letter = queues.find(request.consumer, List.of(request.dlqMessageId)).get(request.dlqMessageId);
        if (letter == null) {
            fail(request, actor, "the DLQ entry is no longer among the first " + config.browseLimit()
                    + " entries (expired from the broker?)");
        } else {
            send(request, letter, actor);
        }
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
        return RedriveRequestView.of(request);
    }

    /** Newest first; all statuses when {@code status} is null. */
    @Transactional
    public List<RedriveRequestView> list(RedriveStatus status, int limit) {
        PanacheQuery<RedriveRequest> requests = status == null ? RedriveRequest.findAll(Sort.descending("id"))
                : RedriveRequest.find("status", Sort.descending("id"), status);
        return requests.page(Page.ofSize(limit)).stream().map(RedriveRequestView::of).toList();
    }

    /** The latest audit rows, newest first. */
    @Transactional
    public List<AuditEntryView> audit(int limit) {
        return AuditEntry.<AuditEntry> findAll(Sort.descending("id")).page(Page.ofSize(limit)).stream()
                .map(AuditEntryView::of).toList();
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
        RedriveRequest existing = RedriveRequest.<RedriveRequest> find("consumer = ?1 and dlqMessageId = ?2 and status in ?3",
                Sort.by("id"), consumer, dlqMessageId,
                List.of(RedriveStatus.PENDING_APPROVAL, RedriveStatus.SENT, RedriveStatus.ABANDONED)).firstResult();
        if (existing != null) {
            throw conflict("DLQ entry " + dlqMessageId + " already has re-drive request " + existing.id + " ("
                    + existing.status + ")");
        }
    }

    private RedriveRequest pending(long requestId) {
        RedriveRequest request = RedriveRequest.findById(requestId, LockModeType.PESSIMISTIC_WRITE);
        if (request == null) {
            throw ProblemException.notFound("redrive-request-not-found", "no re-drive request " + requestId);
        }
        if (request.status != RedriveStatus.PENDING_APPROVAL) {
            throw conflict("re-drive request " + requestId + " is " + request.status + ", not PENDING_APPROVAL"
                    + (request.status == RedriveStatus.SENT ? ": it was sent already and is not sent again" : ""));
        }
        return request;
    }

    /** A new request about one DLQ entry, waiting for approval (not inserted yet). */
    private static RedriveRequest newRequest(RedriveRequest.RequestAction action, String consumer, String group,
            DeadLetter letter, String actor, String comment) {
        RedriveRequest request = new RedriveRequest();
        request.action = action;
        request.consumer = consumer;
        request.consumerGroup = group;
        request.dlqMessageId = letter.msgId();
        request.messageKey = letter.key();
        request.status = RedriveStatus.PENDING_APPROVAL;
        request.requestedBy = actor;
        request.requestedAt = Instant.now();
        request.comment = comment;
        request.originalBody = letter.bodyAsString();
        return request;
    }

    /** The order a dead letter's key names, when it is a create and the order waits in ATTENTION. */
    private String abandonableOrder(DeadLetter letter) {
        OrderMessaging.MessageKey key = OrderMessaging.parseMessageKey(letter.key());
        if (key == null || key.eventType() != OrderEventType.CREATE) {
            throw ProblemException.badRequest("dlqMessageIds", "only the dead letter of an order's create can be"
                    + " abandoned; " + letter.msgId() + " has key " + letter.key());
        }
        OrderState state;
        try {
            state = statuses.find(key.orderId()).state();
        } catch (OrderStatusNotFoundException e) {
            throw conflict("order " + key.orderId() + " is not known to the status service yet; re-drive instead");
        }
        if (state != OrderState.ATTENTION) {
            throw conflict("order " + key.orderId() + " is " + state + "; only an order in ATTENTION can be abandoned");
        }
        return key.orderId();
    }

    /** Decides the order FAILED; FAILED (the request) when it no longer waits for an operator. */
    private void abandon(RedriveRequest request, String actor) {
        String orderId = OrderMessaging.parseMessageKey(request.messageKey).orderId();
        DeadLetter letter = queues.find(request.consumer, List.of(request.dlqMessageId)).get(request.dlqMessageId);
        String failureClass = letter == null || letter.failureClass() == null ? "system" : letter.failureClass();
        try {
            recorder.abandon(orderId, new Failure(request.consumer, failureClass,
                    truncate("abandoned by " + actor + ": " + request.comment)));
        } catch (IllegalStateException e) {
            fail(request, actor, "not abandoned: " + e.getMessage());
            return;
        }
        request.status = RedriveStatus.ABANDONED;
        audit(request, AuditEntry.Action.ABANDON, actor, "order " + orderId + " decided FAILED");
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
        entry.persist();
    }

    private static ProblemException conflict(String detail) {
        return new ProblemException(Problem.of("redrive-conflict", "Re-drive conflict", 409, detail));
    }

    private static String truncate(String text) {
        return text == null || text.length() <= FAILURE_TEXT_MAX ? text : text.substring(0, FAILURE_TEXT_MAX);
    }
}
