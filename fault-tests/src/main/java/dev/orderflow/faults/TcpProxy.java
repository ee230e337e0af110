package dev.orderflow.faults;

import java.io.IOException;
import java.io.InputStream;
import java.io.OutputStream;
import java.io.UncheckedIOException;
import java.net.InetAddress;
import java.net.InetSocketAddress;
import java.net.ServerSocket;
import java.net.Socket;
import java.util.Set;
import java.util.concurrent.ConcurrentHashMap;

/**
 * A loopback TCP proxy between one service and MariaDB, for the database-outage fault:
 * {@link #cut()} closes every open connection and refuses new ones (the port stops listening)
 * until {@link #restore()} listens again on the same port.
 */
public final class TcpProxy implements AutoCloseable {

    private final String targetHost;
    private final int targetPort;
    private final int port;
    private final Set<Socket> open = ConcurrentHashMap.newKeySet();
    private ServerSocket server;

    public TcpProxy(String targetHost, int targetPort, int port) {
        this.targetHost = targetHost;
        this.targetPort = targetPort;
        this.port = port;
        restore();
    }

    public int port() {
        return port;
    }

    /** Listens again (idempotent). */
    public synchronized void restore() {
        if (server != null) {
            return;
        }
        try {
            ServerSocket socket = new ServerSocket();
            socket.setReuseAddress(true);
            socket.bind(new InetSocketAddress(InetAddress.getLoopbackAddress(), port));
            server = socket;
            Thread acceptor = new Thread(() -> accept(socket), "tcp-proxy-" + port);
            acceptor.setDaemon(true);
            acceptor.start();
        } catch (IOException e) {
            throw new UncheckedIOException("Proxy cannot listen on " + port, e);
        }
    }

    /** Stops listening and closes every connection through the proxy (idempotent). */
    public synchronized void cut() {
        if (server != null) {
            closeQuietly(server);
            server = null;
        }
        open.forEach(TcpProxy::closeQuietly);
        open.clear();
    }

    @Override
    public void close() {
        cut();
    }

    private void accept(ServerSocket socket) {
        while (!socket.isClosed()) {
            Socket client;
            try {
                client = socket.accept();
            } catch (IOException e) {
                return; // closed by cut()
            }
            try {
                Socket upstream = new Socket(targetHost, targetPort);
                open.add(client);
                open.add(upstream);
                pump(client, upstream);
                pump(upstream, client);
            } catch (IOException e) {
                closeQuietly(client);
            }
        }
    }

    private void pump(Socket from, Socket to) {
        Thread thread = new Thread(() -> {
            byte[] buffer = new byte[16 * 1024];
            try (InputStream in = from.getInputStream(); OutputStream out = to.getOutputStream()) {
                int read;
                while ((read = in.read(buffer)) >= 0) {
                    out.write(buffer, 0, read);
                    out.flush();
                }
            } catch (IOException e) {
                // Either side closed (or cut()): end both directions below.
            } finally {
                closeQuietly(from);
                closeQuietly(to);
                open.remove(from);
                open.remove(to);
            }
        }, "tcp-proxy-pump-" + port);
        thread.setDaemon(true);
        thread.start();
    }

    private static void closeQuietly(java.io.Closeable closeable) {
        try {
            closeable.close();
        } catch (IOException e) {
            // Closing a socket that is already broken: nothing more to release.
        }
    }
}
