package io.shardline.runtime.rest;

import io.shardline.runtime.control.ControlPlaneException;
import io.shardline.runtime.rest.entity.ErrorMessage;
import io.vertx.core.http.HttpServerRequest;
import io.vertx.core.http.HttpServerResponse;
import io.vertx.core.json.DecodeException;
import io.vertx.core.json.Json;
import io.vertx.ext.web.RoutingContext;
import io.vertx.ext.web.handler.HttpException;
import java.util.concurrent.atomic.AtomicLong;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * The one mapping from failures to REST responses (Connect's {@code ConnectExceptionMapper}): every
 * error answer is {@code {"error_code": <status>, "message": "..."}} as {@code application/json}.
 * {@link ControlPlaneException} keeps its status and message; Vert.x Web's own failures (404 no route,
 * 405, 413 body too large, 401) get a fixed message; anything else is a 500 whose message carries only a
 * reference number, the stack trace going to the log. Stateless apart from the reference counter.
 */
public final class RestErrors {

    private static final Logger LOG = LoggerFactory.getLogger(RestErrors.class);
    private static final AtomicLong REFERENCES = new AtomicLong();

    private final long bodyLimit;

    /** A mapper naming {@code bodyLimit} (bytes) in 413 answers. */
    public RestErrors(long bodyLimit) {
        this.bodyLimit = bodyLimit;
    }

    /** Failure and error handler: answers the failure of {@code ctx} (unless a response was already sent). */
    public void handle(RoutingContext ctx) {
        HttpServerResponse response = ctx.response();
        if (response.headWritten()) {
            return;
        }
        ErrorMessage error = toMessage(ctx);
        response.setStatusCode(error.errorCode())
                .putHeader("Content-Type", "application/json")
                .end(Json.encode(error));
    }

    /**
     * Answers a request the HTTP layer could not decode (bad request line or URI, headers too large) with a
     * JSON error too, and closes the connection.
     */
    public static void invalidRequest(HttpServerRequest request) {
        Throwable cause = request.decoderResult() == null ? null : request.decoderResult().cause();
        ErrorMessage error;
        if (cause instanceof io.netty.handler.codec.http.TooLongHttpLineException) {
            error = new ErrorMessage(414, "request line too long");
        } else if (cause instanceof io.netty.handler.codec.http.TooLongHttpHeaderException) {
            error = new ErrorMessage(431, "request headers too large");
        } else {
            error = new ErrorMessage(400, "malformed HTTP request (request line, URI or headers)");
        }
        request.response().setStatusCode(error.errorCode())
                .putHeader("Content-Type", "application/json")
                .putHeader("Connection", "close")
                .end(Json.encode(error));
    }

    private ErrorMessage toMessage(RoutingContext ctx) {
        Throwable failure = ctx.failure();
        if (failure instanceof ControlPlaneException e) {
            return new ErrorMessage(e.status(), e.getMessage());
        }
        if (failure instanceof DecodeException) {
            return new ErrorMessage(400, "request body: not valid JSON");
        }
        if (!decodable(ctx.request().path())) {
            return new ErrorMessage(400, "malformed request path (a '%' must start an escape like %20)");
        }
        int status = failure instanceof HttpException e ? e.getStatusCode() : ctx.statusCode();
        if (status == 400 && failure instanceof io.vertx.core.VertxException) {
            return new ErrorMessage(400, "malformed request (path or Host header)");
        }
        if (failure == null || failure instanceof HttpException) {
            return switch (status) {
                case 400 -> new ErrorMessage(400, failure instanceof HttpException e && e.getPayload() != null
                        ? e.getPayload() : "bad request");
                case 401 -> new ErrorMessage(401, "missing or invalid bearer token");
                case 404 -> new ErrorMessage(404, "no such resource: " + ctx.request().method() + " " + path(ctx));
                case 405 -> new ErrorMessage(405, "method " + ctx.request().method() + " not allowed on "
                        + path(ctx));
                case 413 -> new ErrorMessage(413, "request body larger than " + bodyLimit + " bytes");
                default -> status >= 400 && status < 500 ? new ErrorMessage(status, "request rejected")
                        : internal(ctx, failure);
            };
        }
        return internal(ctx, failure);
    }

    private static boolean decodable(String path) {
        try {
            new java.net.URI(path == null ? "" : path);
            return true;
        } catch (java.net.URISyntaxException e) {
            return false;
        }
    }

    /** The request's normalized path, or its raw path when that cannot be decoded (e.g. {@code %zz}). */
    static String path(RoutingContext ctx) {
        try {
            return ctx.normalizedPath();
        } catch (RuntimeException e) {
            return ctx.request().path();
        }
    }

    private static ErrorMessage internal(RoutingContext ctx, Throwable failure) {
        long reference = REFERENCES.incrementAndGet();
        LOG.error("REST {} {} failed (reference {})", ctx.request().method(), path(ctx), reference, failure);
        return new ErrorMessage(500, "internal error (reference " + reference + "; the worker log has the details)");
    }
}
