package io.shardline.runtime.rest.entity;

/** The observed state of a listener or of one of its members, as Connect's {@code AbstractStatus.State}. */
public enum ListenerState {
    /** No member of it runs yet (or none owns a shard). */
    UNASSIGNED,
    /** Processing. */
    RUNNING,
    /** Administratively paused: keeps its shards, reads nothing. */
    PAUSED,
    /** Administratively stopped: left the group, owns nothing. */
    STOPPED,
    /** Failed; the status carries a trace summary. */
    FAILED,
    /** A restart was requested and is in progress. */
    RESTARTING
}
