package io.shardline.it;

import io.shardline.api.handler.ShardId;
import io.shardline.testkit.redis.RedisServer;
import io.shardline.testkit.redis.RespProbe;
import java.io.IOException;
import java.io.UncheckedIOException;
import java.time.Duration;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.TreeMap;
import java.util.function.Predicate;

/**
 * What Redis says about a listener's shards: owners (owner hash per group), the entry the group was last
 * delivered (XINFO GROUPS), and whether everything produced was handled. Waits poll with a deadline.
 */
final class ClusterProbe {

    /** A shard's owner hash: member id and owner epoch. */
    record Owner(String member, long epoch) {
    }

    private final RedisNodes redis;

    ClusterProbe(RedisServer redis) {
        this(RedisNodes.of(redis));
    }

    /** A probe of shards that may live on different nodes (a Redis Cluster). */
    ClusterProbe(RedisNodes redis) {
        this.redis = redis;
    }

    /** The worker id of a member ({@code <worker>-<listener>-m<i>}, worker ids without '-'). */
    static String workerOf(Owner owner) {
        return owner.member().substring(0, owner.member().indexOf('-'));
    }

    /** Owners of the shards of {@code stream} in the group of the same name, by shard index. */
    Map<Integer, Owner> owners(String stream, int shards) {
        Map<Integer, Owner> out = new TreeMap<>();
        for (int i = 0; i < shards; i++) {
            String key = new ShardId(stream, i).ownerKey(stream);
            try (RespProbe probe = redis.probeFor(key)) {
                List<?> fields = (List<?>) probe.call("HMGET", key, "owner", "epoch");
                if (fields.get(0) != null) {
                    out.put(i, new Owner(String.valueOf(fields.get(0)), Long.parseLong(String.valueOf(fields.get(1)))));
                }
            } catch (IOException e) {
                throw new UncheckedIOException(e);
            }
        }
        return out;
    }

    /** Waits until every shard has an owner and {@code condition} holds. */
    Map<Integer, Owner> awaitOwners(String stream, int shards, Predicate<Map<Integer, Owner>> condition,
                                    Duration timeout, String what) {
        long end = System.nanoTime() + timeout.toNanos();
        Map<Integer, Owner> last = Map.of();
        while (System.nanoTime() < end) {
            last = owners(stream, shards);
            if (last.size() == shards && condition.test(last)) {
                return last;
            }
            WorkerProcess.pause(50);
        }
        throw new AssertionError("timed out after " + timeout + " waiting for " + what + "; owners " + last);
    }

    /** Per shard, the millisecond part of the id of the entry last delivered to {@code group} (0 when none). */
    Map<Integer, Long> lastDeliveredMs(String stream, String group, int shards) {
        Map<Integer, Long> out = new TreeMap<>();
        for (int i = 0; i < shards; i++) {
            out.put(i, idMs(groupInfo(stream, group, i).get("last-delivered-id")));
        }
        return out;
    }

    /** Waits until each shard in {@code which} was delivered an entry produced after {@code afterMs}. */
    void awaitDeliveredAfter(String stream, String group, int shards, Set<Integer> which, long afterMs,
                             Duration timeout) {
        long end = System.nanoTime() + timeout.toNanos();
        Map<Integer, Long> last = Map.of();
        while (System.nanoTime() < end) {
            last = lastDeliveredMs(stream, group, shards);
            Map<Integer, Long> seen = last;
            if (which.stream().allMatch(i -> seen.get(i) > afterMs)) {
                return;
            }
            WorkerProcess.pause(50);
        }
        throw new AssertionError("timed out after " + timeout + " waiting for shards " + which + " of " + stream
                + " to read past " + afterMs + "; last delivered " + last);
    }

    /**
     * Waits until every entry of every shard was delivered to {@code group} and acknowledged; a shard whose group
     * does not exist (yet, e.g. after its Redis node restarted empty) is not drained.
     */
    void awaitDrained(String stream, String group, int shards, Duration timeout) {
        long end = System.nanoTime() + timeout.toNanos();
        String state = "";
        while (System.nanoTime() < end) {
            boolean drained = true;
            StringBuilder s = new StringBuilder();
            for (int i = 0; i < shards; i++) {
                Map<String, Object> info = findGroupInfo(stream, group, i).orElse(Map.of());
                String lastId = lastEntryId(stream, i);
                s.append(i).append(": delivered ").append(info.get("last-delivered-id")).append(" of ").append(lastId)
                        .append(", pending ").append(info.get("pending")).append("; ");
                drained &= lastId.equals(info.get("last-delivered-id")) && Long.valueOf(0).equals(info.get("pending"));
            }
            state = s.toString();
            if (drained) {
                return;
            }
            WorkerProcess.pause(100);
        }
        throw new AssertionError("timed out after " + timeout + " waiting for " + stream + " to be handled: " + state);
    }

    private String lastEntryId(String stream, int shard) {
        String key = new ShardId(stream, shard).key();
        try (RespProbe probe = redis.probeFor(key)) {
            List<?> entries = (List<?>) probe.call("XREVRANGE", key, "+", "-", "COUNT", "1");
            return entries.isEmpty() ? "0-0" : String.valueOf(((List<?>) entries.get(0)).get(0));
        } catch (IOException e) {
            throw new UncheckedIOException(e);
        }
    }

    private Map<String, Object> groupInfo(String stream, String group, int shard) {
        return findGroupInfo(stream, group, shard).orElseThrow(() ->
                new AssertionError("stream " + new ShardId(stream, shard).key() + " has no group " + group));
    }

    private java.util.Optional<Map<String, Object>> findGroupInfo(String stream, String group, int shard) {
        String key = new ShardId(stream, shard).key();
        try (RespProbe probe = redis.probeFor(key)) {
            for (Object g : (List<?>) probe.call("XINFO", "GROUPS", key)) {
                List<?> flat = (List<?>) g;
                Map<String, Object> fields = new TreeMap<>();
                for (int i = 0; i + 1 < flat.size(); i += 2) {
                    fields.put(String.valueOf(flat.get(i)), flat.get(i + 1));
                }
                if (group.equals(fields.get("name"))) {
                    return java.util.Optional.of(fields);
                }
            }
        } catch (RespProbe.RedisErrorReply e) {
            if (!String.valueOf(e.getMessage()).startsWith("ERR no such key")) {
                throw new UncheckedIOException(e);
            }
        } catch (IOException e) {
            throw new UncheckedIOException(e);
        }
        return java.util.Optional.empty();
    }

    static long idMs(Object id) {
        String s = String.valueOf(id);
        return Long.parseLong(s.substring(0, s.indexOf('-')));
    }
}
