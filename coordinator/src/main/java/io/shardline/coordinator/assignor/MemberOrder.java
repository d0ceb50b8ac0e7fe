package io.shardline.coordinator.assignor;

import io.shardline.api.assignor.GroupSpec;
import io.shardline.api.assignor.MemberSubscription;
import java.util.Arrays;
import java.util.Comparator;
import java.util.Optional;

/**
 * The member order of Kafka's range and round-robin assignors ({@code AbstractPartitionAssignor.MemberInfo}):
 * members with a static instance id first, sorted by instance id; then the others, sorted by member id.
 *
 * <p>Kafka leaves two members with the same instance id in input order (the broker never lets that happen);
 * we break that tie by member id so that the result never depends on input order. Thread-safe (stateless).
 */
public final class MemberOrder {

    /** Instance id (present first, ascending), then member id. */
    public static final Comparator<MemberSubscription> INSTANCE_ID_THEN_MEMBER_ID = MemberOrder::compare;

    private MemberOrder() {
    }

    /** The members of {@code group} in assignor order, as a fresh array. */
    public static MemberSubscription[] sorted(GroupSpec group) {
        MemberSubscription[] members = group.members().toArray(new MemberSubscription[0]);
        Arrays.sort(members, INSTANCE_ID_THEN_MEMBER_ID);
        return members;
    }

    /**
     * The member's rack as Kafka's assignors read it: absent when not given or empty.
     */
    public static Optional<String> rackOf(MemberSubscription member) {
        return member.rack().filter(r -> !r.isEmpty());
    }

    private static int compare(MemberSubscription a, MemberSubscription b) {
        Optional<String> ia = a.instanceId();
        Optional<String> ib = b.instanceId();
        if (ia.isPresent() && ib.isPresent()) {
            int c = ia.get().compareTo(ib.get());
            return c != 0 ? c : a.memberId().compareTo(b.memberId());
        } else if (ia.isPresent()) {
            return -1;
        } else if (ib.isPresent()) {
            return 1;
        }
        return a.memberId().compareTo(b.memberId());
    }
}
