package dev.orderflow.order.filequeue;

import java.math.BigDecimal;
import java.nio.ByteBuffer;
import java.nio.charset.CharacterCodingException;
import java.nio.charset.CodingErrorAction;
import java.nio.charset.StandardCharsets;
import java.security.MessageDigest;
import java.security.NoSuchAlgorithmException;
import java.util.ArrayList;
import java.util.HexFormat;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.regex.Matcher;
import java.util.regex.Pattern;

import dev.orderflow.order.rest.CreateOrderRequest;
import dev.orderflow.order.rest.OrderRequests;
import dev.orderflow.order.service.NewOrder;
import dev.orderflow.rest.problem.FieldError;
import dev.orderflow.rest.problem.ProblemException;

/**
 * Turns a file's bytes into validated orders, all or nothing: any invalid part rejects the whole
 * file before a single order is created. Validation is the REST API's ({@link OrderRequests}).
 *
 * <ul>
 * <li>{@code *.json}: one order, the body of {@code POST /orders}. Idempotency key
 *     {@code file:<sha256 of the file's bytes>}.</li>
 * <li>{@code *.csv}: header {@value #CSV_HEADER}, one line per item, lines grouped into orders by
 *     {@code orderRef} (order of first appearance). Idempotency key of each order
 *     {@code file:<sha256 of "<sha256 of the file's bytes>/<orderRef>">}.</li>
 * </ul>
 * Same bytes ⇒ same keys ⇒ the same orders (a re-dropped file, under any name, creates nothing new);
 * different bytes (even under the same name) ⇒ different orders.
 */
public class FileOrderParser {

    public static final String CSV_HEADER = "orderRef,customerId,phone,sku,quantity,unitPrice";
    private static final List<String> CSV_COLUMNS = List.of(CSV_HEADER.split(","));
    private static final Pattern ORDER_REF = Pattern.compile("^[\\x21-\\x7E]{1,64}$");
    private static final Pattern ITEM_FIELD = Pattern.compile("^items\\[(\\d+)]\\.?(.*)$");
    private static final int MAX_REPORTED_ERRORS = 20;

    private final OrderRequests requests;

    public FileOrderParser(OrderRequests requests) {
        this.requests = requests;
    }

    /** The orders in {@code content}, or the reason none of them may be created. */
    public List<FileOrder> parse(String fileName, byte[] content) throws FileRejectedException {
        String lower = fileName.toLowerCase(Locale.ROOT);
        String hash = sha256(content);
        if (lower.endsWith(".json")) {
            return List.of(parseJson(fileName, text(content), hash));
        }
        if (lower.endsWith(".csv")) {
            return parseCsv(text(content), hash);
        }
        throw new FileRejectedException(FailureClass.FORMAT,
                "unsupported file type: " + fileName + " (expected *.json or *.csv)");
    }

    private FileOrder parseJson(String fileName, String body, String hash) throws FileRejectedException {
        try {
            return new FileOrder(fileName, requests.parseCreateOrder(body), "file:" + hash);
        } catch (ProblemException e) {
            throw new FileRejectedException(FailureClass.FORMAT, describe(e, null));
        }
    }

    private List<FileOrder> parseCsv(String text, String hash) throws FileRejectedException {
        if (text.startsWith("\uFEFF")) {
            text = text.substring(1);
        }
        String[] lines = text.split("\n", -1);
        List<String> errors = new ArrayList<>();
        List<String> header = fields(stripCr(lines[0]));
        if (!header.stream().map(String::trim).toList().equals(CSV_COLUMNS)) {
            throw new FileRejectedException(FailureClass.FORMAT, "line 1: header must be " + CSV_HEADER);
        }
        Map<String, Group> groups = new LinkedHashMap<>();
        for (int i = 1; i < lines.length; i++) {
            int lineNo = i + 1;
            String line = stripCr(lines[i]);
            if (line.isBlank()) {
                continue;
            }
            List<String> f = fields(line);
            if (f == null) {
                errors.add("line " + lineNo + ": unterminated quoted field");
                continue;
            }
            if (f.size() != CSV_COLUMNS.size()) {
                errors.add("line " + lineNo + ": expected " + CSV_COLUMNS.size() + " fields, found " + f.size());
                continue;
            }
            String ref = f.get(0).trim();
            if (!ORDER_REF.matcher(ref).matches()) {
                errors.add("line " + lineNo + ": orderRef: must be 1 to 64 visible ASCII characters");
                continue;
            }
            Integer quantity = null;
            try {
                quantity = Integer.valueOf(f.get(4).trim());
            } catch (NumberFormatException e) {
                errors.add("line " + lineNo + ": quantity: must be an integer, was '" + f.get(4) + "'");
            }
            BigDecimal unitPrice = null;
            try {
                unitPrice = new BigDecimal(f.get(5).trim());
            } catch (NumberFormatException e) {
                errors.add("line " + lineNo + ": unitPrice: must be a decimal number, was '" + f.get(5) + "'");
            }
            boolean lineValid = quantity != null && unitPrice != null;
            String customerId = emptyToNull(f.get(1).trim());
            String phone = emptyToNull(f.get(2).trim());
            Group group = groups.computeIfAbsent(ref, r -> new Group(r, lineNo, customerId, phone));
            if (group.firstLine != lineNo && !(same(group.customerId, customerId) && same(group.phone, phone))) {
                errors.add("line " + lineNo + ": customerId/phone differ from line " + group.firstLine
                        + " of orderRef " + ref);
                lineValid = false;
            }
            group.broken |= !lineValid;
            group.items.add(new CreateOrderRequest.Item(emptyToNull(f.get(3).trim()), quantity, unitPrice));
            group.lines.add(lineNo);
        }
        if (errors.isEmpty() && groups.isEmpty()) {
            throw new FileRejectedException(FailureClass.FORMAT, "line 2: no order lines after the header");
        }
        List<FileOrder> orders = new ArrayList<>();
        for (Group group : groups.values()) {
            if (group.broken) {
                continue; // its lines are reported already
            }
            try {
                NewOrder order = requests.validate(new CreateOrderRequest(group.customerId, group.phone, group.items));
                orders.add(new FileOrder(group.ref, order, "file:" + sha256((hash + "/" + group.ref)
                        .getBytes(StandardCharsets.UTF_8))));
            } catch (ProblemException e) {
                errors.add(describe(e, group));
            }
        }
        if (!errors.isEmpty()) {
            List<String> shown = errors.size() > MAX_REPORTED_ERRORS ? errors.subList(0, MAX_REPORTED_ERRORS) : errors;
            throw new FileRejectedException(FailureClass.FORMAT, String.join("; ", shown)
                    + (errors.size() > shown.size() ? "; and " + (errors.size() - shown.size()) + " more" : ""));
        }
        return orders;
    }

    /** The problem's field errors as text; with a CSV group, each names its line. */
    private static String describe(ProblemException e, Group group) {
        List<FieldError> fieldErrors = e.problem().errors();
        if (fieldErrors == null || fieldErrors.isEmpty()) {
            return (group == null ? "" : "line " + group.firstLine + ": ") + e.problem().detail();
        }
        List<String> parts = new ArrayList<>();
        for (FieldError error : fieldErrors) {
            if (group == null) {
                parts.add(error.field() + ": " + error.message());
                continue;
            }
            Matcher item = ITEM_FIELD.matcher(error.field());
            if (item.matches() && Integer.parseInt(item.group(1)) < group.lines.size()) {
                parts.add("line " + group.lines.get(Integer.parseInt(item.group(1))) + ": "
                        + (item.group(2).isEmpty() ? "item" : item.group(2)) + ": " + error.message());
            } else {
                parts.add("line " + group.firstLine + ": " + error.field() + " (orderRef " + group.ref + "): "
                        + error.message());
            }
        }
        return String.join("; ", parts);
    }

    /**
     * The fields of one CSV line: comma separated; a field may be double-quoted, with {@code ""}
     * for a quote inside. Null when a quote is not closed.
     */
    static List<String> fields(String line) {
        List<String> out = new ArrayList<>();
        StringBuilder field = new StringBuilder();
        boolean quoted = false;
        for (int i = 0; i < line.length(); i++) {
            char c = line.charAt(i);
            if (quoted) {
                if (c == '"' && i + 1 < line.length() && line.charAt(i + 1) == '"') {
                    field.append('"');
                    i++;
                } else if (c == '"') {
                    quoted = false;
                } else {
                    field.append(c);
                }
            } else if (c == '"' && field.toString().isBlank()) {
                field.setLength(0);
                quoted = true;
            } else if (c == ',') {
                out.add(field.toString());
                field.setLength(0);
            } else {
                field.append(c);
            }
        }
        if (quoted) {
            return null;
        }
        out.add(field.toString());
        return out;
    }

    private static String text(byte[] content) throws FileRejectedException {
        try {
            return StandardCharsets.UTF_8.newDecoder()
                    .onMalformedInput(CodingErrorAction.REPORT)
                    .onUnmappableCharacter(CodingErrorAction.REPORT)
                    .decode(ByteBuffer.wrap(content)).toString();
        } catch (CharacterCodingException e) {
            throw new FileRejectedException(FailureClass.FORMAT, "not UTF-8 text: " + e);
        }
    }

    static String sha256(byte[] bytes) {
        try {
            return HexFormat.of().formatHex(MessageDigest.getInstance("SHA-256").digest(bytes));
        } catch (NoSuchAlgorithmException e) {
            throw new IllegalStateException("SHA-256 is part of every Java runtime", e);
        }
    }

    private static String stripCr(String line) {
        return line.endsWith("\r") ? line.substring(0, line.length() - 1) : line;
    }

    private static String emptyToNull(String value) {
        return value.isEmpty() ? null : value;
    }

    private static boolean same(String a, String b) {
        return a == null ? b == null : a.equals(b);
    }

    private static final class Group {
        final String ref;
        final int firstLine;
        final String customerId;
        final String phone;
        final List<CreateOrderRequest.Item> items = new ArrayList<>();
        final List<Integer> lines = new ArrayList<>();
        boolean broken;

        Group(String ref, int firstLine, String customerId, String phone) {
            this.ref = ref;
            this.firstLine = firstLine;
            this.customerId = customerId;
            this.phone = phone;
        }
    }
}
