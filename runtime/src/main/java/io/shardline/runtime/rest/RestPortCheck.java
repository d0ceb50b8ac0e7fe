package io.shardline.runtime.rest;

import java.io.IOException;
import java.net.InetSocketAddress;
import java.net.ServerSocket;

/**
 * A start-up check that {@code rest.bind:rest.port} is free, made before a worker joins the cluster or connects to
 * Redis: a second worker on a host with the same {@code rest.port} then exits at once with one line naming the key
 * (docs/operations.md, "Watching it"), instead of joining, starting its members and being torn down again.
 * The REST server binds the port for real later; this check only makes the common mistake fail early.
 */
public final class RestPortCheck {

    private RestPortCheck() {
    }

    /**
     * Binds and releases {@code bind:port} ({@code port} 0 is always free).
     *
     * @throws IllegalStateException naming {@code rest.bind:rest.port} and the reason when it cannot be bound
     */
    public static void ensureFree(String bind, int port) {
        if (port == 0) {
            return;
        }
        try (ServerSocket socket = new ServerSocket()) {
            socket.setReuseAddress(true); // as the REST server binds it: a closed port in TIME_WAIT is free
            socket.bind(new InetSocketAddress(bind, port));
        } catch (IOException e) {
            throw new IllegalStateException(message(bind, port, e.getMessage()), e);
        }
    }

    /** The one line for a port that cannot be bound, shared with the REST server's own failure. */
    static String message(String bind, int port, String reason) {
        return "REST API cannot listen on rest.bind:rest.port " + bind + ":" + port + " (" + reason + "); every worker"
                + " on a host needs its own rest.port (and cluster.port)";
    }
}
