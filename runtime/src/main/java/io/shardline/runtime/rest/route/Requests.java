package io.shardline.runtime.rest.route;

import io.shardline.runtime.rest.ControlPlaneException;
import io.vertx.core.Future;
import io.vertx.core.json.DecodeException;
import io.vertx.core.json.JsonObject;
import io.vertx.ext.web.RoutingContext;
import java.util.Map;
import java.util.TreeMap;

/**
 * Reading requests: JSON bodies, string maps and query flags, with 400 errors that name the bad field.
 * Stateless.
 */
final class Requests {

    private Requests() {
    }

    /** The body as a JSON object. */
    static JsonObject jsonBody(RoutingContext ctx) {
        String text = ctx.body() == null ? null : ctx.body().asString();
        if (text == null || text.isBlank()) {
            throw ControlPlaneException.badRequest("request body: a JSON object is required");
        }
        try {
            return new JsonObject(text);
        } catch (DecodeException | ClassCastException e) {
            throw ControlPlaneException.badRequest("request body: not a JSON object (" + firstLine(e.getMessage()) + ")");
        }
    }

    /** {@code object.field} as a map of strings (numbers and booleans are accepted as their text). */
    static Map<String, String> stringMap(JsonObject object, String field) {
        Object value = object.getValue(field);
        if (value == null) {
            throw ControlPlaneException.badRequest(field + ": required (a JSON object of strings)");
        }
        if (!(value instanceof JsonObject json)) {
            throw ControlPlaneException.badRequest(field + ": must be a JSON object of strings");
        }
        return strings(json, field + ".");
    }

    /** A JSON object of strings, errors prefixed with {@code path}. */
    static Map<String, String> strings(JsonObject json, String path) {
        Map<String, String> out = new TreeMap<>();
        for (Map.Entry<String, Object> e : json) {
            Object v = e.getValue();
            if (v instanceof String || v instanceof Number || v instanceof Boolean) {
                out.put(e.getKey(), String.valueOf(v));
            } else {
                throw ControlPlaneException.badRequest(path + e.getKey() + ": must be a string, got "
                        + (v == null ? "null" : v instanceof JsonObject ? "an object" : "an array"));
            }
        }
        return out;
    }

    /** A {@code true}/{@code false} query parameter, {@code false} when absent. */
    static boolean flag(RoutingContext ctx, String name) {
        String value = ctx.queryParams().get(name);
        if (value == null) {
            return false;
        }
        if (value.isEmpty() || value.equalsIgnoreCase("true")) {
            return true;
        }
        if (value.equalsIgnoreCase("false")) {
            return false;
        }
        throw ControlPlaneException.badRequest("query parameter " + name + ": must be true or false, got '" + value + "'");
    }

    /** An integer query parameter within {@code [min, max]}, {@code fallback} when absent. */
    static int intParam(RoutingContext ctx, String name, int fallback, int min, int max) {
        String value = ctx.queryParams().get(name);
        if (value == null) {
            return fallback;
        }
        try {
            int parsed = Integer.parseInt(value.trim());
            if (parsed >= min && parsed <= max) {
                return parsed;
            }
        } catch (NumberFormatException e) {
            // reported below
        }
        throw ControlPlaneException.badRequest("query parameter " + name + ": must be an integer in " + min + ".."
                + max + ", got '" + value + "'");
    }

    /** A path parameter parsed as a shard index. */
    static int shardIndex(RoutingContext ctx) {
        String value = ctx.pathParam("shard");
        try {
            int index = Integer.parseInt(value);
            if (index >= 0) {
                return index;
            }
        } catch (NumberFormatException e) {
            // reported below
        }
        throw ControlPlaneException.badRequest("shard: must be a shard index (an integer >= 0), got '" + value + "'");
    }

    /** Runs {@code action}, turning a synchronous throw into a failed future. */
    static <T> Future<T> guarded(java.util.function.Supplier<Future<T>> action) {
        try {
            return action.get();
        } catch (RuntimeException e) {
            return Future.failedFuture(e);
        }
    }

    /** Answers {@code status} with no body once {@code action} succeeds (fails the context otherwise). */
    static void noContent(RoutingContext ctx, int status, Future<?> action) {
        action.onSuccess(v -> ctx.response().setStatusCode(status).end()).onFailure(ctx::fail);
    }

    private static String firstLine(String message) {
        if (message == null) {
            return "malformed";
        }
        int nl = message.indexOf('\n');
        return nl < 0 ? message : message.substring(0, nl);
    }
}
