package io.shardline.runtime.store;

import io.shardline.runtime.redis.RedisClient;
import io.shardline.runtime.redis.RedisErrorKind;
import io.vertx.core.Future;
import io.vertx.redis.client.Command;
import io.vertx.redis.client.Request;
import io.vertx.redis.client.Response;
import java.io.IOException;
import java.io.InputStream;
import java.io.UncheckedIOException;
import java.nio.charset.StandardCharsets;
import java.security.MessageDigest;
import java.security.NoSuchAlgorithmException;
import java.util.HexFormat;
import java.util.List;
import java.util.function.Function;

/**
 * A Lua script called by {@code EVALSHA}, falling back to {@code EVAL} when the server does not know
 * it ({@code NOSCRIPT}, e.g. after a restart).
 *
 * <p>Immutable and thread-safe.
 *
 * @param source the Lua source
 * @param sha1 its SHA-1, as Redis computes it
 */
public record LuaScript(String source, String sha1) {

    /** A script from its source. */
    public static LuaScript of(String source) {
        try {
            byte[] digest = MessageDigest.getInstance("SHA-1").digest(source.getBytes(StandardCharsets.UTF_8));
            return new LuaScript(source, HexFormat.of().formatHex(digest));
        } catch (NoSuchAlgorithmException e) {
            throw new IllegalStateException("SHA-1 is required by every JVM", e);
        }
    }

    /**
     * A script from the class-path resource {@code name} next to {@code owner}.
     *
     * @throws IllegalStateException when the resource is missing
     */
    public static LuaScript ofResource(Class<?> owner, String name) {
        try (InputStream in = owner.getResourceAsStream(name)) {
            if (in == null) {
                throw new IllegalStateException(name + " is missing from the class path");
            }
            return of(new String(in.readAllBytes(), StandardCharsets.UTF_8));
        } catch (IOException e) {
            throw new UncheckedIOException(e);
        }
    }

    /** Runs the script with the given keys and arguments. */
    public Future<Response> call(RedisClient redis, List<String> keys, List<String> args) {
        return call(redis::send, keys, args);
    }

    /** Runs the script with the given keys and arguments, each command sent by {@code send}. */
    public Future<Response> call(Function<Request, Future<Response>> send, List<String> keys, List<String> args) {
        return send.apply(request(Command.EVALSHA, sha1, keys, args)).recover(e -> {
            if (RedisErrorKind.classify(e) == RedisErrorKind.NO_SCRIPT) {
                return send.apply(request(Command.EVAL, source, keys, args));
            }
            return Future.failedFuture(e);
        });
    }

    private static Request request(Command command, String script, List<String> keys, List<String> args) {
        Request request = Request.cmd(command).arg(script).arg(keys.size());
        keys.forEach(request::arg);
        args.forEach(request::arg);
        return request;
    }
}
