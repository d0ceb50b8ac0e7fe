package io.shardline.runtime.reshard;

import io.vertx.core.Future;
import java.util.List;
import java.util.Objects;

/**
 * The groups on a stream as the leader's coordinator hosts them, what an operator paused of them, and the change of a
 * group's shard set.
 */
public interface GroupShardSets {

    /**
     * A group on a stream.
     *
     * @param group the group
     * @param shards the stream's shard count in the group's managed shard set
     * @param members its members (0: nobody reads its shards)
     * @param paused the group's listeners paused and their paused shards of the stream, sorted
     * @param owned how many of its {@code shards} a member holds as assigned, not revoking ({@code shards} once the
     *              group's rebalance settled)
     */
    record OnStream(String group, int shards, int members, List<Paused> paused, int owned) {

        /** Copies. */
        public OnStream {
            Objects.requireNonNull(group, "group");
            paused = List.copyOf(paused);
        }

        /** A group whose shards are all owned. */
        public OnStream(String group, int shards, int members, List<Paused> paused) {
            this(group, shards, members, paused, shards);
        }

        /** A group nothing of which is paused and whose shards are all owned. */
        public OnStream(String group, int shards, int members) {
            this(group, shards, members, List.of());
        }

        /** Whether members are still taking up its shard set: it has members and some shard has no owner yet. */
        public boolean takingUp() {
            return members > 0 && owned < shards;
        }
    }

    /**
     * A pause that keeps a group's members from reading ({@code PUT /listeners/{name}/pause}, or
     * {@code /listeners/{name}/shards/{stream}/{i}/pause}: docs/rest-api.yaml): a whole listener of the group ({@code shard} {@value #WHOLE_LISTENER}: its members keep their shards and read nothing) or one shard of
     * the stream paused for one listener.
     *
     * @param listener the listener paused
     * @param shard the shard index paused, or {@value #WHOLE_LISTENER}
     */
    record Paused(String listener, int shard) implements Comparable<Paused> {

        /** The shard of a whole listener's pause. */
        public static final int WHOLE_LISTENER = -1;

        /** Validates. */
        public Paused {
            Objects.requireNonNull(listener, "listener");
        }

        /** Whether the whole listener is paused. */
        public boolean whole() {
            return shard == WHOLE_LISTENER;
        }

        @Override
        public int compareTo(Paused o) {
            int c = listener.compareTo(o.listener);
            return c != 0 ? c : Integer.compare(shard, o.shard);
        }
    }

    /** Every group of the cluster that consumes {@code stream}. */
    Future<List<OnStream>> on(String stream);

    /** Sets {@code stream}'s count in {@code group}'s managed shard set (committed by the coordinator). */
    Future<Void> resize(String group, String stream, int shards, boolean rollback);
}
