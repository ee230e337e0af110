package dev.orderflow.rest.fuzz;

import static dev.orderflow.rest.fuzz.FuzzCase.Expectation.HTTP_LAYER_4XX;
import static dev.orderflow.rest.fuzz.FuzzCase.Expectation.MAY_ACCEPT;
import static dev.orderflow.rest.fuzz.FuzzCase.Expectation.PROBLEM;

import java.io.ByteArrayOutputStream;
import java.io.IOException;
import java.io.UncheckedIOException;
import java.net.URLEncoder;
import java.nio.charset.StandardCharsets;
import java.time.Duration;
import java.util.ArrayList;
import java.util.Base64;
import java.util.Iterator;
import java.util.List;
import java.util.Map;
import java.util.Random;
import java.util.Set;

import com.fasterxml.jackson.core.JsonProcessingException;
import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import com.fasterxml.jackson.databind.node.ArrayNode;
import com.fasterxml.jackson.databind.node.JsonNodeFactory;
import com.fasterxml.jackson.databind.node.ObjectNode;

import dev.orderflow.rest.fuzz.FuzzCase.Expectation;
import dev.orderflow.rest.fuzz.RawRequest.Header;
import dev.orderflow.tokens.TokenIssuer;

/**
 * A deterministic corpus of hostile requests: the same seed gives the same cases. Each generator
 * returns the cases for one endpoint, each with the answers it allows ({@link Expectation}).
 */
public final class FuzzCorpus {

    /** The seed of a run: {@code -Dorderflow.fuzz.seed=N} to replay another one. */
    public static final long DEFAULT_SEED = Long.getLong("orderflow.fuzz.seed", 20261129L);

    private static final ObjectMapper JSON = new ObjectMapper();
    private static final Header JSON_CONTENT = Header.of("Content-Type", "application/json");
    private static final String STRUCTURAL = "{}[]:,\"";

    private final Random random;

    public FuzzCorpus(long seed) {
        this.random = new Random(seed);
    }

    /**
     * What a JSON-body endpoint's validation knows about its body.
     *
     * @param validJson       a valid body in which every field is required
     * @param freeTextFields  paths ({@code customerId}, {@code items[0].sku}) of text fields that accept any text:
     *                        hostile text there may be accepted ({@link Expectation#MAY_ACCEPT})
     * @param rejectsUnknownFields whether an extra field is a 400
     * @param maxBodyBytes    the application's own body limit answered with a 413 problem, or 0 for none
     * @param httpBodyLimit   {@code quarkus.http.limits.max-body-size} in bytes (plain 413 above it)
     */
    public record JsonBodySpec(String validJson, Set<String> freeTextFields, boolean rejectsUnknownFields,
            int maxBodyBytes, int httpBodyLimit) {
    }

    /**
     * Bodies that are invalid by construction (each must be a 4xx problem) plus hostile text in
     * free-text fields ({@link Expectation#MAY_ACCEPT}): non-object bodies, every truncation,
     * structural mutations at random positions, every field removed, null, of a wrong type, a huge
     * number, a long string, deeply nested, unicode edge cases, SQL/script text, invalid UTF-8,
     * duplicated; unknown fields; oversized bodies.
     */
    public List<FuzzCase> jsonBody(String endpoint, String method, String target, JsonBodySpec spec,
            int randomMutations) {
        List<FuzzCase> cases = new ArrayList<>();
        JsonNode valid = parse(spec.validJson());
        String validText = valid.toString();
        Body body = (label, text, expectation) -> cases.add(new FuzzCase(endpoint, label,
                RawRequest.of(method, target, List.of(JSON_CONTENT), text), expectation, tryParse(text)));

        for (String notAnObject : List.of("", " ", "\n\t", "null", "[]", "[{}]", "\"text\"", "0", "-1", "true",
                "{}", "{\"\":null}", "[" + validText + "]", "NaN", "Infinity", "undefined", "{'a':1}",
                "<order/>", "customerId=C-1&phone=1", "\u0000", "\uFEFF" + validText)) {
            body.add("non-object " + printable(notAnObject), notAnObject, PROBLEM);
        }
        for (int end = 1; end < validText.length(); end++) {
            body.add("truncated at " + end, validText.substring(0, end), PROBLEM);
        }
        for (String trailing : List.of("}", "]", ",", "x", "{}", validText, " null", "\u0000", "//c", "/*c*/")) {
            body.add("trailing " + printable(trailing), validText + trailing, PROBLEM);
        }
        List<Integer> structural = structuralPositions(validText);
        for (int i = 0; i < randomMutations; i++) {
            int at = structural.get(random.nextInt(structural.size()));
            String mutated = switch (random.nextInt(4)) {
                case 0 -> validText.substring(0, at) + validText.substring(at + 1);
                case 1 -> validText.substring(0, at) + validText.charAt(at) + validText.substring(at);
                case 2 -> validText.substring(0, at) + pick(STRUCTURAL) + validText.substring(at);
                default -> validText.substring(0, at) + pick(STRUCTURAL + "'\\") + validText.substring(at + 1);
            };
            if (!mutated.equals(validText) && tryParse(mutated) == null) {
                body.add("structural mutation at " + at, mutated, PROBLEM);
            }
        }
        for (String syntax : List.of(
                validText.replaceFirst("\\{", "{,"), validText.replaceFirst("}$", ",}"),
                validText.replace("\"", "'"), validText.replaceFirst(":", "="),
                "{/*comment*/" + validText.substring(1), validText.replaceFirst("\\{\"", "{ \u0000\""))) {
            body.add("syntax " + printable(syntax), syntax, PROBLEM);
        }

        for (String path : paths(valid)) {
            JsonNode original = at(valid, path);
            body.add("without " + path, remove(valid, path).toString(), PROBLEM);
            body.add(path + " = null", replace(valid, path, null).toString(), PROBLEM);
            for (JsonNode wrong : wrongTypes(original)) {
                body.add(path + " = " + abbreviate(wrong.toString()), replace(valid, path, wrong).toString(), PROBLEM);
            }
            for (String number : HostileValues.HUGE_NUMBERS) {
                if (!original.isNumber() || !number.startsWith("0.")) {
                    body.add(path + " = " + number, replaceRaw(valid, path, number), PROBLEM);
                }
            }
            String deep = "[".repeat(2_000) + "]".repeat(2_000);
            body.add(path + " = 2000 nested arrays", replaceRaw(valid, path, deep), PROBLEM);
            body.add(path + " = 1000-digit number", replaceRaw(valid, path, "9".repeat(1_000)), PROBLEM);
            if (original.isTextual()) {
                boolean freeText = spec.freeTextFields().contains(path);
                body.add(path + " = 10000 characters", replace(valid, path, text("x".repeat(10_000))).toString(),
                        PROBLEM);
                for (String hostile : concat(HostileValues.SQL_AND_SCRIPT, HostileValues.UNICODE)) {
                    body.add(path + " = " + printable(hostile), replace(valid, path, text(hostile)).toString(),
                            freeText ? MAY_ACCEPT : PROBLEM);
                }
                // As JSON escapes: a Java string holding a lone surrogate cannot even be encoded as UTF-8.
                for (String surrogate : HostileValues.LONE_SURROGATES) {
                    body.add(path + " = " + printable(surrogate), replaceRaw(valid, path, jsonEscaped(surrogate)),
                            freeText ? MAY_ACCEPT : PROBLEM);
                }
                // Not text at all: always rejected, also in free-text fields.
                for (byte[] invalid : HostileValues.INVALID_UTF8) {
                    cases.add(new FuzzCase(endpoint, path + " with invalid UTF-8 " + hex(invalid),
                            new RawRequest(method, target, List.of(JSON_CONTENT), withBytesInString(valid, path, invalid),
                                    true), PROBLEM, null));
                }
            }
            if (isField(path)) {
                String duplicated = duplicateField(valid, path);
                body.add(path + " duplicated", duplicated, PROBLEM);
            }
        }
        if (spec.rejectsUnknownFields()) {
            for (String objectPath : objectPaths(valid)) {
                for (String unknown : List.of("zzUnknown", "__proto__", "constructor", "", "customerID", "$where")) {
                    JsonNode copy = valid.deepCopy();
                    ((ObjectNode) (objectPath.isEmpty() ? copy : at(copy, objectPath))).put(unknown, 1);
                    body.add("unknown field '" + unknown + "' in " + (objectPath.isEmpty() ? "body" : objectPath),
                            copy.toString(), PROBLEM);
                }
            }
        }
        for (byte[] invalid : HostileValues.INVALID_UTF8) {
            ByteArrayOutputStream out = new ByteArrayOutputStream();
            out.writeBytes(validText.substring(0, 1).getBytes(StandardCharsets.UTF_8));
            out.writeBytes(invalid);
            out.writeBytes(validText.substring(1).getBytes(StandardCharsets.UTF_8));
            cases.add(new FuzzCase(endpoint, "invalid UTF-8 between tokens " + hex(invalid),
                    new RawRequest(method, target, List.of(JSON_CONTENT), out.toByteArray(), true), PROBLEM, null));
        }
        if (spec.maxBodyBytes() > 0) {
            String padded = validText.substring(0, validText.length() - 1) + ",\"pad\":\""
                    + "p".repeat(spec.maxBodyBytes()) + "\"}";
            body.add("body over the application limit", padded, PROBLEM);
            body.add("whitespace over the application limit", " ".repeat(spec.maxBodyBytes()) + validText, PROBLEM);
        }
        cases.add(new FuzzCase(endpoint, "body over the HTTP limit",
                RawRequest.of(method, target, List.of(JSON_CONTENT), " ".repeat(spec.httpBodyLimit() + 1) + validText),
                HTTP_LAYER_4XX, null));
        return cases;
    }

    /** A valid body with a wrong, missing or duplicate Content-Type or Accept: each a 4xx problem. */
    public List<FuzzCase> contentTypes(String endpoint, String method, String target, String validJson) {
        List<FuzzCase> cases = new ArrayList<>();
        for (String type : List.of("text/plain", "application/xml", "text/html", "application/x-www-form-urlencoded",
                "multipart/form-data; boundary=x", "application/octet-stream", "garbage", "application/",
                "/json", "application/jsonx", "application/json-patch+json", "\u00e9/\u00e9")) {
            cases.add(new FuzzCase(endpoint, "Content-Type " + type,
                    RawRequest.of(method, target, List.of(Header.of("Content-Type", type)), validJson), PROBLEM, null));
        }
        for (String accept : List.of("text/html", "application/xml", "image/png")) {
            cases.add(new FuzzCase(endpoint, "Accept " + accept, RawRequest.of(method, target,
                    List.of(JSON_CONTENT, Header.of("Accept", accept)), validJson), PROBLEM, null));
        }
        cases.add(new FuzzCase(endpoint, "Content-Type text/plain then application/json",
                RawRequest.of(method, target, List.of(Header.of("Content-Type", "text/plain"), JSON_CONTENT), validJson),
                PROBLEM, null));
        return cases;
    }

    /** Each value of a request header on an otherwise valid request, each with {@code expectation}. */
    public List<FuzzCase> headerValues(String endpoint, String method, String target, String validJson, String name,
            List<byte[]> values, Expectation expectation) {
        List<FuzzCase> cases = new ArrayList<>();
        for (byte[] value : values) {
            cases.add(new FuzzCase(endpoint, name + ": " + printable(new String(value, StandardCharsets.ISO_8859_1)),
                    RawRequest.of(method, target, List.of(JSON_CONTENT), validJson)
                            .withHeader(new Header(name.getBytes(StandardCharsets.US_ASCII), value)),
                    expectation, null));
        }
        return cases;
    }

    /**
     * Authorization headers no service may accept, each on an otherwise valid request: empty,
     * another scheme, a bearer without or with garbage, an expired token, one of a foreign issuer
     * or audience, one signed by an unknown key, an unsigned one ({@code alg: none}), one whose
     * signature was cut, a huge one. Each must be a 401 problem.
     */
    public static List<byte[]> hostileAuthorizations() {
        TokenIssuer trusted = ApiCallers.TOKENS;
        String valid = trusted.service("fuzz");
        List<String> values = new ArrayList<>(List.of("", "Bearer", "Bearer ", "Bearer x", "bearer",
                "Basic dXNlcjpwYXNz", "Bearer a.b.c", "Bearer ...", "Bearer " + valid.substring(0, valid.lastIndexOf('.') + 1),
                "Bearer " + valid + "x", "Bearer " + valid.replace('.', '_'), valid,
                "Bearer " + trusted.token("fuzz", List.of("service"), null, Duration.ofMinutes(-1)),
                "Bearer " + trusted.sign(TokenIssuer.claims("fuzz-issuer", TokenIssuer.AUDIENCE, "fuzz", List.of("service"),
                        null, Duration.ofMinutes(5))),
                "Bearer " + trusted.sign(TokenIssuer.claims(TokenIssuer.ISSUER, "fuzz-audience", "fuzz", List.of("service"),
                        null, Duration.ofMinutes(5))),
                "Bearer " + unsigned(), "Bearer " + "A".repeat(6_000)));
        return values.stream().map(v -> v.getBytes(StandardCharsets.ISO_8859_1)).toList();
    }

    /** A token whose header says {@code alg: none}, claims of a service, no signature. */
    private static String unsigned() {
        Base64.Encoder base64 = Base64.getUrlEncoder().withoutPadding();
        return base64.encodeToString("{\"alg\":\"none\",\"typ\":\"JWT\"}".getBytes(StandardCharsets.UTF_8)) + "."
                + base64.encodeToString(TokenIssuer.claims(TokenIssuer.ISSUER, TokenIssuer.AUDIENCE, "fuzz",
                        List.of("service"), null, Duration.ofMinutes(5)).toJson().getBytes(StandardCharsets.UTF_8)) + ".";
    }

    /**
     * Hostile values of one path segment, {@code template} holding {@code {}} where it goes,
     * percent-encoded: SQL/script text, unicode, long values, traversal. Each must be a 4xx
     * problem (400 for a malformed id or 404 for one that does not exist).
     */
    public List<FuzzCase> pathSegment(String endpoint, String method, String template) {
        List<FuzzCase> cases = new ArrayList<>();
        for (String value : concat(HostileValues.SQL_AND_SCRIPT, HostileValues.UNICODE, List.of("x".repeat(65),
                "x".repeat(2_000), "..", ".", "%", "NO-SUCH-ID", "01JNQ3ZK6M1V9Q0F4X8T2B7C5D", "-1", "0", "null",
                "undefined", "true", "[]", "{}", "*", "%2F", "a/b", "a\\b", "a;b=c", "\u00e9"))) {
            String segment = URLEncoder.encode(value, StandardCharsets.UTF_8).replace("+", "%20");
            cases.add(new FuzzCase(endpoint, "path " + printable(value),
                    new RawRequest(method, template.replace("{}", segment), List.of(), null, false),
                    value.equals("..") || value.equals(".") ? HTTP_LAYER_4XX : PROBLEM, null));
        }
        return cases;
    }

    /**
     * Hostile values of one query parameter (percent-encoded), the other parameters fixed, each
     * with {@code expectation}.
     */
    public List<FuzzCase> queryParameter(String endpoint, String path, String fixedQuery, String name,
            List<String> values, Expectation expectation) {
        List<FuzzCase> cases = new ArrayList<>();
        for (String value : values) {
            String query = (fixedQuery.isEmpty() ? "" : fixedQuery + "&") + name + "="
                    + URLEncoder.encode(value, StandardCharsets.UTF_8);
            cases.add(new FuzzCase(endpoint, name + "=" + printable(value),
                    new RawRequest("GET", path + "?" + query, List.of(), null, false), expectation, null));
        }
        return cases;
    }

    /**
     * Values that are never a valid integer parameter within bounds {@code [min, max]}. (Not blank,
     * also not Unicode-whitespace-only: a blank parameter means "absent"; not non-ASCII digits:
     * {@code Integer.parseInt} reads them.)
     */
    public static List<String> badIntegers(long min, long max) {
        List<String> values = new ArrayList<>(List.of("one", "1.5", "1e3", "0x10", "--1", "+-1", "1 1",
                String.valueOf(min - 1), String.valueOf(max + 1), "-2147483649", "2147483648",
                "99999999999999999999999", "NaN", "null", "[]", "%00", "1;DROP TABLE x"));
        values.addAll(HostileValues.SQL_AND_SCRIPT);
        values.addAll(HostileValues.UNICODE);
        values.removeIf(String::isBlank);
        return values;
    }

    /** Every method the endpoint does not serve: each a 405 problem. */
    public List<FuzzCase> wrongMethods(String endpoint, String target, Set<String> allowed) {
        List<FuzzCase> cases = new ArrayList<>();
        for (String method : List.of("GET", "POST", "PUT", "DELETE", "PATCH")) {
            if (!allowed.contains(method)) {
                cases.add(new FuzzCase(endpoint, "method " + method,
                        RawRequest.of(method, target, List.of(JSON_CONTENT), "{}"), PROBLEM, null));
            }
        }
        return cases;
    }

    /**
     * Requests the HTTP layer must refuse (4xx, or closing the connection) before any application
     * code runs: malformed targets, headers and framing, header and URI sizes over the limits.
     */
    public List<FuzzCase> malformedHttp(String endpoint, String method, String target, String validJson) {
        List<FuzzCase> cases = new ArrayList<>();
        byte[] body = validJson.getBytes(StandardCharsets.UTF_8);
        Layer layer = (label, request) -> cases.add(new FuzzCase(endpoint, label, request, HTTP_LAYER_4XX, null));
        layer.add("space in the target", new RawRequest(method, target + "/a b", List.of(JSON_CONTENT), body, true));
        layer.add("URI over 8 KiB", new RawRequest(method, target + "?q=" + "x".repeat(9_000), List.of(JSON_CONTENT),
                body, true));
        layer.add("header over 40 KiB", new RawRequest(method, target,
                List.of(JSON_CONTENT, Header.of("X-Big", "x".repeat(40_000))), body, true));
        // The name smuggles a line without a colon before a well-formed one.
        layer.add("header line without colon", new RawRequest(method, target,
                List.of(JSON_CONTENT, Header.of("NoColonHere\r\nX-Ok", "1")), body, true));
        layer.add("header name with a space", new RawRequest(method, target,
                List.of(JSON_CONTENT, Header.of("Bad Name", "x")), body, true));
        layer.add("Content-Length not a number", new RawRequest(method, target,
                List.of(JSON_CONTENT, Header.of("Content-Length", "abc")), body, false));
        layer.add("Content-Length negative", new RawRequest(method, target,
                List.of(JSON_CONTENT, Header.of("Content-Length", "-5")), body, false));
        layer.add("two different Content-Lengths", new RawRequest(method, target,
                List.of(JSON_CONTENT, Header.of("Content-Length", String.valueOf(body.length)),
                        Header.of("Content-Length", "3")), body, false));
        layer.add("Content-Length and chunked", new RawRequest(method, target,
                List.of(JSON_CONTENT, Header.of("Content-Length", "3"), Header.of("Transfer-Encoding", "chunked")),
                ("zz\r\n" + validJson + "\r\n0\r\n\r\n").getBytes(StandardCharsets.UTF_8), false));
        layer.add("chunk size not hex", new RawRequest(method, target,
                List.of(JSON_CONTENT, Header.of("Transfer-Encoding", "chunked")),
                ("zz\r\n" + validJson + "\r\n0\r\n\r\n").getBytes(StandardCharsets.UTF_8), false));
        layer.add("invalid percent-encoding", new RawRequest(method, target + "%zz", List.of(JSON_CONTENT), body, true));
        return cases;
    }

    private interface Body {
        void add(String label, String text, Expectation expectation);
    }

    private interface Layer {
        void add(String label, RawRequest request);
    }

    private char pick(String chars) {
        return chars.charAt(random.nextInt(chars.length()));
    }

    /** Positions of JSON syntax characters (quotes included, string contents excluded). */
    static List<Integer> structuralPositions(String json) {
        List<Integer> positions = new ArrayList<>();
        boolean inString = false;
        for (int i = 0; i < json.length(); i++) {
            char c = json.charAt(i);
            if (inString) {
                if (c == '\\') {
                    i++;
                } else if (c == '"') {
                    inString = false;
                    positions.add(i);
                }
            } else if (STRUCTURAL.indexOf(c) >= 0) {
                positions.add(i);
                inString = c == '"';
            }
        }
        return positions;
    }

    /** Wrong types for a node: other JSON types, and for numbers, numbers in strings. */
    private static List<JsonNode> wrongTypes(JsonNode original) {
        JsonNodeFactory f = JsonNodeFactory.instance;
        List<JsonNode> wrong = new ArrayList<>(List.of(f.booleanNode(true), f.booleanNode(false), f.arrayNode(),
                f.objectNode(), f.arrayNode().add(original.deepCopy()), f.objectNode().set("value", original.deepCopy())));
        if (original.isTextual()) {
            wrong.add(f.numberNode(-7));
            wrong.add(f.numberNode(new java.math.BigDecimal("0.001")));
        } else if (original.isNumber()) {
            wrong.addAll(List.of(f.textNode(original.asText()), f.textNode(""), f.textNode("abc"), f.numberNode(-7),
                    f.numberNode(new java.math.BigDecimal("0.001")), f.numberNode(new java.math.BigDecimal("1.0"))));
        } else if (original.isArray()) {
            wrong.remove(f.arrayNode().add(original.deepCopy()));
            wrong.addAll(List.of(f.textNode("x"), f.numberNode(1), f.arrayNode().addNull(), f.arrayNode().add(1),
                    f.arrayNode().add(f.arrayNode())));
        } else if (original.isObject()) {
            wrong.addAll(List.of(f.textNode("x"), f.numberNode(1)));
        }
        wrong.removeIf(w -> w.equals(original));
        return wrong;
    }

    private static List<String> paths(JsonNode root) {
        List<String> paths = new ArrayList<>();
        collect(root, "", paths);
        return paths;
    }

    private static void collect(JsonNode node, String path, List<String> paths) {
        if (node.isObject()) {
            for (Iterator<Map.Entry<String, JsonNode>> it = node.fields(); it.hasNext();) {
                Map.Entry<String, JsonNode> field = it.next();
                String child = path.isEmpty() ? field.getKey() : path + "." + field.getKey();
                paths.add(child);
                collect(field.getValue(), child, paths);
            }
        } else if (node.isArray()) {
            for (int i = 0; i < node.size(); i++) {
                paths.add(path + "[" + i + "]");
                collect(node.get(i), path + "[" + i + "]", paths);
            }
        }
    }

    private static List<String> objectPaths(JsonNode root) {
        List<String> objects = new ArrayList<>();
        objects.add("");
        for (String path : paths(root)) {
            if (at(root, path).isObject()) {
                objects.add(path);
            }
        }
        return objects;
    }

    private static boolean isField(String path) {
        return !path.endsWith("]");
    }

    static JsonNode at(JsonNode root, String path) {
        if (path.isEmpty()) {
            return root;
        }
        JsonNode node = root;
        for (String step : steps(path)) {
            node = step.startsWith("[") ? node.get(Integer.parseInt(step.substring(1, step.length() - 1)))
                    : node.get(step);
        }
        return node;
    }

    private static List<String> steps(String path) {
        List<String> steps = new ArrayList<>();
        for (String part : path.split("\\.")) {
            int bracket = part.indexOf('[');
            if (bracket < 0) {
                steps.add(part);
                continue;
            }
            if (bracket > 0) {
                steps.add(part.substring(0, bracket));
            }
            for (String index : part.substring(bracket).split("(?=\\[)")) {
                steps.add(index);
            }
        }
        return steps;
    }

    private static JsonNode replace(JsonNode root, String path, JsonNode value) {
        JsonNode copy = root.deepCopy();
        List<String> steps = steps(path);
        JsonNode parent = at(copy, String.join(".", steps.subList(0, steps.size() - 1)).replace(".[", "["));
        String last = steps.get(steps.size() - 1);
        JsonNode v = value == null ? JsonNodeFactory.instance.nullNode() : value;
        if (last.startsWith("[")) {
            ((ArrayNode) parent).set(Integer.parseInt(last.substring(1, last.length() - 1)), v);
        } else {
            ((ObjectNode) parent).set(last, v);
        }
        return copy;
    }

    private static JsonNode remove(JsonNode root, String path) {
        JsonNode copy = root.deepCopy();
        List<String> steps = steps(path);
        JsonNode parent = at(copy, String.join(".", steps.subList(0, steps.size() - 1)).replace(".[", "["));
        String last = steps.get(steps.size() - 1);
        if (last.startsWith("[")) {
            ((ArrayNode) parent).remove(Integer.parseInt(last.substring(1, last.length() - 1)));
        } else {
            ((ObjectNode) parent).remove(last);
        }
        return copy;
    }

    /** The body with the value at {@code path} replaced by raw JSON text (e.g. a number Jackson would normalise). */
    private static String replaceRaw(JsonNode root, String path, String raw) {
        String marker = "__fuzz_raw_" + Math.abs(raw.hashCode()) + "__";
        return replace(root, path, text(marker)).toString().replace("\"" + marker + "\"", raw);
    }

    private static byte[] withBytesInString(JsonNode root, String path, byte[] inside) {
        String marker = "__fuzz_bytes__";
        String text = replace(root, path, text("a" + marker + "b")).toString();
        int at = text.indexOf(marker);
        ByteArrayOutputStream out = new ByteArrayOutputStream();
        out.writeBytes(text.substring(0, at).getBytes(StandardCharsets.UTF_8));
        out.writeBytes(inside);
        out.writeBytes(text.substring(at + marker.length()).getBytes(StandardCharsets.UTF_8));
        return out.toByteArray();
    }

    /** The field written twice, the second time with a wrong-typed value: ambiguous JSON. */
    private static String duplicateField(JsonNode root, String path) {
        List<String> steps = steps(path);
        String name = steps.get(steps.size() - 1);
        String marker = "__fuzz_dup__";
        String text = replace(root, path, text(marker)).toString();
        String value = at(root, path).toString();
        return text.replace("\"" + marker + "\"", value + ",\"" + name + "\":" + value);
    }

    private static com.fasterxml.jackson.databind.node.TextNode text(String value) {
        return JsonNodeFactory.instance.textNode(value);
    }

    private static JsonNode parse(String json) {
        try {
            return JSON.readTree(json);
        } catch (JsonProcessingException e) {
            throw new UncheckedIOException(e);
        }
    }

    /** The JSON, or null when the text is not exactly one JSON value. */
    static JsonNode tryParse(String text) {
        try {
            return JSON.readerFor(JsonNode.class)
                    .with(com.fasterxml.jackson.databind.DeserializationFeature.FAIL_ON_TRAILING_TOKENS)
                    .with(com.fasterxml.jackson.core.StreamReadFeature.STRICT_DUPLICATE_DETECTION)
                    .readValue(text);
        } catch (IOException | RuntimeException e) {
            return null;
        }
    }

    /** The lists one after the other. */
    @SafeVarargs
    public static List<String> concat(List<String>... lists) {
        List<String> all = new ArrayList<>();
        for (List<String> list : lists) {
            all.addAll(list);
        }
        return all;
    }

    /** A JSON string literal with every non-ASCII character as a backslash-u escape. */
    private static String jsonEscaped(String text) {
        StringBuilder out = new StringBuilder("\"");
        for (char c : text.toCharArray()) {
            out.append(c < 0x20 || c > 0x7E || c == '"' || c == '\\' ? String.format("\\u%04x", (int) c) : c);
        }
        return out.append('"').toString();
    }

    private static String hex(byte[] bytes) {
        StringBuilder hex = new StringBuilder();
        for (byte b : bytes) {
            hex.append(String.format("%02X", b));
        }
        return hex.toString();
    }

    static String printable(String text) {
        StringBuilder out = new StringBuilder();
        text.codePoints().limit(40).forEach(cp -> {
            if (cp < 0x20 || cp == 0x7F || (cp >= 0xD800 && cp <= 0xDFFF) || Character.getType(cp) == Character.FORMAT
                    || Character.getType(cp) == Character.LINE_SEPARATOR
                    || Character.getType(cp) == Character.PARAGRAPH_SEPARATOR) {
                out.append(String.format("\\u%04X", cp));
            } else {
                out.appendCodePoint(cp);
            }
        });
        return text.length() > 40 ? out + "...(" + text.length() + ")" : out.toString();
    }

    private static String abbreviate(String text) {
        return text.length() > 40 ? text.substring(0, 40) + "...(" + text.length() + ")" : text;
    }
}
