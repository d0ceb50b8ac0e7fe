package io.shardline.runtime.shard;

import io.vertx.core.Future;
import io.vertx.core.Handler;
import io.vertx.redis.client.RedisConnection;
import io.vertx.redis.client.Request;
import io.vertx.redis.client.Response;
import java.util.List;
import java.util.Objects;

/**
 * A {@link RedisConnection} that forwards every call to another; tests override {@link #send} or
 * {@link #batch} to inject an event at a chosen command or to look at replies.
 */
class ForwardingConnection implements RedisConnection {

    protected final RedisConnection delegate;

    ForwardingConnection(RedisConnection delegate) {
        this.delegate = Objects.requireNonNull(delegate, "delegate");
    }

    @Override
    public Future<Response> send(Request request) {
        return delegate.send(request);
    }

    @Override
    public Future<List<Response>> batch(List<Request> requests) {
        return delegate.batch(requests);
    }

    @Override
    public Future<Void> close() {
        return delegate.close();
    }

    @Override
    public boolean pendingQueueFull() {
        return delegate.pendingQueueFull();
    }

    @Override
    public RedisConnection exceptionHandler(Handler<Throwable> handler) {
        delegate.exceptionHandler(handler);
        return this;
    }

    @Override
    public RedisConnection handler(Handler<Response> handler) {
        delegate.handler(handler);
        return this;
    }

    @Override
    public RedisConnection pause() {
        delegate.pause();
        return this;
    }

    @Override
    public RedisConnection resume() {
        delegate.resume();
        return this;
    }

    @Override
    public RedisConnection fetch(long amount) {
        delegate.fetch(amount);
        return this;
    }

    @Override
    public RedisConnection endHandler(Handler<Void> handler) {
        delegate.endHandler(handler);
        return this;
    }
}
