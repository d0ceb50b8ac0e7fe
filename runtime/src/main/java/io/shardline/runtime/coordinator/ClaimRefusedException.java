package io.shardline.runtime.coordinator;

import io.shardline.runtime.store.RedisGroupLog.LeaderStatus;

/**
 * A claim of the leader epoch that Redis refused: another worker holds it and still writes (and sees at least as
 * many workers as the claimant), or took it while this worker was claiming. The claimant follows that worker.
 */
final class ClaimRefusedException extends RuntimeException {

    private static final long serialVersionUID = 1L;

    /** Who holds the epoch, as the refused claim saw it. */
    final transient LeaderStatus holder;

    ClaimRefusedException(LeaderStatus holder) {
        super("leader epoch " + holder.leaderEpoch() + " is held by " + holder.holder() + ", which wrote "
                + holder.sinceLastWriteMs() + " ms ago and sees " + holder.holderView() + " worker(s)", null, false,
                false);
        this.holder = holder;
    }
}
