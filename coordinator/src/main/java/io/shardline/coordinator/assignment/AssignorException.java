package io.shardline.coordinator.assignment;

/**
 * The group's assignor failed or returned an assignment the coordinator refuses (a shard given twice, to an
 * unknown or unsubscribed member, or out of range). The coordinator keeps its previous target.
 */
public class AssignorException extends RuntimeException {

    private static final long serialVersionUID = 1L;

    /** With a message naming the assignor, the group and what was wrong. */
    public AssignorException(String message, Throwable cause) {
        super(message, cause);
    }
}
