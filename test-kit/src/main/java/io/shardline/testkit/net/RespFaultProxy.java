package io.shardline.testkit.net;

import java.io.ByteArrayOutputStream;
import java.io.IOException;
import java.io.InputStream;
import java.io.OutputStream;
import java.io.UncheckedIOException;
import java.net.InetAddress;
import java.net.InetSocketAddress;
import java.net.ServerSocket;
import java.net.Socket;
import java.nio.charset.StandardCharsets;
import java.util.ArrayDeque;
import java.util.Deque;
import java.util.List;
import java.util.concurrent.CopyOnWriteArrayList;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicInteger;
import java.util.function.Predicate;

/**
 * A TCP proxy on 127.0.0.1 in front of a Redis server that injects the one fault a client cannot tell from a
 * slow network: Redis runs a command, and its reply never arrives. Every command passes through to Redis; the
 * proxy reads the RESP frames both ways, so it knows which reply belongs to which command. Once {@link #dropReplyTo}
 * is armed, the reply to the next command that matches (say, an {@code FCALL} of a read) is swallowed and the
 * client's connection is closed after {@code delayMs} (the outcome of that command is then unknown to the client,
 * although Redis ran it); the fault fires once. A matching command queued in a {@code MULTI} transaction runs at
 * its {@code EXEC}: then the reply to that {@code EXEC} is the one swallowed. Other connections are left alone.
 *
 * <p>Use: {@code try (RespFaultProxy proxy = RespFaultProxy.start(redisPort)) { connect to proxy.port() ... }}.
 * Thread-safe; two threads per proxied connection, all daemons, stopped by {@link #close()}.
 */
public final class RespFaultProxy implements AutoCloseable {

    private final int targetPort;
    private final ServerSocket server;
    private final List<Socket> sockets = new CopyOnWriteArrayList<>();
    private final AtomicInteger dropped = new AtomicInteger();
    private volatile Predicate<String> dropMatching;
    private volatile long dropDelayMs;

    private RespFaultProxy(int targetPort, ServerSocket server) {
        this.targetPort = targetPort;
        this.server = server;
    }

    /** Starts a proxy on a free port of 127.0.0.1 forwarding to 127.0.0.1:{@code targetPort}. */
    public static RespFaultProxy start(int targetPort) {
        try {
            ServerSocket server = new ServerSocket(0, 50, InetAddress.getLoopbackAddress());
            RespFaultProxy proxy = new RespFaultProxy(targetPort, server);
            daemon("resp-proxy-accept", proxy::accept).start();
            return proxy;
        } catch (IOException e) {
            throw new UncheckedIOException(e);
        }
    }

    /** The port clients connect to. */
    public int port() {
        return server.getLocalPort();
    }

    /**
     * Arms the fault: the reply to the next command whose text (its arguments joined by spaces, e.g.
     * {@code "FCALL shardline_read 2 ..."}) matches is not forwarded, and that client connection is closed
     * {@code delayMs} after the reply arrived from Redis.
     */
    public void dropReplyTo(Predicate<String> command, long delayMs) {
        this.dropDelayMs = delayMs;
        this.dropMatching = command;
    }

    /** How many replies were dropped so far. */
    public int dropped() {
        return dropped.get();
    }

    @Override
    public void close() {
        try {
            server.close();
        } catch (IOException ignored) {
            // closing anyway
        }
        sockets.forEach(RespFaultProxy::closeQuietly);
    }

    private void accept() {
        while (!server.isClosed()) {
            try {
                Socket client = server.accept();
                Socket redis = new Socket();
                redis.connect(new InetSocketAddress(InetAddress.getLoopbackAddress(), targetPort), 5_000);
                client.setTcpNoDelay(true);
                redis.setTcpNoDelay(true);
                sockets.add(client);
                sockets.add(redis);
                Deque<Boolean> doomed = new ArrayDeque<>();
                daemon("resp-proxy-up", () -> pumpCommands(client, redis, doomed)).start();
                daemon("resp-proxy-down", () -> pumpReplies(redis, client, doomed)).start();
            } catch (IOException e) {
                if (!server.isClosed()) {
                    throw new UncheckedIOException(e);
                }
            }
        }
    }

    /** Client to Redis: forwards each command frame, noting for each whether its reply is to be dropped. */
    private void pumpCommands(Socket client, Socket redis, Deque<Boolean> doomed) {
        try (InputStream in = client.getInputStream(); OutputStream out = redis.getOutputStream()) {
            RespReader reader = new RespReader(in);
            boolean inMulti = false;
            boolean dropExec = false;
            while (true) {
                RespReader.Frame frame = reader.next();
                if (frame == null) {
                    break;
                }
                String name = frame.text().split(" ", 2)[0];
                Predicate<String> match = dropMatching;
                boolean drop = match != null && match.test(frame.text());
                if (drop) {
                    dropMatching = null;
                }
                if (name.equalsIgnoreCase("MULTI")) {
                    inMulti = true;
                } else if (inMulti && drop) {
                    drop = false; // only queued: it runs, and answers, at EXEC
                    dropExec = true;
                } else if (name.equalsIgnoreCase("EXEC") || name.equalsIgnoreCase("DISCARD")) {
                    drop = drop || dropExec && name.equalsIgnoreCase("EXEC");
                    inMulti = false;
                    dropExec = false;
                }
                synchronized (doomed) {
                    doomed.addLast(drop);
                }
                out.write(frame.bytes());
                out.flush();
            }
        } catch (IOException e) {
            // a side closed: the other pump stops too
        } finally {
            closeQuietly(client);
            closeQuietly(redis);
        }
    }

    /** Redis to client: forwards each reply, except the one to a doomed command, after which it cuts the client off. */
    private void pumpReplies(Socket redis, Socket client, Deque<Boolean> doomed) {
        try (InputStream in = redis.getInputStream(); OutputStream out = client.getOutputStream()) {
            RespReader reader = new RespReader(in);
            while (true) {
                RespReader.Frame frame = reader.next();
                if (frame == null) {
                    break;
                }
                Boolean drop = Boolean.FALSE;
                if (!frame.push()) {
                    synchronized (doomed) {
                        drop = doomed.isEmpty() ? Boolean.FALSE : doomed.removeFirst();
                    }
                }
                if (drop) {
                    dropped.incrementAndGet();
                    TimeUnit.MILLISECONDS.sleep(dropDelayMs);
                    break;
                }
                out.write(frame.bytes());
                out.flush();
            }
        } catch (IOException e) {
            // a side closed
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
        } finally {
            closeQuietly(client);
            closeQuietly(redis);
        }
    }

    private static Thread daemon(String name, Runnable body) {
        Thread t = new Thread(body, name);
        t.setDaemon(true);
        return t;
    }

    private static void closeQuietly(Socket s) {
        try {
            s.close();
        } catch (IOException ignored) {
            // already closed
        }
    }

    /** Reads whole RESP2/RESP3 frames off a stream, keeping their bytes and, for commands, their text. */
    static final class RespReader {

        /** One frame: its bytes, its text (the bulk strings of an array, space-separated), whether it is a push. */
        record Frame(byte[] bytes, String text, boolean push) {
        }

        private final InputStream in;
        private ByteArrayOutputStream raw;
        private StringBuilder text;

        RespReader(InputStream in) {
            this.in = in;
        }

        /** The next frame, or null at the end of the stream. */
        Frame next() throws IOException {
            raw = new ByteArrayOutputStream();
            text = new StringBuilder();
            int type = in.read();
            if (type < 0) {
                return null;
            }
            boolean push = type == '>';
            boolean attribute = type == '|';
            value(type);
            if (attribute) {
                value(read()); // an attribute precedes the reply it annotates: one frame together
            }
            return new Frame(raw.toByteArray(), text.toString().trim(), push);
        }

        private void value(int type) throws IOException {
            raw.write(type);
            String line = line();
            switch (type) {
                case '+', '-', ':', '_', ',', '#', '(' -> text.append(line).append(' ');
                case '$', '!', '=' -> {
                    int n = Integer.parseInt(line);
                    if (n >= 0) {
                        byte[] data = in.readNBytes(n + 2);
                        raw.write(data);
                        text.append(new String(data, 0, Math.max(0, data.length - 2), StandardCharsets.UTF_8)).append(' ');
                    }
                }
                case '*', '~', '>' -> elements(Integer.parseInt(line));
                case '%', '|' -> elements(2 * Integer.parseInt(line));
                default -> throw new IOException("not a RESP frame: type byte " + type);
            }
        }

        private void elements(int n) throws IOException {
            for (int i = 0; i < n; i++) {
                value(read());
            }
        }

        private int read() throws IOException {
            int b = in.read();
            if (b < 0) {
                throw new IOException("stream ended inside a frame");
            }
            return b;
        }

        private String line() throws IOException {
            StringBuilder sb = new StringBuilder();
            int prev = -1;
            while (true) {
                int b = read();
                raw.write(b);
                if (prev == '\r' && b == '\n') {
                    return sb.substring(0, sb.length() - 1);
                }
                sb.append((char) b);
                prev = b;
            }
        }
    }
}
