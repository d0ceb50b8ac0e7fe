package io.shardline.runtime.cli;

import io.vertx.core.json.DecodeException;
import io.vertx.core.json.JsonObject;
import java.io.IOException;
import java.net.URI;
import java.net.http.HttpClient;
import java.net.http.HttpRequest;
import java.net.http.HttpResponse;
import java.time.Duration;
import java.util.Objects;

/**
 * The {@code bin/shardline} commands' client of one worker's REST API: JSON requests with the bearer token (every
 * write carries {@code Content-Type: application/json}), answers as text. A refusal becomes an {@link AdminException}
 * with the worker's message and the command's exit code for that status. Blocking (a command line tool); not
 * thread-safe.
 */
final class AdminClient {

    /** The request's outcome. */
    record Answer(int status, String body) {
    }

    private final HttpClient http;
    private final URI base;
    private final String token;
    private final Duration timeout;

    AdminClient(URI base, String token, Duration timeout) {
        this.base = Objects.requireNonNull(base, "base");
        this.token = token;
        this.timeout = Objects.requireNonNull(timeout, "timeout");
        this.http = HttpClient.newBuilder().connectTimeout(timeout).build();
    }

    /** GET {@code path}, expecting 200. */
    String get(String path) {
        return call("GET", path, null).body();
    }

    /** A write ({@code PUT}, {@code POST}, {@code PATCH}, {@code DELETE}) with an optional JSON body, expecting 2xx. */
    Answer write(String method, String path, JsonObject body) {
        return call(method, path, body);
    }

    private Answer call(String method, String path, JsonObject body) {
        URI uri = base.resolve(path.startsWith("/") ? path.substring(1) : path);
        HttpRequest.Builder b = HttpRequest.newBuilder(uri).timeout(timeout)
                .method(method, body == null ? HttpRequest.BodyPublishers.noBody()
                        : HttpRequest.BodyPublishers.ofString(body.encode()));
        if (!method.equals("GET")) {
            b.header("Content-Type", "application/json");
        }
        if (token != null && !token.isEmpty()) {
            b.header("Authorization", "Bearer " + token);
        }
        HttpResponse<String> response;
        try {
            response = http.send(b.build(), HttpResponse.BodyHandlers.ofString());
        } catch (IOException e) {
            throw new AdminException(ExitCodes.UNREACHABLE, "cannot reach the worker at " + base + " (" + method
                    + " " + path + "): " + (e.getMessage() == null ? e.getClass().getSimpleName() : e.getMessage())
                    + "; is it running, and is --url right?");
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
            throw new AdminException(ExitCodes.UNREACHABLE, "interrupted while waiting for " + base);
        }
        int status = response.statusCode();
        if (status >= 200 && status < 300) {
            return new Answer(status, response.body());
        }
        throw new AdminException(ExitCodes.forStatus(status), method + " " + path + " answered " + status + ": "
                + message(response.body()));
    }

    private static String message(String body) {
        try {
            String m = new JsonObject(body).getString("message");
            return m == null ? body : m;
        } catch (DecodeException | ClassCastException e) {
            return body == null || body.isBlank() ? "(no message)" : body.strip();
        }
    }
}
