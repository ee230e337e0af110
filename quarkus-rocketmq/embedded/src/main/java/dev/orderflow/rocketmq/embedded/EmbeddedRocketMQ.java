package dev.orderflow.rocketmq.embedded;

import java.io.IOException;
import java.io.UncheckedIOException;
import java.net.InetSocketAddress;
import java.net.ServerSocket;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.Collection;
import java.util.Comparator;
import java.util.List;
import java.util.Objects;
import java.util.concurrent.TimeUnit;
import java.util.logging.Logger;
import java.util.stream.Stream;

import org.apache.rocketmq.auth.config.AuthConfig;
import org.apache.rocketmq.broker.BrokerController;
import org.apache.rocketmq.common.BrokerConfig;
import org.apache.rocketmq.common.MQVersion;
import org.apache.rocketmq.common.TopicConfig;
import org.apache.rocketmq.common.constant.PermName;
import org.apache.rocketmq.common.namesrv.NamesrvConfig;
import org.apache.rocketmq.namesrv.NamesrvController;
import org.apache.rocketmq.remoting.netty.NettyClientConfig;
import org.apache.rocketmq.remoting.netty.NettyServerConfig;
import org.apache.rocketmq.remoting.protocol.RemotingCommand;
import org.apache.rocketmq.remoting.protocol.SerializeType;
import org.apache.rocketmq.store.config.BrokerRole;
import org.apache.rocketmq.store.config.FlushDiskType;
import org.apache.rocketmq.store.config.MessageStoreConfig;

/**
 * The real Apache RocketMQ NameServer and one Broker, started in the current JVM.
 *
 * <p>For dev mode, tests and the local launcher only: production points at a real cluster.
 * Settings are sized for a laptop (small mapped files) and, with {@link Options#forTests},
 * for fast tests (transaction check-back within seconds, a short retry delay table). With
 * {@link Options#accessControl} the broker admits only signed requests of its {@link BrokerUser}s.
 */
public final class EmbeddedRocketMQ implements AutoCloseable {

    private static final Logger LOG = Logger.getLogger(EmbeddedRocketMQ.class.getName());

    /**
     * Messages one pull may return when they are still in memory ({@code maxTransferCountOnMessageInMemory};
     * RocketMQ's default is 32). A push consumer asks for its pull batch size (the connector's
     * {@code pull-batch-size}, raised to the channel's {@code batch-size}: up to 128 in the suite) and
     * waits {@code pull-interval} between pulls of a queue, so at 32 status-service's report lane (three
     * messages per order, 2 queues each pulled every 50 ms) could take no more than ~1,280 reports
     * (~400 orders) a second, whatever its batch size. 256 leaves room for larger batches; the 256 KB
     * per pull cap ({@code maxTransferBytesOnMessageInMemory}) still bounds a pull's size.
     */
    public static final int MAX_MESSAGES_PER_PULL = 256;

    /** Topic every broker registers; once the name server lists it, the broker is ready. */
    private static final String READY_TOPIC = "TBW102";

    private final Options options;
    private NamesrvController nameServer;
    private BrokerController broker;
    private int nameServerPort;
    private int brokerPort;

    private EmbeddedRocketMQ(Options options) {
        this.options = options;
    }

    /**
     * Starts a name server and a broker and waits until the broker is registered.
     *
     * @throws IllegalStateException when either fails to start in time
     */
    public static EmbeddedRocketMQ start(Options options) {
        EmbeddedRocketMQ rocketMQ = new EmbeddedRocketMQ(options);
        try {
            rocketMQ.doStart();
            return rocketMQ;
        } catch (RuntimeException e) {
            rocketMQ.close();
            throw e;
        }
    }

    private void doStart() {
        // As the stock startup classes do: without it the name server treats the broker as
        // ancient, registers no topics, and every send fails with "No route info".
        System.setProperty(RemotingCommand.REMOTING_VERSION_KEY, Integer.toString(MQVersion.CURRENT_VERSION));
        // Binary headers (RocketMQ's ROCKETMQ serialize type) unless this JVM chose one: the broker
        // answers every request in its own type, and JSON costs fastjson work on both ends of each
        // call. quarkus-rocketmq makes the same default for clients.
        String chosenType = System.getProperty(RemotingCommand.SERIALIZE_TYPE_PROPERTY,
                System.getenv(RemotingCommand.SERIALIZE_TYPE_ENV));
        if (chosenType == null || chosenType.isBlank()) {
            System.setProperty(RemotingCommand.SERIALIZE_TYPE_PROPERTY, SerializeType.ROCKETMQ.name());
        }
        System.setProperty("rocketmq.embedded.logDir", options.dataDir.resolve("logs").toString());
        if (System.getProperty("rmq.logback.configurationFile") == null) {
            System.setProperty("rmq.logback.configurationFile", "rmq-embedded.logback.xml");
        }
        Path dataDir = options.dataDir.toAbsolutePath();
        try {
            Files.createDirectories(dataDir);
        } catch (IOException e) {
            throw new UncheckedIOException("Cannot create RocketMQ data folder " + dataDir, e);
        }
        long startedAt = System.nanoTime();
        startNameServer(dataDir);
        startBroker(dataDir);
        awaitBrokerRegistered();
        LOG.info(() -> String.format("Embedded RocketMQ ready in %d ms: name server %s, broker 127.0.0.1:%d, data %s",
                TimeUnit.NANOSECONDS.toMillis(System.nanoTime() - startedAt), nameServerAddress(), brokerPort,
                dataDir));
    }

    private void startNameServer(Path dataDir) {
        if (nameServerPort == 0) {
            nameServerPort = options.nameServerPort > 0 ? options.nameServerPort : freePort();
        }
        NamesrvConfig config = new NamesrvConfig();
        config.setRocketmqHome(dataDir.toString());
        config.setKvConfigPath(dataDir.resolve("namesrv/kvConfig.json").toString());
        config.setConfigStorePath(dataDir.resolve("namesrv/namesrv.properties").toString());
        NettyServerConfig server = new NettyServerConfig();
        server.setListenPort(nameServerPort);
        server.setBindAddress("127.0.0.1");
        nameServer = new NamesrvController(config, server, new NettyClientConfig());
        try {
            if (!nameServer.initialize()) {
                throw new IllegalStateException("RocketMQ name server failed to initialize");
            }
            nameServer.start();
        } catch (IllegalStateException e) {
            throw e;
        } catch (Exception e) {
            throw new IllegalStateException("RocketMQ name server failed to start on port " + nameServerPort, e);
        }
    }

    private void startBroker(Path dataDir) {
        // The broker also listens on port-2 (VIP channel) and port+1 (HA): reserve a free triple.
        brokerPort = options.brokerPort > 0 ? options.brokerPort : freeBrokerPort();
        BrokerConfig config = new BrokerConfig();
        config.setBrokerClusterName(options.clusterName);
        config.setBrokerName(options.brokerName);
        config.setBrokerIP1("127.0.0.1");
        config.setBrokerIP2("127.0.0.1");
        config.setNamesrvAddr(nameServerAddress());
        config.setAutoCreateTopicEnable(true);
        config.setAutoCreateSubscriptionGroup(true);
        config.setEnablePropertyFilter(true);
        config.setRocketmqHome(dataDir.toString());
        config.setTransactionCheckInterval(options.transactionCheckInterval.toMillis());
        config.setTransactionTimeOut(options.transactionTimeout.toMillis());
        config.setTransactionOpBatchInterval((int) options.transactionOpBatchInterval.toMillis());
        config.setTransactionCheckMax(options.transactionCheckMax);
        // Pop consumption is never used here (push consumers pull): without its file-based services
        // the broker does not wake every 5 ms to scan an empty pop buffer (~200 wake-ups a second).
        config.setPopConsumerFSServiceInit(false);

        NettyServerConfig server = new NettyServerConfig();
        server.setListenPort(brokerPort);
        server.setBindAddress("127.0.0.1");

        MessageStoreConfig store = new MessageStoreConfig();
        Path storeDir = dataDir.resolve("store");
        store.setStorePathRootDir(storeDir.toString());
        store.setStorePathCommitLog(storeDir.resolve("commitlog").toString());
        store.setMappedFileSizeCommitLog(64 * 1024 * 1024);
        store.setMappedFileSizeConsumeQueue(600_000);
        store.setMappedFileSizeTimerLog(16 * 1024 * 1024);
        // The timer wheel serves only messages with a delivery time (TIMER_DELIVER_MS), which the
        // suite never sends; retry back-off and delay levels go through the schedule topic. Left on,
        // its once-a-second flush of the whole wheel is half of the broker's CPU samples under load.
        store.setTimerWheelEnable(false);
        store.setMaxTransferCountOnMessageInMemory(MAX_MESSAGES_PER_PULL);
        store.setMaxIndexNum(10_000);
        store.setMaxHashSlotNum(2_000);
        store.setHaListenPort(brokerPort + 1);
        store.setFlushDiskType(options.syncFlush ? FlushDiskType.SYNC_FLUSH : FlushDiskType.ASYNC_FLUSH);
        if (options.messageDelayLevel != null) {
            store.setMessageDelayLevel(options.messageDelayLevel);
        }
        if (options.syncMasterReplicas > 1) {
            store.setBrokerRole(BrokerRole.SYNC_MASTER);
            store.setInSyncReplicas(options.syncMasterReplicas);
            store.setSlaveTimeout((int) options.replicaTimeout.toMillis());
        }

        AuthConfig authConfig = options.users == null ? null
                : BrokerAccessControl.authConfig(options.clusterName, options.brokerName, storeDir);
        broker = new BrokerController(config, server, new NettyClientConfig(), store, authConfig);
        try {
            if (!broker.initialize()) {
                throw new IllegalStateException("RocketMQ broker failed to initialize (store " + storeDir + ")");
            }
            if (options.users != null) {
                BrokerAccessControl.install(broker, options.users);
            }
            broker.start();
        } catch (IllegalStateException e) {
            throw e;
        } catch (Exception e) {
            throw new IllegalStateException("RocketMQ broker failed to start on port " + brokerPort, e);
        }
    }

    /**
     * The broker's first registration is skipped until the name server answers, and its
     * periodic one starts only after ~10 s: register explicitly until the name server knows it.
     */
    private void awaitBrokerRegistered() {
        long deadline = System.nanoTime() + options.startTimeout.toNanos();
        while (System.nanoTime() < deadline) {
            broker.registerBrokerAll(true, false, true);
            if (nameServer.getRouteInfoManager().getAllTopicList().getTopicList().contains(READY_TOPIC)) {
                return;
            }
            try {
                Thread.sleep(100);
            } catch (InterruptedException e) {
                Thread.currentThread().interrupt();
                throw new IllegalStateException("Interrupted while waiting for the RocketMQ broker", e);
            }
        }
        throw new IllegalStateException("RocketMQ broker did not register with the name server within "
                + options.startTimeout);
    }

    /**
     * Creates (or widens) each topic with {@code queues} read and write queues and registers it
     * with the name server before returning. A client that subscribed to a topic which did not
     * exist yet learns its route only at its next name-server poll (every 30 s); topics created
     * before the clients start are seen at once.
     *
     * @throws IllegalStateException when the broker is not running or the name server does not list a topic in time
     */
    public synchronized void createTopics(Collection<String> topics, int queues) {
        if (broker == null || nameServer == null) {
            throw new IllegalStateException("RocketMQ is not running");
        }
        for (String topic : topics) {
            broker.getTopicConfigManager().updateTopicConfig(
                    new TopicConfig(topic, queues, queues, PermName.PERM_READ | PermName.PERM_WRITE));
        }
        long deadline = System.nanoTime() + options.startTimeout.toNanos();
        while (!nameServer.getRouteInfoManager().getAllTopicList().getTopicList().containsAll(topics)) {
            if (System.nanoTime() > deadline) {
                throw new IllegalStateException("The name server does not list the topics " + topics + " after "
                        + options.startTimeout);
            }
            broker.registerBrokerAll(true, false, true);
            try {
                Thread.sleep(50);
            } catch (InterruptedException e) {
                Thread.currentThread().interrupt();
                throw new IllegalStateException("Interrupted while registering topics " + topics, e);
            }
        }
    }

    /** {@code host:port} of the name server, the value clients take as name-server address. */
    public String nameServerAddress() {
        return "127.0.0.1:" + nameServerPort;
    }

    public String brokerAddress() {
        return "127.0.0.1:" + brokerPort;
    }

    public String clusterName() {
        return options.clusterName;
    }

    public String brokerName() {
        return options.brokerName;
    }

    public Path dataDir() {
        return options.dataDir;
    }

    /** The running broker, for tests that need to inspect it. */
    public BrokerController broker() {
        return broker;
    }

    /** Stops the broker, then the name server. Broker shutdown takes 10-20 s: share instances. */
    @Override
    public synchronized void close() {
        if (broker != null) {
            try {
                broker.shutdown();
            } catch (RuntimeException e) {
                LOG.warning("RocketMQ broker shutdown failed: " + e);
            }
            broker = null;
        }
        if (nameServer != null) {
            try {
                nameServer.shutdown();
            } catch (RuntimeException e) {
                LOG.warning("RocketMQ name server shutdown failed: " + e);
            }
            nameServer = null;
        }
    }

    /**
     * {@link #close()} on a daemon thread: a broker takes 10-20 s to stop, which a test run that is
     * done with it need not wait for.
     */
    public void closeInBackground() {
        Thread closer = new Thread(this::close, "embedded-rocketmq-close-" + options.brokerName);
        closer.setDaemon(true);
        closer.start();
    }

    /** Deletes {@code dataDir} and everything in it (when it exists), so that a broker starts empty. */
    public static void deleteDataDir(Path dataDir) {
        if (!Files.exists(dataDir)) {
            return;
        }
        try (Stream<Path> paths = Files.walk(dataDir)) {
            for (Path p : paths.sorted(Comparator.reverseOrder()).toList()) {
                Files.delete(p);
            }
        } catch (IOException e) {
            throw new UncheckedIOException("Cannot delete the RocketMQ data folder " + dataDir, e);
        }
    }

    /** Stops only the name server (for tests of health when the name server is gone). */
    public synchronized void stopNameServer() {
        if (nameServer != null) {
            nameServer.shutdown();
            nameServer = null;
        }
    }

    /**
     * Starts the name server again, on the same port, after {@link #stopNameServer()} (for tests
     * of recovery). The broker registers with it again on its next periodic registration; this
     * method registers it at once.
     */
    public synchronized void restartNameServer() {
        if (nameServer != null) {
            return;
        }
        startNameServer(options.dataDir.toAbsolutePath());
        if (broker != null) {
            awaitBrokerRegistered();
        }
    }

    public boolean isRunning() {
        return broker != null && nameServer != null;
    }

    private static int freeBrokerPort() {
        for (int attempt = 0; attempt < 50; attempt++) {
            int port = freePort();
            if (port > 2 && isFree(port - 2) && isFree(port + 1)) {
                return port;
            }
        }
        throw new IllegalStateException("No free port triple for the RocketMQ broker");
    }

    private static int freePort() {
        try (ServerSocket socket = new ServerSocket()) {
            socket.setReuseAddress(true);
            socket.bind(new InetSocketAddress("127.0.0.1", 0));
            return socket.getLocalPort();
        } catch (IOException e) {
            throw new UncheckedIOException("No free port", e);
        }
    }

    private static boolean isFree(int port) {
        try (ServerSocket socket = new ServerSocket()) {
            socket.setReuseAddress(true);
            socket.bind(new InetSocketAddress("0.0.0.0", port));
            return true;
        } catch (IOException e) {
            return false;
        }
    }

    /** Start settings. Defaults suit a laptop; {@link #forTests} shortens every interval. */
    public static final class Options {
        private Path dataDir;
        private int nameServerPort;
        private int brokerPort;
        private String clusterName = "DefaultCluster";
        private String brokerName = "broker-a";
        private Duration transactionCheckInterval = Duration.ofSeconds(30);
        private Duration transactionTimeout = Duration.ofSeconds(6);
        private Duration transactionOpBatchInterval = Duration.ofMillis(3000);
        private int transactionCheckMax = 15;
        private String messageDelayLevel;
        private boolean syncFlush;
        private int syncMasterReplicas;
        private Duration replicaTimeout = Duration.ofSeconds(3);
        private Duration startTimeout = Duration.ofSeconds(30);
        private List<BrokerUser> users;

        public Options(Path dataDir) {
            this.dataDir = Objects.requireNonNull(dataDir, "dataDir");
        }

        /**
         * Check-back within ~3-6 s of an unresolved half message and a retry delay table of
         * seconds. Transaction timeout stays well above the op batch interval: below it,
         * finished transactions are checked again and delivered twice.
         * The check interval stays above the time an application needs to answer a check on a
         * loaded machine: with 1 s, a second check of a half message whose COMMIT answer was
         * still on its way commits it twice (two visible messages, seen in CI at load 20+).
         */
        public static Options forTests(Path dataDir) {
            return new Options(dataDir)
                    .transactionCheckInterval(Duration.ofSeconds(3))
                    .transactionOpBatchInterval(Duration.ofMillis(300))
                    .transactionTimeout(Duration.ofSeconds(2))
                    .messageDelayLevel("1s 1s 1s 2s 2s 2s 3s 3s 3s 4s 4s 4s 5s 5s 5s 6s 6s 6s");
        }

        public Options nameServerPort(int port) { this.nameServerPort = port; return this; }
        public Options brokerPort(int port) { this.brokerPort = port; return this; }
        public Options clusterName(String name) { this.clusterName = name; return this; }
        public Options brokerName(String name) { this.brokerName = name; return this; }
        public Options transactionCheckInterval(Duration d) { this.transactionCheckInterval = d; return this; }
        public Options transactionTimeout(Duration d) { this.transactionTimeout = d; return this; }
        public Options transactionOpBatchInterval(Duration d) { this.transactionOpBatchInterval = d; return this; }
        public Options transactionCheckMax(int max) { this.transactionCheckMax = max; return this; }
        /** Broker delay levels, e.g. {@code "1s 5s 10s 30s 1m"}; null keeps the broker's table. */
        public Options messageDelayLevel(String levels) { this.messageDelayLevel = levels; return this; }
        public Options syncFlush(boolean sync) { this.syncFlush = sync; return this; }

        /**
         * A synchronous master that waits for {@code replicas} copies of each message (itself
         * included) for at most {@code timeout}. No replica ever connects to an embedded broker, so
         * with 2 or more every send is stored but answered {@code FLUSH_SLAVE_TIMEOUT}: the answer a
         * client must not take for {@code SEND_OK}.
         */
        public Options syncMaster(int replicas, Duration timeout) {
            this.syncMasterReplicas = replicas;
            this.replicaTimeout = timeout;
            return this;
        }
        public Options startTimeout(Duration d) { this.startTimeout = d; return this; }

        /**
         * Starts the broker with RocketMQ's access control on (ACL 2.0: authentication and
         * authorization), these being its only users: every request to the broker must then be
         * signed with one user's keys (the client's {@code AclClientRPCHook}) and be granted to
         * that user, or it is answered {@code NO_PERMISSION}. The name server stays open: it only
         * tells routes. Off unless called; an empty list lets no client do anything.
         */
        public Options accessControl(Collection<BrokerUser> users) {
            this.users = List.copyOf(users);
            return this;
        }

        /** {@link #accessControl(Collection)} with these users. */
        public Options accessControl(BrokerUser... users) {
            return accessControl(List.of(users));
        }
        public Options dataDir(Path dir) { this.dataDir = dir; return this; }
    }
}
