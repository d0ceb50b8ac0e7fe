package io.shardline.examples.forwarder;

import java.io.BufferedInputStream;
import java.io.BufferedOutputStream;
import java.io.EOFException;
import java.io.IOException;
import java.io.InputStream;
import java.io.OutputStream;
import java.net.InetSocketAddress;
import java.net.Socket;
import java.net.URI;
import java.nio.charset.StandardCharsets;
import java.util.ArrayList;
import java.util.List;

/**
 * A minimal blocking RESP2 client (JDK only, so the plugin needs no bundled library): pipelined commands,
 * replies as {@code String}, {@code Long}, {@code List<Object>}, {@code null} or {@link ErrorReply}. The
 * connection opens lazily and is dropped after an I/O error (the next call reconnects). Thread-safe
 * (one caller at a time).
 */
final class RespConnection implements AutoCloseable {

    /** A Redis error reply ({@code -ERR ...}). */
    record ErrorReply(String message) {
    }

    private final String host;
    private final int port;
    private final int timeoutMs;
    private Socket socket;
    private InputStream in;
    private OutputStream out;

    RespConnection(String url, int timeoutMs) {
        URI uri = URI.create(url);
        if (!"redis".equals(uri.getScheme()) || uri.getHost() == null) {
            throw new IllegalArgumentException("not a redis://host:port URL: " + url);
        }
        this.host = uri.getHost();
        this.port = uri.getPort() < 0 ? 6379 : uri.getPort();
        this.timeoutMs = timeoutMs;
    }

    /** Sends the commands in one write and reads their replies in order. */
    synchronized List<Object> pipeline(List<List<String>> commands) throws IOException {
        try {
            if (socket == null) {
                open();
            }
            for (List<String> command : commands) {
                write(command);
            }
            out.flush();
            List<Object> replies = new ArrayList<>(commands.size());
            for (int i = 0; i < commands.size(); i++) {
                replies.add(read());
            }
            return replies;
        } catch (IOException e) {
            close();
            throw e;
        }
    }

    private void open() throws IOException {
        Socket s = new Socket();
        s.connect(new InetSocketAddress(host, port), timeoutMs);
        s.setSoTimeout(timeoutMs);
        s.setTcpNoDelay(true);
        socket = s;
        in = new BufferedInputStream(s.getInputStream());
        out = new BufferedOutputStream(s.getOutputStream());
    }

    private void write(List<String> command) throws IOException {
        out.write(('*' + Integer.toString(command.size()) + "\r\n").getBytes(StandardCharsets.US_ASCII));
        for (String arg : command) {
            byte[] bytes = arg.getBytes(StandardCharsets.UTF_8);
            out.write(('$' + Integer.toString(bytes.length) + "\r\n").getBytes(StandardCharsets.US_ASCII));
            out.write(bytes);
            out.write('\r');
            out.write('\n');
        }
    }

    private Object read() throws IOException {
        int type = in.read();
        if (type < 0) {
            throw new EOFException("Redis closed the connection");
        }
        String line = readLine();
        switch (type) {
            case '+':
                return line;
            case '-':
                return new ErrorReply(line);
            case ':':
                return Long.parseLong(line);
            case '$': {
                int len = Integer.parseInt(line);
                if (len < 0) {
                    return null;
                }
                byte[] data = in.readNBytes(len + 2);
                if (data.length < len + 2) {
                    throw new EOFException("truncated bulk reply");
                }
                return new String(data, 0, len, StandardCharsets.UTF_8);
            }
            case '*': {
                int n = Integer.parseInt(line);
                if (n < 0) {
                    return null;
                }
                List<Object> items = new ArrayList<>(n);
                for (int i = 0; i < n; i++) {
                    items.add(read());
                }
                return items;
            }
            default:
                throw new IOException("unexpected RESP type byte " + type);
        }
    }

    private String readLine() throws IOException {
        StringBuilder sb = new StringBuilder();
        int c;
        while ((c = in.read()) != '\r') {
            if (c < 0) {
                throw new EOFException("Redis closed the connection");
            }
            sb.append((char) c);
        }
        in.read(); // '\n'
        return sb.toString();
    }

    @Override
    public synchronized void close() {
        if (socket != null) {
            try {
                socket.close();
            } catch (IOException e) {
                // closing anyway
            }
        }
        socket = null;
    }
}
