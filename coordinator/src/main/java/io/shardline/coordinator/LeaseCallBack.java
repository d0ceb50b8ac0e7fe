package io.shardline.coordinator;

import io.shardline.coordinator.group.Group;
import io.shardline.coordinator.protocol.ErrorCode;
import io.shardline.coordinator.protocol.HeartbeatResponse;

/**
 * Calls a member back when another member's lease runs out before its next heartbeat would be due, so that the
 * shards the expired member held are handed out at once instead of up to a heartbeat interval later.
 *
 * <p>A successful answer normally tells the member to come back after the group's heartbeat interval. When the
 * earliest lease deadline of another member falls inside that interval, the answer names the time left until just
 * after that deadline instead; the member's heartbeat then arrives once the lease has run out, the heartbeat expires
 * the silent member ({@link GroupCoordinator#heartbeat}) and its answer carries the released shards. A live member
 * renews its lease every interval, so its deadline is always about a session timeout away: only members that have
 * been silent for almost a session timeout (a crashed, frozen or cut-off worker, a static reservation running out)
 * cause call-backs, and only for the last interval before they expire. Members use the interval of an answer only to
 * schedule their next heartbeat (their lease and their suspicion of an unanswering coordinator use the configured
 * interval), so a shorter one changes nothing else (docs/protocol.md section 4).
 */
final class LeaseCallBack {

    /** How long after the deadline the member is called back (the deadline itself still holds the lease). */
    static final int AFTER_DEADLINE_MS = 1;

    private LeaseCallBack() {
    }

    /** {@code answer}, with a shorter heartbeat interval when another member's lease runs out before it is due. */
    static HeartbeatResponse apply(Group group, long nowMs, HeartbeatResponse answer) {
        if (answer.error() != ErrorCode.NONE) {
            return answer;
        }
        long earliest = Long.MAX_VALUE;
        for (String memberId : group.members().keySet()) {
            Long deadline = group.leaseDeadline(memberId);
            if (deadline != null && !memberId.equals(answer.memberId())) {
                earliest = Math.min(earliest, deadline);
            }
        }
        if (earliest == Long.MAX_VALUE || earliest - nowMs + AFTER_DEADLINE_MS >= answer.heartbeatIntervalMs()) {
            return answer;
        }
        int wait = (int) Math.max(AFTER_DEADLINE_MS, earliest - nowMs + AFTER_DEADLINE_MS);
        return answer.withHeartbeatIntervalMs(wait);
    }
}
