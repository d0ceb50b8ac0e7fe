package io.shardline.runtime.cli;

/**
 * Input a command cannot use. The message is the one line shown to the user: the offending field path (or the
 * line and column of a syntax error), then what is wrong, e.g.
 * {@code members[1].owned.orders[2]: shard 9 does not exist (orders has 6 shards)}.
 */
public final class BadInputException extends Exception {

    private static final long serialVersionUID = 1L;

    /** A bad-input error with its one-line message. */
    public BadInputException(String message) {
        super(message, null, false, false);
    }

    /** A bad-input error about the field at {@code path}. */
    public static BadInputException at(String path, String problem) {
        return new BadInputException(path + ": " + problem);
    }
}
