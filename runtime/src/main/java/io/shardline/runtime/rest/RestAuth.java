package io.shardline.runtime.rest;

import io.shardline.api.config.Password;
import io.vertx.core.Handler;
import io.vertx.core.http.HttpMethod;
import io.vertx.ext.web.RoutingContext;
import java.nio.charset.StandardCharsets;
import java.security.MessageDigest;
import java.security.NoSuchAlgorithmException;
import java.util.Optional;

/**
 * Bearer-token authentication of REST requests. Without a configured token (loopback only) every request
 * passes. With {@code rest.auth.token}: every request except {@code GET /health} must carry
 * {@code Authorization: Bearer <token>}, else 401; reads ({@code GET}, {@code HEAD}) also accept
 * {@code rest.auth.read.token}, which answers 403 on writes. Tokens are compared in constant time
 * ({@link MessageDigest#isEqual} over SHA-256 digests, so not even the length leaks) and never logged.
 * Thread-safe.
 */
public final class RestAuth implements Handler<RoutingContext> {

    private static final String PREFIX = "Bearer ";

    private final byte[] token;
    private final byte[] readToken;

    /** Authentication with the tokens of {@code settings}. */
    public RestAuth(RestSettings settings) {
        this.token = digest(settings.token());
        this.readToken = digest(settings.readToken());
    }

    @Override
    public void handle(RoutingContext ctx) {
        if (token == null || isHealth(ctx)) {
            ctx.next();
            return;
        }
        byte[] presented = presented(ctx);
        boolean read = ctx.request().method() == HttpMethod.GET || ctx.request().method() == HttpMethod.HEAD;
        if (presented != null && MessageDigest.isEqual(presented, token)) {
            ctx.next();
        } else if (presented != null && readToken != null && MessageDigest.isEqual(presented, readToken)) {
            if (read) {
                ctx.next();
            } else {
                ctx.fail(ControlPlaneException.forbidden());
            }
        } else {
            ctx.response().putHeader("WWW-Authenticate", "Bearer realm=\"shardline\"");
            ctx.fail(new ControlPlaneException(401, "missing or invalid bearer token: send 'Authorization: Bearer "
                    + "<token>' with the value of rest.auth.token"
                    + (readToken != null ? " (or rest.auth.read.token for reads)" : "")));
        }
    }

    private static boolean isHealth(RoutingContext ctx) {
        return ctx.request().method() == HttpMethod.GET && "/health".equals(ctx.normalizedPath());
    }

    private static byte[] presented(RoutingContext ctx) {
        String header = ctx.request().getHeader("Authorization");
        if (header == null || !header.regionMatches(true, 0, PREFIX, 0, PREFIX.length())) {
            return null;
        }
        return sha256(header.substring(PREFIX.length()).trim());
    }

    private static byte[] digest(Optional<Password> password) {
        return password.map(p -> sha256(p.value())).orElse(null);
    }

    private static byte[] sha256(String text) {
        try {
            return MessageDigest.getInstance("SHA-256").digest(text.getBytes(StandardCharsets.UTF_8));
        } catch (NoSuchAlgorithmException e) {
            throw new IllegalStateException("SHA-256 is missing from this JVM", e);
        }
    }
}
