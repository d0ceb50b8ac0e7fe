package io.shardline.runtime.control;

import io.shardline.runtime.rest.entity.MemberStatus;
import java.util.List;

/**
 * The members of a listener gathered from every live worker, and the workers that did not answer in time
 * (their members are missing; the status says so instead of failing). Immutable.
 *
 * @param members the members, any order
 * @param unanswered ids of the workers that did not answer, sorted
 */
public record MemberReport(List<MemberStatus> members, List<String> unanswered) {

    /** Copies. */
    public MemberReport {
        members = List.copyOf(members);
        unanswered = unanswered.stream().sorted().toList();
    }

    /** Every worker answered with {@code members}. */
    public static MemberReport complete(List<MemberStatus> members) {
        return new MemberReport(members, List.of());
    }
}
