package io.shardline.runtime.rest;

import io.shardline.api.config.Password;
import io.shardline.runtime.worker.WorkerConfig;
import java.util.Objects;
import java.util.Optional;

/**
 * Where the REST server listens and which bearer tokens it accepts. Immutable; {@link #toString()} hides
 * the tokens.
 *
 * @param bind the address to bind ({@code 127.0.0.1} unless {@code rest.bind} says otherwise)
 * @param port the port (0 = any free port)
 * @param token the token every mutating request (and, when set, every read) must carry
 * @param readToken a token that is accepted for reads only
 * @param bodyLimit the largest accepted request body in bytes
 */
public record RestSettings(String bind, int port, Optional<Password> token, Optional<Password> readToken,
                           long bodyLimit) {

    /** The request body limit: 1 MiB. */
    public static final long BODY_LIMIT = 1024 * 1024;

    /**
     * Validates; a non-loopback address without a token is refused (anyone who could reach the port
     * could otherwise stop listeners).
     *
     * @throws IllegalArgumentException naming the setting to fix
     */
    public RestSettings {
        Objects.requireNonNull(bind, "bind");
        Objects.requireNonNull(token, "token");
        Objects.requireNonNull(readToken, "readToken");
        if (!WorkerConfig.isLoopback(bind) && token.isEmpty()) {
            throw new IllegalArgumentException(WorkerConfig.REST_BIND_CONFIG + " = " + bind + " is not a loopback "
                    + "address: set " + WorkerConfig.REST_AUTH_TOKEN_CONFIG + " too, or bind to 127.0.0.1");
        }
        if (readToken.isPresent() && token.isEmpty()) {
            throw new IllegalArgumentException(WorkerConfig.REST_AUTH_READ_TOKEN_CONFIG + " requires "
                    + WorkerConfig.REST_AUTH_TOKEN_CONFIG + " (otherwise writes would need no token at all)");
        }
        if (port < 0 || port > 65535) {
            throw new IllegalArgumentException(WorkerConfig.REST_PORT_CONFIG + " must be 0..65535, got " + port);
        }
    }

    /** Loopback, no token, the given port. */
    public static RestSettings loopback(int port) {
        return new RestSettings("127.0.0.1", port, Optional.empty(), Optional.empty(), BODY_LIMIT);
    }

    /** The settings of a worker. */
    public static RestSettings of(WorkerConfig config) {
        return new RestSettings(config.restBind(), config.restPort(), config.restAuthToken(),
                config.restAuthReadToken(), BODY_LIMIT);
    }

    @Override
    public String toString() {
        return "RestSettings[bind=" + bind + ", port=" + port + ", token=" + (token.isPresent() ? Password.HIDDEN : "none")
                + ", readToken=" + (readToken.isPresent() ? Password.HIDDEN : "none") + ", bodyLimit=" + bodyLimit + "]";
    }
}
