package io.shardline.coordinator.protocol;

/**
 * A group configuration the coordinator does not apply, with a message that says why and what to do: it is
 * older than the one the group has (a worker still runs a definition that was changed since), it differs from
 * the group's at the same revision (workers disagree, e.g. different {@code worker.properties} timeouts for one
 * listener), or it changes a stream's shard count (resharding is not done by changing a listener). Answered
 * with {@link ErrorCode#CONFIG_REFUSED}; the group keeps its configuration.
 */
public class GroupConfigRefusedException extends CoordinatorException {

    private static final long serialVersionUID = 1L;

    /** With a message naming the group, the differing settings, both revisions and the remedy. */
    public GroupConfigRefusedException(String message) {
        super(ErrorCode.CONFIG_REFUSED, message);
    }
}
