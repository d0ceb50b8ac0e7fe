package io.shardline.runtime.rest;

import io.shardline.api.config.Password;
import io.shardline.runtime.config.WorkerConfig;
import java.nio.file.Path;
import java.util.Objects;
import java.util.Optional;

/**
 * Where the REST server listens, over HTTP or HTTPS, and which bearer tokens it accepts. Immutable;
 * {@link #toString()} hides the tokens.
 *
 * @param bind the address to bind ({@code 127.0.0.1} unless {@code rest.bind} says otherwise)
 * @param port the port (0 = any free port)
 * @param token the token every request but {@code GET /health} must carry; empty only for a loopback API
 *     that is open on purpose ({@code rest.auth.loopback.open}, or tests)
 * @param readToken a token that is accepted for reads only
 * @param bodyLimit the largest accepted request body in bytes
 * @param tokenFile the file the token was generated into, when it was ({@code rest.auth.token} unset)
 * @param tls the PEM key and certificate of HTTPS, when the API serves HTTPS
 */
public record RestSettings(String bind, int port, Optional<Password> token, Optional<Password> readToken,
                           long bodyLimit, Optional<Path> tokenFile, Optional<Tls> tls) {

    /** The request body limit: 1 MiB. */
    public static final long BODY_LIMIT = 1024 * 1024;

    /**
     * The PEM files of HTTPS.
     *
     * @param key the private key (PKCS#8 or PKCS#1)
     * @param cert the certificate chain
     */
    public record Tls(Path key, Path cert) {
        /** Validates. */
        public Tls {
            Objects.requireNonNull(key, "key");
            Objects.requireNonNull(cert, "cert");
        }
    }

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
        Objects.requireNonNull(tokenFile, "tokenFile");
        Objects.requireNonNull(tls, "tls");
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

    /** Settings over HTTP with the given tokens and no token file. */
    public RestSettings(String bind, int port, Optional<Password> token, Optional<Password> readToken, long bodyLimit) {
        this(bind, port, token, readToken, bodyLimit, Optional.empty(), Optional.empty());
    }

    /** Loopback, no token (open), the given port. */
    public static RestSettings loopback(int port) {
        return new RestSettings("127.0.0.1", port, Optional.empty(), Optional.empty(), BODY_LIMIT);
    }

    /**
     * The settings of a worker. Without {@code rest.auth.token} (and unless {@code rest.auth.loopback.open}),
     * the token of {@link WorkerConfig#restAuthTokenFile()}, generated there on the first start.
     *
     * @throws IllegalStateException when the token file cannot be written or is readable by others
     */
    public static RestSettings of(WorkerConfig config) {
        Optional<Password> token = config.restAuthToken();
        Optional<Path> tokenFile = Optional.empty();
        if (token.isEmpty() && !config.restAuthLoopbackOpen()) {
            tokenFile = Optional.of(config.restAuthTokenFile());
            token = Optional.of(RestTokenFile.loadOrCreate(tokenFile.get()));
        }
        Optional<Tls> tls = config.restTlsKey().flatMap(key -> config.restTlsCert().map(cert -> new Tls(key, cert)));
        return new RestSettings(config.restBind(), config.restPort(), token, config.restAuthReadToken(), BODY_LIMIT,
                tokenFile, tls);
    }

    /** {@code https} or {@code http}. */
    public String scheme() {
        return tls.isPresent() ? "https" : "http";
    }

    /** How the API authenticates, for the start line: never the token itself. */
    public String authDescription() {
        if (token.isEmpty()) {
            return "loopback, no token (" + WorkerConfig.REST_AUTH_LOOPBACK_OPEN_CONFIG + ")";
        }
        return tokenFile.map(f -> "bearer token required, generated in " + f)
                .orElse("bearer token required (" + WorkerConfig.REST_AUTH_TOKEN_CONFIG + ")");
    }

    @Override
    public String toString() {
        return "RestSettings[bind=" + bind + ", port=" + port + ", token=" + (token.isPresent() ? Password.HIDDEN : "none")
                + ", readToken=" + (readToken.isPresent() ? Password.HIDDEN : "none") + ", bodyLimit=" + bodyLimit
                + ", tokenFile=" + tokenFile.map(Path::toString).orElse("none") + ", tls=" + tls.isPresent() + "]";
    }
}
