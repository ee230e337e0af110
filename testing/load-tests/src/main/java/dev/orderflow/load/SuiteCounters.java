package dev.orderflow.load;

import java.sql.Connection;
import java.sql.DriverManager;
import java.sql.ResultSet;
import java.sql.SQLException;
import java.sql.Statement;
import java.util.ArrayList;
import java.util.Collection;
import java.util.HashMap;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.TreeMap;

import org.apache.rocketmq.remoting.RPCHook;
import org.apache.rocketmq.remoting.protocol.route.BrokerData;
import org.apache.rocketmq.tools.admin.DefaultMQAdminExt;

/**
 * Work counters of the machine's MariaDB and of the suite's broker, read before and after a run to
 * count what one order costs: {@code Com_commit} (explicit COMMITs: every JTA transaction of the
 * services ends in one) and {@code Handler_commit}; the broker's {@code msgPutTotalTodayNow}
 * and each topic's queue offsets (their sum counts every message stored, the half and op messages
 * of transactions included). During the load, {@link #storeReads()} gives the broker's rate of message-store
 * reads: one per pull a consumer makes (a long-polling pull that waits reads again when woken), so it
 * counts the pulls of the whole suite.
 */
public final class SuiteCounters implements AutoCloseable {

    /**
     * A reading; {@code topics} holds the summed max offset of each topic's queues. {@code brokerPuts}
     * ({@code msgPutTotalTodayNow}) leaves out the transaction system topics (half and op messages),
     * which {@link #messagesStored()} counts.
     */
    public record Reading(long comCommit, long handlerCommit, long brokerPuts, Map<String, Long> topics) {

        /** Messages stored in every topic (system topics included). */
        public long messagesStored() {
            return topics.values().stream().mapToLong(Long::longValue).sum();
        }
    }

    /**
     * The broker's message-store reads per second over its last 10 s: those that found messages and
     * those that found none ({@code getFoundTps} and {@code getMissTps} of the broker's runtime stats).
     */
    public record StoreReads(double found, double missed) {
    }

    private final String mariadbUrl;
    private final DefaultMQAdminExt admin;

    /** @param rpcHook signs the admin client's requests on a broker with access control; null on one without */
    public SuiteCounters(String mariadbHost, int mariadbPort, String nameServer, RPCHook rpcHook) {
        this.mariadbUrl = "jdbc:mariadb://" + mariadbHost + ":" + mariadbPort + "/";
        this.admin = new DefaultMQAdminExt(rpcHook);
        admin.setNamesrvAddr(nameServer);
        admin.setInstanceName("perf-counters-" + ProcessHandle.current().pid());
        try {
            admin.start();
        } catch (Exception e) {
            throw new IllegalStateException("The broker admin client did not start", e);
        }
    }

    public Reading read() {
        Map<String, Long> status;
        try (Connection connection = DriverManager.getConnection(mariadbUrl, "root", "")) {
            status = globalStatus(connection, List.of("Com_commit", "Handler_commit"));
        } catch (SQLException e) {
            throw new IllegalStateException("Cannot connect to MariaDB to read its status counters", e);
        }
        long comCommit = status.get("Com_commit");
        long handlerCommit = status.get("Handler_commit");
        try {
            long puts = 0;
            for (Map<String, String> stats : brokerRuntimeStats()) {
                puts += Long.parseLong(stats.get("msgPutTotalTodayNow"));
            }
            Map<String, Long> topics = new TreeMap<>();
            for (String topic : admin.fetchAllTopicList().getTopicList()) {
                try {
                    topics.put(topic, admin.examineTopicStats(topic).getOffsetTable().values().stream()
                            .mapToLong(offset -> offset.getMaxOffset()).sum());
                } catch (Exception e) {
                    // A topic without a route on the broker (the name server's system entries): no offsets to count.
                }
            }
            return new Reading(comCommit, handlerCommit, puts, topics);
        } catch (Exception e) {
            throw new IllegalStateException("Cannot read the broker's counters", e);
        }
    }

    /**
     * MariaDB's global status counters by the names asked for, in their order; a name MariaDB does not
     * have is refused rather than read as 0.
     */
    static Map<String, Long> globalStatus(Connection connection, Collection<String> names) {
        Map<String, Long> read = new HashMap<>();
        try (Statement statement = connection.createStatement(); ResultSet rows = statement.executeQuery(
                "SHOW GLOBAL STATUS WHERE Variable_name IN ('" + String.join("', '", names) + "')")) {
            while (rows.next()) {
                read.put(rows.getString(1).toLowerCase(Locale.ROOT), rows.getLong(2));
            }
        } catch (SQLException e) {
            throw new IllegalStateException("Cannot read MariaDB's status counters", e);
        }
        Map<String, Long> values = new LinkedHashMap<>();
        for (String name : names) {
            Long value = read.get(name.toLowerCase(Locale.ROOT));
            if (value == null) {
                throw new IllegalStateException("MariaDB has no status counter " + name);
            }
            values.put(name, value);
        }
        return values;
    }

    public StoreReads storeReads() {
        try {
            double found = 0;
            double missed = 0;
            for (Map<String, String> stats : brokerRuntimeStats()) {
                found += tenSecondRate(stats, "getFoundTps");
                missed += tenSecondRate(stats, "getMissTps");
            }
            return new StoreReads(found, missed);
        } catch (Exception e) {
            throw new IllegalStateException("Cannot read the broker's runtime stats", e);
        }
    }

    /** The runtime stats table of each master broker of the cluster. */
    private List<Map<String, String>> brokerRuntimeStats() throws Exception {
        List<Map<String, String>> tables = new ArrayList<>();
        for (BrokerData broker : admin.examineBrokerClusterInfo().getBrokerAddrTable().values()) {
            tables.add(admin.fetchBrokerRuntimeStats(broker.getBrokerAddrs().get(0L)).getTable());
        }
        return tables;
    }

    /** A broker rate field holds its 10 s, 1 min and 10 min rates separated by spaces; the first is the 10 s one. */
    static double tenSecondRate(Map<String, String> stats, String field) {
        String value = stats.get(field);
        if (value == null || value.isBlank()) {
            throw new IllegalStateException("The broker's runtime stats have no " + field + ": " + stats.keySet());
        }
        return Double.parseDouble(value.trim().split("\\s+")[0]);
    }

    @Override
    public void close() {
        admin.shutdown();
    }
}
