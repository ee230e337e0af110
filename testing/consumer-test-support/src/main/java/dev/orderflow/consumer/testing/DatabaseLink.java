package dev.orderflow.consumer.testing;

import java.io.IOException;
import java.io.InputStream;
import java.io.InterruptedIOException;
import java.io.OutputStream;
import java.net.InetAddress;
import java.net.InetSocketAddress;
import java.net.ServerSocket;
import java.net.Socket;
import java.util.Set;
import java.util.concurrent.ConcurrentHashMap;
import java.util.logging.Level;
import java.util.logging.Logger;

/**
 * A TCP relay between the application under test and the shared MariaDB server, so a test can
 * take the database away from that one application without touching the server others use:
 * {@link #cut()} closes every open connection (like a server-side KILL) and refuses new ones until
 * {@link #restore()}; {@link #stall()} holds every byte either way, connections open, until
 * {@link #resume()} (a database that stops answering). Point the datasource at {@link #jdbcUrl(String)}.
 */
public final class DatabaseLink implements AutoCloseable {

    private static final Logger LOG = Logger.getLogger(DatabaseLink.class.getName());

    private final String targetHost;
    private final int targetPort;
    private final ServerSocket server;
    private final Set<Socket> open = ConcurrentHashMap.newKeySet();
    private volatile boolean up = true;
    private volatile boolean closed;
    /** Guards {@link #stalled}; the pumps wait on it. */
    private final Object flow = new Object();
    private boolean stalled;

    /** Starts relaying a free local port to {@code targetHost:targetPort}. */
    public DatabaseLink(String targetHost, int targetPort) throws IOException {
        this.targetHost = targetHost;
        this.targetPort = targetPort;
        this.server = new ServerSocket();
        server.bind(new InetSocketAddress(InetAddress.getLoopbackAddress(), 0));
        Thread acceptor = new Thread(this::acceptLoop, "database-link-accept");
        acceptor.setDaemon(true);
        acceptor.start();
    }

    /** The local port the application connects to. */
    public int port() {
        return server.getLocalPort();
    }

    /** {@code jdbc:mariadb://127.0.0.1:<port>/<database>?createDatabaseIfNotExist=true}. */
    public String jdbcUrl(String database) {
        return "jdbc:mariadb://127.0.0.1:" + port() + "/" + database + "?createDatabaseIfNotExist=true";
    }

    /**
     * Holds whatever either side sends from now on, connections open, until {@link #resume()}: the
     * application's statements and commits wait as on a database that stopped answering.
     */
    public void stall() {
        synchronized (flow) {
            stalled = true;
        }
    }

    /** Lets the held bytes and everything after them through. */
    public void resume() {
        synchronized (flow) {
            stalled = false;
            flow.notifyAll();
        }
    }

    /**
     * Drops every open connection and refuses new ones: the database is gone for the application.
     * Bytes a {@link #stall()} held are dropped with their connections (the server rolls back what
     * they had not committed).
     */
    public void cut() {
        up = false;
        for (Socket socket : open) {
            closeQuietly(socket);
        }
        open.clear();
    }

    /** Accepts connections again. */
    public void restore() {
        up = true;
    }

    private void acceptLoop() {
        while (!closed) {
            Socket client;
            try {
                client = server.accept();
            } catch (IOException e) {
                if (!closed) {
                    LOG.log(Level.WARNING, "database link stopped accepting", e);
                }
                return;
            }
            if (!up) {
                closeQuietly(client);
                continue;
            }
            try {
                Socket upstream = new Socket(targetHost, targetPort);
                open.add(client);
                open.add(upstream);
                pump(client, upstream);
                pump(upstream, client);
            } catch (IOException e) {
                LOG.log(Level.WARNING, "database link cannot reach " + targetHost + ":" + targetPort, e);
                closeQuietly(client);
            }
        }
    }

    private void pump(Socket from, Socket to) {
        Thread thread = new Thread(() -> {
            byte[] buffer = new byte[16384];
            try (InputStream in = from.getInputStream(); OutputStream out = to.getOutputStream()) {
                int n;
                while ((n = in.read(buffer)) >= 0) {
                    awaitFlow(from);
                    out.write(buffer, 0, n);
                    out.flush();
                }
            } catch (IOException e) {
                // The other side closed or cut() dropped the connection: both ends are closed below.
                LOG.log(Level.FINE, "database link connection ended", e);
            } finally {
                closeQuietly(from);
                closeQuietly(to);
                open.remove(from);
                open.remove(to);
            }
        }, "database-link-pump");
        thread.setDaemon(true);
        thread.start();
    }

    /** Returns once bytes may flow; throws when {@code from} was closed meanwhile (a cut). */
    private void awaitFlow(Socket from) throws IOException {
        synchronized (flow) {
            while (stalled && !from.isClosed()) {
                try {
                    flow.wait(100);
                } catch (InterruptedException e) {
                    Thread.currentThread().interrupt();
                    throw new InterruptedIOException("database link stopped");
                }
            }
        }
        if (from.isClosed()) {
            throw new IOException("database link connection cut while stalled");
        }
    }

    private static void closeQuietly(Socket socket) {
        try {
            socket.close();
        } catch (IOException e) {
            LOG.log(Level.FINE, "closing a database link socket failed", e);
        }
    }

    @Override
    public void close() throws IOException {
        closed = true;
        cut();
        server.close();
    }
}
