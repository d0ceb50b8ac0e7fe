package io.shardline.testkit.net;

import java.io.IOException;
import java.io.UncheckedIOException;
import java.net.InetAddress;
import java.net.ServerSocket;
import java.util.ArrayList;
import java.util.List;

/** Free TCP ports on 127.0.0.1 for tests (another process may still take one; tests retry or fail clearly). */
public final class FreePorts {

    private FreePorts() {
    }

    /** One free port. */
    public static int one() {
        return take(1).get(0);
    }

    /** {@code n} distinct free ports. */
    public static List<Integer> take(int n) {
        List<ServerSocket> sockets = new ArrayList<>();
        try {
            for (int i = 0; i < n; i++) {
                sockets.add(new ServerSocket(0, 1, InetAddress.getLoopbackAddress()));
            }
            return sockets.stream().map(ServerSocket::getLocalPort).toList();
        } catch (IOException e) {
            throw new UncheckedIOException(e);
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
}
