package io.shardline.api.assignor;

import java.util.HashSet;
import java.util.List;
import java.util.Objects;
import java.util.Set;

/**
 * The members of a group as an assignor sees them. Immutable and thread-safe.
 *
 * @param members the members, in no particular order (assignors order them as their algorithm says),
 *     with distinct member ids
 */
public record GroupSpec(List<MemberSubscription> members) {

    /** Validates (distinct member ids) and copies. */
    public GroupSpec {
        members = List.copyOf(members);
        Set<String> seen = new HashSet<>();
        for (MemberSubscription m : members) {
            if (!seen.add(m.memberId())) {
                throw new IllegalArgumentException("duplicate member id '" + m.memberId() + "'");
            }
        }
    }

    /** A group of the given members. */
    public static GroupSpec of(MemberSubscription... members) {
        return new GroupSpec(List.of(members));
    }

    /** Convenience: the member with {@code memberId}, or null. */
    public MemberSubscription member(String memberId) {
        Objects.requireNonNull(memberId, "memberId");
        for (MemberSubscription m : members) {
            if (m.memberId().equals(memberId)) {
                return m;
            }
        }
        return null;
    }
}
