package io.shardline.it;

import io.vertx.core.json.JsonArray;
import io.vertx.core.json.JsonObject;
import java.io.IOException;
import java.net.URI;
import java.net.http.HttpClient;
import java.net.http.HttpRequest;
import java.net.http.HttpResponse;
import java.time.Duration;

/** A blocking client of one worker's REST API (loopback), with or without the bearer token. */
final class RestClient {

    /** One answer. */
    record Reply(int status, String body) {
        JsonObject json() {
            return new JsonObject(body);
        }
    }

    private final HttpClient http = HttpClient.newBuilder().connectTimeout(Duration.ofSeconds(5)).build();
    private final int port;
    private final String token;

    RestClient(int port, String token) {
        this.port = port;
        this.token = token;
    }

    /** GET with the token, expecting 200 and a JSON object. */
    JsonObject get(String path) {
        Reply reply = call("GET", path, null, true);
        if (reply.status() != 200) {
            throw new AssertionError("GET " + path + " on port " + port + " answered " + reply.status() + ": "
                    + reply.body());
        }
        return reply.json();
    }

    /** GET with the token, expecting 200 and a JSON array. */
    JsonArray getArray(String path) {
        Reply reply = call("GET", path, null, true);
        if (reply.status() != 200) {
            throw new AssertionError("GET " + path + " answered " + reply.status() + ": " + reply.body());
        }
        return new JsonArray(reply.body());
    }

    /** Any request; a connection failure is an assertion error naming the request. */
    Reply call(String method, String path, JsonObject body, boolean withToken) {
        return call(method, path, body == null ? null : body.encode(), withToken,
                body == null ? java.util.Map.of() : java.util.Map.of("Content-Type", "application/json"));
    }

    /** A request with exactly {@code headers} (plus the token's when {@code withToken}). */
    Reply call(String method, String path, String body, boolean withToken, java.util.Map<String, String> headers) {
        HttpRequest.Builder b = HttpRequest.newBuilder(URI.create("http://127.0.0.1:" + port + path))
                .timeout(Duration.ofSeconds(20))
                .method(method, body == null ? HttpRequest.BodyPublishers.noBody()
                        : HttpRequest.BodyPublishers.ofString(body));
        headers.forEach(b::header);
        if (withToken) {
            b.header("Authorization", "Bearer " + token);
        }
        try {
            HttpResponse<String> r = http.send(b.build(), HttpResponse.BodyHandlers.ofString());
            return new Reply(r.statusCode(), r.body());
        } catch (IOException e) {
            throw new AssertionError(method + " " + path + " on port " + port + " failed: " + e, e);
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
            throw new IllegalStateException(e);
        }
    }
}
