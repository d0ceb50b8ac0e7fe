package io.shardline.coordinator.assignment;

import io.shardline.api.handler.ShardId;
import io.shardline.coordinator.group.Member;
import io.shardline.coordinator.group.MemberState;
import io.shardline.coordinator.group.ShardOwner;
import io.shardline.coordinator.protocol.RevokeReport;
import io.shardline.coordinator.protocol.RevokeState;
import java.util.Collections;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.Objects;
import java.util.Set;
import java.util.SortedSet;
import java.util.TreeMap;
import java.util.TreeSet;
import java.util.function.Function;

/**
 * Moves one member's current assignment one step towards its target, revoke-before-assign (docs/protocol.md, section 5):
 *
 * <ol>
 *   <li>shards of {@code assigned} no longer in the target move to {@code revoking} (step 1; the member sees them
 *       missing in its next answer, step 2, and drains them, step 3);</li>
 *   <li>with an ownership report under the member's current epoch, a revoking shard reported {@code REVOKED}, or
 *       no longer reported at all, is released (steps 4–5);</li>
 *   <li>only when nothing is left to revoke, target shards that are free get granted with the next owner epoch
 *       and the member epoch grows by one (step 6; the member starts them and reports them owned, step 7). A
 *       shard still held by another member stays pending.</li>
 * </ol>
 *
 * <p>The state follows from the sets: revoking not empty is {@code UNREVOKED_SHARDS}, pending not empty is
 * {@code UNRELEASED_SHARDS}, else {@code STABLE}. Pure: same input, same output; no clock, no side effects.
 */
public final class CurrentAssignmentBuilder {

    private final Member member;
    private SortedSet<ShardId> target = Collections.emptySortedSet();
    private Function<ShardId, ShardOwner> owners = s -> ShardOwner.NEVER_OWNED;
    private boolean reported;
    private Set<ShardId> owned;
    private Map<ShardId, RevokeState> revokeReports = Map.of();
    private boolean grantsAllowed = true;

    /** A step for {@code member}. */
    public CurrentAssignmentBuilder(Member member) {
        this.member = Objects.requireNonNull(member, "member");
    }

    /** The member's target shards. */
    public CurrentAssignmentBuilder withTarget(SortedSet<ShardId> value) {
        this.target = Objects.requireNonNull(value, "target");
        return this;
    }

    /** The shard owner table of the group. */
    public CurrentAssignmentBuilder withOwners(Function<ShardId, ShardOwner> value) {
        this.owners = Objects.requireNonNull(value, "owners");
        return this;
    }

    /**
     * The member's report, sent under its CURRENT epoch (only such a report may release shards: every request
     * under that epoch was sent after the member learnt every shard it holds).
     *
     * @param ownedNow the shards the member owns, or null when not known (a delta request the coordinator cannot
     *     read, docs/protocol.md section 2): then only a {@code REVOKED} report releases a shard, never its absence
     */
    public CurrentAssignmentBuilder withOwnershipReport(Set<ShardId> ownedNow, List<RevokeReport> revoking) {
        this.reported = true;
        this.owned = ownedNow;
        HashMap<ShardId, RevokeState> reports = new HashMap<>();
        for (RevokeReport r : revoking) {
            reports.put(r.shard(), r.state());
        }
        this.revokeReports = reports;
        return this;
    }

    /** False while the group waits at the eager barrier: nothing is granted. */
    public CurrentAssignmentBuilder withGrantsAllowed(boolean value) {
        this.grantsAllowed = value;
        return this;
    }

    /** Computes the step. */
    public Reconciliation build() {
        if (member.state() == MemberState.LEFT_STATIC || isSettled()) {
            return Reconciliation.unchanged(member);
        }
        TreeMap<ShardId, Integer> assigned = new TreeMap<>(member.assigned());
        TreeSet<ShardId> revoking = new TreeSet<>(member.revoking());
        TreeMap<ShardId, Integer> released = new TreeMap<>();
        if (reported) {
            for (ShardId s : member.revoking()) {
                RevokeState state = revokeReports.get(s);
                if (state == RevokeState.REVOKED || (state == null && owned != null && !owned.contains(s))) {
                    revoking.remove(s);
                    released.put(s, owners.apply(s).ownerEpoch());
                }
            }
        }
        TreeSet<ShardId> newlyRevoking = new TreeSet<>();
        for (ShardId s : member.assigned().keySet()) {
            if (!target.contains(s)) {
                assigned.remove(s);
                revoking.add(s);
                newlyRevoking.add(s);
            }
        }
        TreeMap<ShardId, Integer> granted = new TreeMap<>();
        if (revoking.isEmpty() && grantsAllowed) {
            for (ShardId s : target) {
                if (!assigned.containsKey(s)) {
                    ShardOwner o = owners.apply(s);
                    boolean free = o.isFree() || (released.containsKey(s) && member.memberId().equals(o.memberId()));
                    if (free) {
                        granted.put(s, o.ownerEpoch() + 1);
                    }
                }
            }
            assigned.putAll(granted);
        }
        Member.Builder next = new Member.Builder(member)
                .setAssigned(assigned)
                .setRevoking(revoking)
                .setState(stateOf(revoking, assigned));
        if (!granted.isEmpty()) {
            next.updateMemberEpoch(member.memberEpoch() + 1);
        }
        return new Reconciliation(next.build(), released, granted, newlyRevoking);
    }

    private MemberState stateOf(SortedSet<ShardId> revoking, Map<ShardId, Integer> assigned) {
        if (!revoking.isEmpty()) {
            return MemberState.UNREVOKED_SHARDS;
        }
        for (ShardId s : target) {
            if (!assigned.containsKey(s)) {
                return MemberState.UNRELEASED_SHARDS;
            }
        }
        return MemberState.STABLE;
    }

    /** The fast path of a steady heartbeat: nothing revoking and assigned = target. */
    private boolean isSettled() {
        if (member.state() != MemberState.STABLE || !member.revoking().isEmpty()
                || member.assigned().size() != target.size()) {
            return false;
        }
        for (ShardId s : target) {
            if (!member.assigned().containsKey(s)) {
                return false;
            }
        }
        return true;
    }
}
