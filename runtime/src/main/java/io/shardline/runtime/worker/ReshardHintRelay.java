package io.shardline.runtime.worker;

import io.shardline.runtime.listener.Listener;
import io.shardline.runtime.reshard.ReleaseHints;
import io.shardline.runtime.shard.MemberShards;
import java.util.List;
import java.util.Map;
import java.util.Objects;
import java.util.Set;
import java.util.function.Consumer;
import java.util.function.Supplier;

/**
 * Hands the leader's resharding hints ({@link ReleaseHints}) to this worker's members of the groups they name that
 * consume their stream: a release makes their shards waiting at the stream's cutover poll at once
 * ({@link MemberShards#barrierReleased}); a watch tells them which cutovers to report reaching
 * ({@link MemberShards#watchDrain}). Thread-safe: called on the event bus, it only posts to the members' contexts.
 */
final class ReshardHintRelay implements ReleaseHints.Members {

    private final Supplier<List<Listener>> listeners;

    /** A relay to {@code listeners} (the listeners running on this worker now). */
    ReshardHintRelay(Supplier<List<Listener>> listeners) {
        this.listeners = Objects.requireNonNull(listeners, "listeners");
    }

    @Override
    public void released(String stream, Set<String> groups) {
        each(stream, groups, m -> m.barrierReleased(stream));
    }

    @Override
    public void watch(String stream, String group, Map<Integer, String> cutovers) {
        each(stream, Set.of(group), m -> m.watchDrain(stream, cutovers));
    }

    private void each(String stream, Set<String> groups, Consumer<MemberShards> action) {
        for (Listener l : listeners.get()) {
            if (groups.contains(l.definition().config().group()) && l.definition().config().streams().stream()
                    .anyMatch(s -> s.name().equals(stream))) {
                l.members().forEach(action);
            }
        }
    }
}
