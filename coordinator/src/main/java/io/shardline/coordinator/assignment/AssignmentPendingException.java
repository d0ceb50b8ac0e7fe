package io.shardline.coordinator.assignment;

/**
 * Thrown by an assignor whose answer is computed elsewhere (the runtime runs plugin assignors off the
 * coordinator's thread, under a time limit) and is not ready yet. It is no failure: the coordinator keeps the
 * group on its previous target, records nothing, and asks again on its next call (every heartbeat and tick),
 * until the assignor answers, fails or runs out of time.
 */
public class AssignmentPendingException extends RuntimeException {

    private static final long serialVersionUID = 1L;

    /** With a message naming the assignor and since when it runs. */
    public AssignmentPendingException(String message) {
        super(message, null, false, false);
    }
}
