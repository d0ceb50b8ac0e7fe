package io.shardline.coordinator.assignor.testing;

import io.shardline.api.assignor.GroupAssignment;
import io.shardline.api.assignor.GroupSpec;
import io.shardline.api.assignor.MemberAssignment;
import io.shardline.api.assignor.MemberSubscription;
import io.shardline.api.assignor.ShardDescriber;
import io.shardline.api.assignor.ShardSet;
import io.shardline.api.assignor.StreamDescription;
import java.lang.reflect.Method;
import java.nio.ByteBuffer;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.Set;
import java.util.TreeMap;
import org.apache.kafka.clients.consumer.ConsumerPartitionAssignor;
import org.apache.kafka.clients.consumer.ConsumerPartitionAssignor.GroupSubscription;
import org.apache.kafka.clients.consumer.ConsumerPartitionAssignor.Subscription;
import org.apache.kafka.clients.consumer.StickyAssignor;
import org.apache.kafka.clients.consumer.internals.AbstractStickyAssignor.MemberData;
import org.apache.kafka.common.Cluster;
import org.apache.kafka.common.Node;
import org.apache.kafka.common.PartitionInfo;
import org.apache.kafka.common.TopicPartition;

/**
 * Runs Kafka's own client assignors on our problems: the oracle of the differential tests and the baseline of
 * the benchmarks. A stream is a topic, a shard a partition, a member id a consumer id, an instance id a
 * {@code group.instance.id}.
 *
 * <p>Shard racks become replica racks: there is one broker {@link Node} per rack, and shard {@code i}'s
 * replicas are the nodes of its racks (no replica, no rack information). A member's rack becomes the
 * subscription's {@code rackId}. Owned shards and the generation become the subscription's
 * {@code ownedPartitions} and {@code generationId} ({@link OwnedEncoding#FIELDS}, read by
 * {@code CooperativeStickyAssignor}) or the eager {@code StickyAssignor}'s user data
 * ({@link OwnedEncoding#STICKY_USER_DATA}). {@link #run} picks the right one for the assignor.
 * Thread-safe (stateless); Kafka's sticky assignors themselves keep state, so use a fresh one per call.
 */
public final class KafkaOracle {

    /** How previous ownership reaches Kafka's assignor. */
    public enum OwnedEncoding {
        /** Subscription fields {@code ownedPartitions} and {@code generationId} (protocol v2+). */
        FIELDS,
        /** The eager {@code StickyAssignor}'s user data (partitions and generation); fields left empty. */
        STICKY_USER_DATA
    }

    private KafkaOracle() {
    }

    /**
     * Runs {@code assignor} on the problem and converts its answer. An empty group gives an empty assignment
     * without calling Kafka (its round-robin assignor throws on an empty group).
     */
    public static GroupAssignment run(ConsumerPartitionAssignor assignor, GroupSpec group, ShardDescriber shards) {
        if (group.members().isEmpty()) {
            return GroupAssignment.of(Map.of());
        }
        OwnedEncoding encoding = assignor instanceof StickyAssignor ? OwnedEncoding.STICKY_USER_DATA : OwnedEncoding.FIELDS;
        ConsumerPartitionAssignor.GroupAssignment result =
                assignor.assign(cluster(shards), groupSubscription(group, encoding));
        return fromKafka(result, group);
    }

    /** Runs {@code assignor} on {@code problem}. */
    public static GroupAssignment run(ConsumerPartitionAssignor assignor, AssignmentProblem problem) {
        return run(assignor, problem.group(), problem.shards());
    }

    /** The Kafka cluster metadata for our streams: one node per rack, replicas on the shards' racks. */
    public static Cluster cluster(ShardDescriber shards) {
        Map<String, Node> nodesByRack = new TreeMap<>();
        for (StreamDescription s : shards.streams().values()) {
            for (Set<String> racks : s.racks()) {
                for (String rack : racks) {
                    nodesByRack.computeIfAbsent(rack, r -> new Node(nodesByRack.size(), "broker-" + r, 9092, r));
                }
            }
        }
        List<PartitionInfo> partitions = new ArrayList<>();
        for (StreamDescription s : shards.streams().values()) {
            for (int i = 0; i < s.shardCount(); i++) {
                Node[] replicas = s.racksOf(i).stream().sorted().map(nodesByRack::get).toArray(Node[]::new);
                partitions.add(new PartitionInfo(s.name(), i, replicas.length == 0 ? null : replicas[0],
                        replicas, replicas));
            }
        }
        return new Cluster("shardline-oracle", new ArrayList<>(nodesByRack.values()), partitions, Set.of(), Set.of());
    }

    /** The group subscription of our members. */
    public static GroupSubscription groupSubscription(GroupSpec group, OwnedEncoding encoding) {
        Map<String, Subscription> subscriptions = new HashMap<>();
        for (MemberSubscription m : group.members()) {
            subscriptions.put(m.memberId(), subscription(m, encoding));
        }
        return new GroupSubscription(subscriptions);
    }

    /** One member's subscription. */
    public static Subscription subscription(MemberSubscription member, OwnedEncoding encoding) {
        List<TopicPartition> owned = ownedPartitions(member);
        Subscription subscription;
        if (encoding == OwnedEncoding.FIELDS) {
            subscription = new Subscription(new ArrayList<>(member.subscriptions()), null, owned,
                    member.generation(), member.rack());
        } else {
            ByteBuffer userData = owned.isEmpty() && member.generation() < 0 ? null
                    : stickyUserData(owned, member.generation());
            subscription = new Subscription(new ArrayList<>(member.subscriptions()), userData, List.of(),
                    MemberSubscription.DEFAULT_GENERATION, member.rack());
        }
        subscription.setGroupInstanceId(member.instanceId());
        return subscription;
    }

    /** Kafka's answer as ours: every member of {@code group} appears, shard sets sorted. */
    public static GroupAssignment fromKafka(ConsumerPartitionAssignor.GroupAssignment result, GroupSpec group) {
        Map<String, MemberAssignment> members = new TreeMap<>();
        for (MemberSubscription m : group.members()) {
            members.put(m.memberId(), MemberAssignment.EMPTY);
        }
        result.groupAssignment().forEach((memberId, assignment) -> {
            Map<String, List<Integer>> byStream = new TreeMap<>();
            for (TopicPartition tp : assignment.partitions()) {
                byStream.computeIfAbsent(tp.topic(), t -> new ArrayList<>()).add(tp.partition());
            }
            Map<String, ShardSet> sets = new TreeMap<>();
            byStream.forEach((stream, list) -> sets.put(stream, ShardSet.of(list)));
            members.put(memberId, MemberAssignment.of(sets));
        });
        return GroupAssignment.of(members);
    }

    private static List<TopicPartition> ownedPartitions(MemberSubscription member) {
        List<TopicPartition> owned = new ArrayList<>();
        member.owned().forEach((stream, shards) -> shards.stream()
                .forEach(shard -> owned.add(new TopicPartition(stream, shard))));
        return owned;
    }

    /** The eager sticky assignor's user data; its encoder is package-private in Kafka ("visible for testing"). */
    private static ByteBuffer stickyUserData(List<TopicPartition> owned, int generation) {
        try {
            Method encode = StickyAssignor.class.getDeclaredMethod("serializeTopicPartitionAssignment", MemberData.class);
            encode.setAccessible(true);
            // the v1 schema requires a generation; DEFAULT_GENERATION (-1) reads back as "no generation"
            return (ByteBuffer) encode.invoke(null, new MemberData(owned, Optional.of(generation)));
        } catch (ReflectiveOperationException e) {
            throw new IllegalStateException("cannot encode StickyAssignor user data with this kafka-clients", e);
        }
    }
}
