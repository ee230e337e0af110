package dev.orderflow.status.reconciliation;

import java.io.IOException;
import java.io.UncheckedIOException;
import java.math.BigDecimal;
import java.net.InetAddress;
import java.net.InetSocketAddress;
import java.net.URLDecoder;
import java.nio.charset.StandardCharsets;
import java.sql.Connection;
import java.sql.DriverManager;
import java.sql.PreparedStatement;
import java.sql.ResultSet;
import java.security.GeneralSecurityException;
import java.security.KeyFactory;
import java.security.PublicKey;
import java.security.spec.X509EncodedKeySpec;
import java.sql.SQLException;
import java.sql.Timestamp;
import java.time.Instant;
import java.time.LocalDateTime;
import java.time.ZoneOffset;
import java.util.ArrayList;
import java.util.Base64;
import java.util.Collections;
import java.util.HashMap;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.concurrent.ConcurrentHashMap;

import org.jose4j.jwt.consumer.JwtConsumer;
import org.jose4j.jwt.consumer.JwtConsumerBuilder;

import com.fasterxml.jackson.databind.ObjectMapper;
import com.fasterxml.jackson.databind.SerializationFeature;
import com.fasterxml.jackson.datatype.jsr310.JavaTimeModule;
import com.sun.net.httpserver.HttpExchange;
import com.sun.net.httpserver.HttpServer;

import dev.orderflow.ledger.LedgerOrder;
import dev.orderflow.ledger.OrderPage;
import dev.orderflow.ledger.RecordedEffect;
import dev.orderflow.tokens.TokenEndpoint;
import dev.orderflow.tokens.TokenIssuer;
import io.quarkus.test.common.QuarkusTestResourceLifecycleManager;

/**
 * The four ledger APIs reconciliation calls, served over HTTP from {@link ReconciliationFixture}'s
 * tables, as order, inventory, points and sms serve them from theirs (each service's own tests pin its
 * side of the contract); and the token endpoint that gives this service its service token. Every
 * ledger call without a valid service token is refused with 401, so the tests also prove that the
 * token is fetched and sent. The rest clients and the OIDC client are pointed here.
 */
public class PeerLedgers implements QuarkusTestResourceLifecycleManager {

    private static final TokenIssuer ISSUER = TokenIssuer.forTests();
    private static final ObjectMapper JSON = new ObjectMapper().registerModule(new JavaTimeModule())
            .disable(SerializationFeature.WRITE_DATES_AS_TIMESTAMPS);

    /** Init argument: the peers (order, inventory, points, sms; comma-separated) to point at a port nothing listens on. */
    public static final String UNREACHABLE = "unreachable";

    /** Peers (order, inventory, points, sms) that answer every call with a given HTTP status, set by a test. */
    private static final Map<String, Integer> FORCED_STATUS = new ConcurrentHashMap<>();

    private List<String> unreachable = List.of();
    private TokenEndpoint tokens;
    private HttpServer server;
    private JwtConsumer verifier;

    /** Makes {@code peer} answer every call with {@code status} until {@link #answerNormally()}. */
    public static void answerWith(String peer, int status) {
        FORCED_STATUS.put(peer, status);
    }

    public static void answerNormally() {
        FORCED_STATUS.clear();
    }

    @Override
    public void init(Map<String, String> initArgs) {
        String peers = initArgs.getOrDefault(UNREACHABLE, "");
        unreachable = peers.isBlank() ? List.of() : List.of(peers.split(","));
    }

    @Override
    public Map<String, String> start() {
        String secret = TokenEndpoint.newSecret();
        tokens = TokenEndpoint.start(ISSUER, 0, "status-service", secret);
        verifier = new JwtConsumerBuilder().setVerificationKey(verificationKey())
                .setExpectedIssuer(TokenIssuer.ISSUER).setExpectedAudience(TokenIssuer.AUDIENCE).build();
        try {
            server = HttpServer.create(new InetSocketAddress(InetAddress.getLoopbackAddress(), 0), 16);
        } catch (IOException e) {
            throw new UncheckedIOException(e);
        }
        server.createContext("/order/ledger/orders", exchange -> answer(exchange, () -> exchange.getRequestURI()
                .getPath().endsWith("/existing") ? existing(body(exchange)) : orders(query(exchange))));
        server.createContext("/inventory/ledger/effects", exchange -> answer(exchange, () -> effects(exchange,
                ReconciliationFixture.INVENTORY_DB, "stock_movement", "kind", "sku", "quantity", "null")));
        server.createContext("/points/ledger/effects", exchange -> answer(exchange, () -> effects(exchange,
                ReconciliationFixture.POINTS_DB, "points_ledger", "reason", "''", "points", "null")));
        server.createContext("/sms/ledger/effects", exchange -> answer(exchange, () -> effects(exchange,
                ReconciliationFixture.SMS_DB, "sms_outbox", "upper(event_type)", "''", "1", "status")));
        server.start();
        String base = "http://127.0.0.1:" + server.getAddress().getPort();
        Map<String, String> config = new HashMap<>();
        for (String peer : List.of("order", "inventory", "points", "sms")) {
            // Port 1: refused at once, nothing listens there.
            config.put("quarkus.rest-client." + peer + "-ledger.url",
                    (unreachable.contains(peer) ? "http://127.0.0.1:1" : base) + "/" + peer);
        }
        config.put("quarkus.oidc-client.auth-server-url", tokens.baseUrl());
        config.put("quarkus.oidc-client.discovery-enabled", "false");
        config.put("quarkus.oidc-client.token-path", TokenEndpoint.PATH);
        config.put("quarkus.oidc-client.client-id", "status-service");
        config.put("quarkus.oidc-client.credentials.secret", secret);
        return config;
    }

    private static PublicKey verificationKey() {
        try {
            return KeyFactory.getInstance("RSA").generatePublic(
                    new X509EncodedKeySpec(Base64.getDecoder().decode(ISSUER.publicKey())));
        } catch (GeneralSecurityException e) {
            throw new IllegalStateException(e);
        }
    }

    @Override
    public void stop() {
        if (server != null) {
            server.stop(0);
        }
        if (tokens != null) {
            tokens.close();
        }
    }

    @FunctionalInterface
    private interface Answer {
        Object get() throws IOException, SQLException;
    }

    private void answer(HttpExchange exchange, Answer answer) throws IOException {
        try (exchange) {
            int status;
            byte[] body;
            Integer forced = FORCED_STATUS.get(exchange.getRequestURI().getPath().split("/")[1]);
            if (forced != null) {
                status = forced;
                body = new byte[0];
            } else if (!serviceToken(exchange.getRequestHeaders().getFirst("Authorization"))) {
                status = 401;
                body = new byte[0];
            } else {
                try {
                    body = JSON.writeValueAsBytes(answer.get());
                    status = 200;
                } catch (SQLException | RuntimeException e) {
                    status = 500;
                    body = e.toString().getBytes(StandardCharsets.UTF_8);
                }
            }
            exchange.getResponseHeaders().set("Content-Type", "application/json");
            exchange.sendResponseHeaders(status, body.length == 0 ? -1 : body.length);
            exchange.getResponseBody().write(body);
        }
    }

    private boolean serviceToken(String authorization) {
        if (authorization == null || !authorization.startsWith("Bearer ")) {
            return false;
        }
        try {
            return verifier.processToClaims(authorization.substring(7)).getStringListClaimValue(TokenIssuer.ROLES_CLAIM)
                    .contains("service");
        } catch (Exception e) {
            return false;
        }
    }

    private static OrderPage orders(Map<String, String> query) throws SQLException {
        int limit = Integer.parseInt(query.get("limit"));
        List<Object> parameters = new ArrayList<>(List.of(utc(query.get("from")), utc(query.get("to"))));
        String after = "";
        if (query.containsKey("after")) {
            String[] cursor = query.get("after").split("\\|", 2);
            after = " and (created_at > ? or (created_at = ? and id > ?))";
            parameters.addAll(List.of(utc(cursor[0]), utc(cursor[0]), cursor[1]));
        }
        parameters.add(limit);
        List<Object[]> rows = select(ReconciliationFixture.ORDER_DB, "select id, amount, status, created_at, updated_at"
                + " from orders where created_at >= ? and created_at < ?" + after + " order by created_at, id limit ?",
                parameters, 5);
        Map<String, Map<String, Long>> skus = new HashMap<>();
        if (!rows.isEmpty()) {
            List<Object> ids = rows.stream().map(r -> r[0]).toList();
            for (Object[] line : select(ReconciliationFixture.ORDER_DB, "select order_id, sku, sum(quantity) from"
                    + " order_items where order_id in (" + marks(ids.size()) + ") group by order_id, sku", ids, 3)) {
                skus.computeIfAbsent((String) line[0], id -> new LinkedHashMap<>()).put((String) line[1],
                        ((Number) line[2]).longValue());
            }
        }
        List<LedgerOrder> orders = rows.stream().map(r -> new LedgerOrder((String) r[0], (BigDecimal) r[1],
                (String) r[2], instant(r[3]), instant(r[4]), skus.getOrDefault((String) r[0], Map.of()))).toList();
        LedgerOrder last = orders.isEmpty() ? null : orders.get(orders.size() - 1);
        return new OrderPage(orders, orders.size() < limit ? null : last.createdAt() + "|" + last.id());
    }

    private static List<String> existing(List<String> ids) throws SQLException {
        return select(ReconciliationFixture.ORDER_DB, "select id from orders where id in (" + marks(ids.size()) + ")",
                List.copyOf(ids), 1).stream().map(r -> (String) r[0]).toList();
    }

    private static Object effects(HttpExchange exchange, String database, String table, String kind, String subject,
            String amount, String state) throws IOException, SQLException {
        if (exchange.getRequestURI().getPath().endsWith("/order-ids")) {
            Map<String, String> query = query(exchange);
            List<Object> parameters = new ArrayList<>(List.of(utc(query.get("from")), utc(query.get("to"))));
            String after = query.containsKey("after") ? " and order_id > ?" : "";
            if (query.containsKey("after")) {
                parameters.add(query.get("after"));
            }
            parameters.add(Integer.parseInt(query.get("limit")));
            return select(database, "select distinct order_id from " + table + " where created_at >= ?"
                    + " and created_at < ?" + after + " order by order_id limit ?", parameters, 1).stream()
                    .map(r -> (String) r[0]).toList();
        }
        List<String> ids = body(exchange);
        return select(database, "select order_id, " + kind + ", " + subject + ", " + amount + ", " + state + " from "
                + table + " where order_id in (" + marks(ids.size()) + ")", List.copyOf(ids), 5).stream()
                .map(r -> new RecordedEffect((String) r[0], (String) r[1], (String) r[2], ((Number) r[3]).longValue(),
                        (String) r[4]))
                .toList();
    }

    private static List<Object[]> select(String database, String sql, List<?> parameters, int columns)
            throws SQLException {
        try (Connection connection = DriverManager.getConnection("jdbc:mariadb://127.0.0.1:3306/" + database, "root",
                ""); PreparedStatement statement = connection.prepareStatement(sql)) {
            for (int i = 0; i < parameters.size(); i++) {
                statement.setObject(i + 1, parameters.get(i));
            }
            List<Object[]> rows = new ArrayList<>();
            try (ResultSet result = statement.executeQuery()) {
                while (result.next()) {
                    Object[] row = new Object[columns];
                    for (int c = 0; c < columns; c++) {
                        row[c] = result.getObject(c + 1);
                    }
                    rows.add(row);
                }
            }
            return rows;
        }
    }

    private static List<String> body(HttpExchange exchange) throws IOException {
        return List.of(JSON.readValue(exchange.getRequestBody(), String[].class));
    }

    private static Map<String, String> query(HttpExchange exchange) {
        Map<String, String> query = new HashMap<>();
        String raw = exchange.getRequestURI().getRawQuery();
        for (String pair : raw == null ? new String[0] : raw.split("&")) {
            int equals = pair.indexOf('=');
            query.put(URLDecoder.decode(pair.substring(0, equals), StandardCharsets.UTF_8),
                    URLDecoder.decode(pair.substring(equals + 1), StandardCharsets.UTF_8));
        }
        return query;
    }

    private static String marks(int count) {
        return String.join(", ", Collections.nCopies(count, "?"));
    }

    private static LocalDateTime utc(String instant) {
        return LocalDateTime.ofInstant(Instant.parse(instant), ZoneOffset.UTC);
    }

    /** A UTC DATETIME as the driver returns it (a Timestamp of the same wall-clock time). */
    private static Instant instant(Object utcDateTime) {
        return ((Timestamp) utcDateTime).toLocalDateTime().toInstant(ZoneOffset.UTC);
    }
}
