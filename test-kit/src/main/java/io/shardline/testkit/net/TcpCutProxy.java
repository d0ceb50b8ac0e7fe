package io.shardline.testkit.net;

import java.io.IOException;
import java.io.InputStream;
import java.io.OutputStream;
import java.io.UncheckedIOException;
import java.net.InetAddress;
import java.net.InetSocketAddress;
import java.net.ServerSocket;
import java.net.Socket;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.HashSet;
import java.util.List;
import java.util.Locale;
import java.util.Set;
import java.util.concurrent.CopyOnWriteArrayList;
import java.util.stream.Stream;

/**
 * A plain TCP proxy on 127.0.0.1 in front of one port of a process (a worker's Hazelcast member port or its event
 * bus), that a test can cut and heal, as a network partition would: no {@code iptables}, no root. Put one in front
 * of every cluster port of every worker (each worker advertises its proxies' ports: {@code cluster.public.port},
 * {@code cluster.bus.public.port}); to partition worker W, {@link #cut()} the proxies in front of W's ports and
 * {@link #cutFrom(long)} W's pid on every other proxy, so that neither the connections to W nor those W opens to
 * the others carry anything. A cut connection is a black hole, as behind a dropped route: it stays open, and what
 * either side sends is read and discarded; connections opened meanwhile are accepted into the same black hole.
 * {@link #heal()} closes the black-holed connections (both ends see a reset and reconnect) and lets new ones through.
 *
 * <p>Which process opened a connection is read from Linux's {@code /proc} (the socket's inode in
 * {@code /proc/net/tcp*}, and the process's descriptors under {@code /proc/<pid>/fd}), so the proxy and the process
 * must run as the same user on Linux. Thread-safe; two daemon threads per connection; stopped by {@link #close()}.
 */
public final class TcpCutProxy implements AutoCloseable {

    private final int targetPort;
    private final ServerSocket server;
    private final List<Link> links = new CopyOnWriteArrayList<>();
    private volatile boolean cutAll;
    private volatile long cutPid = -1;

    private TcpCutProxy(int targetPort, ServerSocket server) {
        this.targetPort = targetPort;
        this.server = server;
    }

    /** Starts a proxy on 127.0.0.1:{@code port} forwarding to 127.0.0.1:{@code targetPort}. */
    public static TcpCutProxy start(int port, int targetPort) {
        try {
            ServerSocket server = new ServerSocket();
            server.setReuseAddress(true);
            server.bind(new InetSocketAddress(InetAddress.getLoopbackAddress(), port), 50);
            TcpCutProxy proxy = new TcpCutProxy(targetPort, server);
            daemon("cut-proxy-accept-" + port, proxy::accept).start();
            return proxy;
        } catch (IOException e) {
            throw new UncheckedIOException(e);
        }
    }

    /** The port clients connect to. */
    public int port() {
        return server.getLocalPort();
    }

    /** Cuts every connection through this proxy, open and new: the process behind it is cut off. */
    public void cut() {
        cutAll = true;
        links.forEach(l -> l.cut = true);
    }

    /** Cuts the connections process {@code pid} opened through this proxy, open and new. */
    public void cutFrom(long pid) {
        Set<Long> inodes = socketInodes(pid);
        cutPid = pid;
        links.stream().filter(l -> inodes.contains(l.clientInode)).forEach(l -> l.cut = true);
    }

    /** Closes the cut connections and lets every new one through. */
    public void heal() {
        cutAll = false;
        cutPid = -1;
        links.stream().filter(l -> l.cut).forEach(l -> {
            links.remove(l);
            l.close();
        });
    }

    @Override
    public void close() {
        try {
            server.close();
        } catch (IOException ignored) {
            // closing anyway
        }
        links.forEach(Link::close);
    }

    private void accept() {
        while (!server.isClosed()) {
            try {
                Socket client = server.accept();
                long inode = clientInode(client.getPort());
                long pid = cutPid;
                boolean cut = cutAll || pid >= 0 && socketInodes(pid).contains(inode);
                Socket target = new Socket();
                if (!cut) {
                    target.connect(new InetSocketAddress(InetAddress.getLoopbackAddress(), targetPort), 5_000);
                    target.setTcpNoDelay(true);
                }
                client.setTcpNoDelay(true);
                Link link = new Link(client, target, inode, cut);
                links.add(link);
                daemon("cut-proxy-up", () -> pump(link, client, target)).start();
                if (!cut) {
                    daemon("cut-proxy-down", () -> pump(link, target, client)).start();
                }
            } catch (IOException e) {
                if (server.isClosed()) {
                    return;
                }
                // a client that went away before it was served: serve the next one
            }
        }
    }

    /** Copies {@code from} to {@code to} until either side closes; discards what arrives while the link is cut. */
    private void pump(Link link, Socket from, Socket to) {
        byte[] buffer = new byte[16 * 1024];
        try (InputStream in = from.getInputStream()) {
            OutputStream out = link.cut && !to.isConnected() ? null : to.getOutputStream();
            while (true) {
                int n = in.read(buffer);
                if (n < 0) {
                    break;
                }
                if (!link.cut && out != null) {
                    out.write(buffer, 0, n);
                    out.flush();
                }
            }
        } catch (IOException e) {
            // a side closed: the link ends
        } finally {
            links.remove(link);
            link.close();
        }
    }

    /** The inode of the socket at 127.0.0.1:{@code clientPort} connected to this proxy, or -1 when not found. */
    private long clientInode(int clientPort) {
        String local = String.format(Locale.ROOT, ":%04X", clientPort);
        String remote = String.format(Locale.ROOT, ":%04X", port());
        for (String table : List.of("/proc/net/tcp", "/proc/net/tcp6")) {
            try (Stream<String> lines = Files.lines(Path.of(table))) {
                for (String line : (Iterable<String>) lines.skip(1)::iterator) {
                    String[] f = line.trim().split("\\s+");
                    if (f.length > 9 && f[1].endsWith(local) && f[2].endsWith(remote)) {
                        return Long.parseLong(f[9]);
                    }
                }
            } catch (IOException | RuntimeException e) {
                // not Linux, or the table changed under us: unknown
            }
        }
        return -1;
    }

    /** The inodes of the sockets process {@code pid} holds. */
    private static Set<Long> socketInodes(long pid) {
        Set<Long> inodes = new HashSet<>();
        try (Stream<Path> fds = Files.list(Path.of("/proc", Long.toString(pid), "fd"))) {
            fds.forEach(fd -> {
                try {
                    String target = Files.readSymbolicLink(fd).toString();
                    if (target.startsWith("socket:[")) {
                        inodes.add(Long.parseLong(target.substring(8, target.length() - 1)));
                    }
                } catch (IOException | RuntimeException e) {
                    // closed meanwhile
                }
            });
        } catch (IOException e) {
            throw new UncheckedIOException("cannot read the sockets of process " + pid, e);
        }
        return inodes;
    }

    private static Thread daemon(String name, Runnable body) {
        Thread t = new Thread(body, name);
        t.setDaemon(true);
        return t;
    }

    /** One proxied connection. */
    private static final class Link {
        final Socket client;
        final Socket target;
        final long clientInode;
        volatile boolean cut;

        Link(Socket client, Socket target, long clientInode, boolean cut) {
            this.client = client;
            this.target = target;
            this.clientInode = clientInode;
            this.cut = cut;
        }

        void close() {
            for (Socket s : new Socket[] {client, target}) {
                try {
                    s.close();
                } catch (IOException ignored) {
                    // already closed
                }
            }
        }
    }
}
