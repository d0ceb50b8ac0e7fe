package io.shardline.runtime.shard;

/**
 * A handler call or acknowledgement was not made because the member's {@link MemberLease} had run out: the
 * records stay pending in Redis for the shard's next owner. Not a handler failure (no attempt is counted).
 */
final class LeaseLapsedException extends RuntimeException {

    private static final long serialVersionUID = 1L;

    LeaseLapsedException(String message) {
        super(message, null, false, false);
    }
}
