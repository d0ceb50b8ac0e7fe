package io.shardline.testkit.redis;

import java.io.BufferedInputStream;
import java.io.IOException;
import java.io.InputStream;
import java.io.OutputStream;
import java.net.InetSocketAddress;
import java.net.Socket;
import java.nio.charset.StandardCharsets;
import java.util.ArrayList;
import java.util.List;

/**
 * A minimal, blocking RESP2 client for test infrastructure: enough to probe a server (PING, INFO) and run
 * a few commands from a test without pulling a Redis client into the test kit. Not thread-safe; one
 * instance per socket. Production code uses the Vert.x Redis client, never this.
 */
public final class RespProbe implements AutoCloseable {

    private final Socket socket;
    private final InputStream in;
    private final OutputStream out;

    private RespProbe(Socket socket) throws IOException {
        this.socket = socket;
        this.in = new BufferedInputStream(socket.getInputStream());
        this.out = socket.getOutputStream();
    }

    /** Connects to {@code host:port} with the given connect and read timeout. */
    public static RespProbe connect(String host, int port, int timeoutMs) throws IOException {
        Socket socket = new Socket();
        try {
            socket.connect(new InetSocketAddress(host, port), timeoutMs);
            socket.setSoTimeout(timeoutMs);
            return new RespProbe(socket);
        } catch (IOException e) {
            socket.close();
            throw e;
        }
    }

    /**
     * Sends one command and returns its reply: a {@code String} for simple and bulk strings, a {@code Long}
     * for integers, a {@code List<Object>} for arrays, {@code null} for nil.
     *
     * @throws RedisErrorReply when the server answers with an error
     */
    public Object call(String... args) throws IOException {
        StringBuilder cmd = new StringBuilder().append('*').append(args.length).append("\r\n");
        for (String arg : args) {
            byte[] bytes = arg.getBytes(StandardCharsets.UTF_8);
            cmd.append('$').append(bytes.length).append("\r\n").append(arg).append("\r\n");
        }
        out.write(cmd.toString().getBytes(StandardCharsets.UTF_8));
        out.flush();
        return readReply();
    }

    private Object readReply() throws IOException {
        int type = in.read();
        if (type < 0) {
            throw new IOException("connection closed by server");
        }
        String line = readLine();
        switch (type) {
            case '+':
                return line;
            case '-':
                throw new RedisErrorReply(line);
            case ':':
                return Long.parseLong(line);
            case '$': {
                int len = Integer.parseInt(line);
                if (len < 0) {
                    return null;
                }
                byte[] data = in.readNBytes(len + 2);
                return new String(data, 0, len, StandardCharsets.UTF_8);
            }
            case '*': {
                int count = Integer.parseInt(line);
                if (count < 0) {
                    return null;
                }
                List<Object> items = new ArrayList<>(count);
                for (int i = 0; i < count; i++) {
                    items.add(readReply());
                }
                return items;
            }
            default:
                throw new IOException("unexpected RESP type byte '" + (char) type + "'");
        }
    }

    private String readLine() throws IOException {
        StringBuilder sb = new StringBuilder();
        int c;
        while ((c = in.read()) != '\r') {
            if (c < 0) {
                throw new IOException("connection closed by server");
            }
            sb.append((char) c);
        }
        in.read(); // '\n'
        return sb.toString();
    }

    @Override
    public void close() throws IOException {
        socket.close();
    }

    /** An error reply ({@code -ERR ...}) from the server. */
    public static final class RedisErrorReply extends IOException {
        private static final long serialVersionUID = 1L;

        RedisErrorReply(String message) {
            super(message);
        }
    }
}
