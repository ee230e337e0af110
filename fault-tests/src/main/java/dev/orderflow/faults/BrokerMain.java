package dev.orderflow.faults;

import java.io.IOException;
import java.net.InetSocketAddress;
import java.nio.file.Path;
import java.util.concurrent.CountDownLatch;

import com.sun.net.httpserver.HttpServer;

import dev.orderflow.launcher.LocalSuite;
import dev.orderflow.rocketmq.embedded.EmbeddedRocketMQ;

/**
 * The real RocketMQ name server and broker in a process of their own, so that the fault suite
 * can stop and start them like a broker host: fixed ports and a fixed store folder, so a restart
 * finds every message it had. {@link EmbeddedRocketMQ.Options#forTests} timings (check-back every
 * 3 s, retry delays of seconds). SIGTERM shuts the broker down cleanly (its store flushed).
 *
 * <pre>java -cp ... dev.orderflow.faults.BrokerMain &lt;dataDir&gt; &lt;nameServerPort&gt; &lt;brokerPort&gt; &lt;readyPort&gt;</pre>
 * {@code http://127.0.0.1:<readyPort>/ready} answers 200 once the broker is registered and the
 * suite's topics exist.
 */
public final class BrokerMain {

    private BrokerMain() {
    }

    public static void main(String[] args) throws IOException, InterruptedException {
        if (args.length != 4) {
            System.err.println("usage: BrokerMain <dataDir> <nameServerPort> <brokerPort> <readyPort>");
            System.exit(2);
        }
        EmbeddedRocketMQ rocketMQ = EmbeddedRocketMQ.start(EmbeddedRocketMQ.Options.forTests(Path.of(args[0]))
                .nameServerPort(Integer.parseInt(args[1]))
                .brokerPort(Integer.parseInt(args[2])));
        CountDownLatch stopped = new CountDownLatch(1);
        Runtime.getRuntime().addShutdownHook(new Thread(() -> {
            rocketMQ.close();
            stopped.countDown();
        }, "broker-stop"));
        rocketMQ.createTopics(LocalSuite.TOPICS, LocalSuite.QUEUES_PER_TOPIC);

        HttpServer ready = HttpServer.create(new InetSocketAddress("127.0.0.1", Integer.parseInt(args[3])), 0);
        ready.createContext("/ready", exchange -> {
            exchange.sendResponseHeaders(200, -1);
            exchange.close();
        });
        ready.start();
        System.out.println("broker ready: name server " + rocketMQ.nameServerAddress() + ", broker "
                + rocketMQ.brokerAddress());
        stopped.await();
    }
}
