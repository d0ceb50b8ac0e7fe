package io.shardline.runtime.plugin;

import io.shardline.api.handler.AsyncHandler;
import io.shardline.api.handler.Handler;
import io.shardline.api.handler.HandlerContext;
import io.shardline.api.handler.ShardContext;
import io.shardline.api.handler.StreamRecord;
import io.shardline.api.handler.SyncHandler;
import java.util.List;
import java.util.Objects;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.CompletionStage;

/**
 * One handler instance together with its plugin's class loader: every method swaps the thread context
 * class loader to the plugin's for the length of the call ({@link LoaderSwap}), so the rest of the
 * runtime never calls plugin code directly. Thread-safety is that of the handler (see {@link Handler}).
 */
public final class HandlerPlugin {

    private final PluginDesc desc;
    private final Handler handler;

    /** Wraps {@code handler}, an instance of {@code desc}'s class. */
    public HandlerPlugin(PluginDesc desc, Handler handler) {
        this.desc = Objects.requireNonNull(desc, "desc");
        this.handler = Objects.requireNonNull(handler, "handler");
    }

    /** Where the handler class came from. */
    public PluginDesc desc() {
        return desc;
    }

    /** True for an {@link AsyncHandler}. */
    public boolean isAsync() {
        return handler instanceof AsyncHandler;
    }

    /** Calls {@link Handler#start(HandlerContext)} under the plugin's loader. */
    public void start(HandlerContext context) throws Exception {
        try (LoaderSwap swap = LoaderSwap.swap(desc.loader())) {
            handler.start(context);
        }
    }

    /** Calls {@link Handler#stop()} under the plugin's loader. */
    public void stop() throws Exception {
        try (LoaderSwap swap = LoaderSwap.swap(desc.loader())) {
            handler.stop();
        }
    }

    /** Calls {@link Handler#onAssigned(ShardContext)} under the plugin's loader. */
    public void onAssigned(ShardContext shard) throws Exception {
        try (LoaderSwap swap = LoaderSwap.swap(desc.loader())) {
            handler.onAssigned(shard);
        }
    }

    /** Calls {@link Handler#onRevoked(ShardContext)} under the plugin's loader. */
    public void onRevoked(ShardContext shard) throws Exception {
        try (LoaderSwap swap = LoaderSwap.swap(desc.loader())) {
            handler.onRevoked(shard);
        }
    }

    /**
     * Runs one batch: a {@link SyncHandler} runs to completion on the calling thread (which must be a
     * worker thread), an {@link AsyncHandler} returns its stage. Both under the plugin's loader; a throw
     * becomes a failed stage.
     */
    public CompletionStage<Void> handleBatch(List<StreamRecord> records, ShardContext shard) {
        try (LoaderSwap swap = LoaderSwap.swap(desc.loader())) {
            if (handler instanceof AsyncHandler async) {
                CompletionStage<Void> stage = async.handleBatch(records, shard);
                return stage == null ? CompletableFuture.failedFuture(new NullPointerException(
                        desc.className() + ".handleBatch returned null")) : stage;
            }
            ((SyncHandler) handler).handleBatch(records, shard);
            return CompletableFuture.completedFuture(null);
        } catch (Exception | LinkageError | AssertionError e) {
            return CompletableFuture.failedFuture(e);
        }
    }

    /** The handler instance, for checks in tests; call it only through this class. */
    Handler handler() {
        return handler;
    }

    @Override
    public String toString() {
        return desc.alias() + "@" + desc.location();
    }
}
