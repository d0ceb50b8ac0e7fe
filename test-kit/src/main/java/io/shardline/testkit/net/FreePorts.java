package io.shardline.testkit.net;

import java.io.IOException;
import java.net.InetAddress;
import java.net.InetSocketAddress;
import java.net.ServerSocket;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.ThreadLocalRandom;

/**
 * Free TCP ports on 127.0.0.1 for tests, taken below the kernel's ephemeral range (32768–60999 on Linux) so that no
 * outgoing connection of the machine is handed a port a test is about to listen on, and from a range of their own
 * per surefire fork ({@value #FORK_PROPERTY}, set from {@code surefire.forkNumber} in the parent POM), so that test
 * classes running in parallel forks never take the same port. Within a JVM the ports are handed out in turn (a port
 * is not handed out twice before the range wraps); each is checked free by binding it. Another process may still
 * take one between the check and its use (tests retry or fail clearly). A Redis Cluster node's bus port is taken
 * with {@link #one()} as well, so it stays in the range. See docs/testing.md "Parallel forks".
 */
public final class FreePorts {

    /** The system property holding the surefire fork number (1, 2, ...); absent: 1. */
    public static final String FORK_PROPERTY = "shardline.test.fork";
    private static final int FIRST_PORT = 12_000;
    private static final int PORTS_PER_FORK = 4_000;
    private static final int FORKS = 5;

    private static final int BASE = FIRST_PORT + PORTS_PER_FORK * ((fork() - 1) % FORKS);
    private static int next = ThreadLocalRandom.current().nextInt(PORTS_PER_FORK);

    private FreePorts() {
    }

    /** One free port. */
    public static int one() {
        return take(1).get(0);
    }

    /** {@code n} distinct free ports. */
    public static synchronized List<Integer> take(int n) {
        List<ServerSocket> sockets = new ArrayList<>();
        try {
            for (int tried = 0; sockets.size() < n; tried++) {
                if (tried == PORTS_PER_FORK) {
                    throw new IllegalStateException("no " + n + " free ports in " + BASE + ".."
                            + (BASE + PORTS_PER_FORK - 1) + " on 127.0.0.1");
                }
                int port = BASE + next;
                next = (next + 1) % PORTS_PER_FORK;
                ServerSocket socket = bound(port);
                if (socket != null) {
                    sockets.add(socket);
                }
            }
            return sockets.stream().map(ServerSocket::getLocalPort).toList();
        } finally {
            for (ServerSocket s : sockets) {
                try {
                    s.close();
                } catch (IOException ignored) {
                    // best effort
                }
            }
        }
    }

    private static ServerSocket bound(int port) {
        ServerSocket socket = null;
        try {
            socket = new ServerSocket();
            socket.setReuseAddress(false);
            socket.bind(new InetSocketAddress(InetAddress.getLoopbackAddress(), port), 1);
            return socket;
        } catch (IOException taken) {
            if (socket != null) {
                try {
                    socket.close();
                } catch (IOException ignored) {
                    // best effort
                }
            }
            return null;
        }
    }

    private static int fork() {
        String value = System.getProperty(FORK_PROPERTY, "1");
        try {
            return Math.max(1, Integer.parseInt(value.trim()));
        } catch (NumberFormatException e) {
            throw new IllegalArgumentException(FORK_PROPERTY + "=" + value + " is not a fork number", e);
        }
    }
}
