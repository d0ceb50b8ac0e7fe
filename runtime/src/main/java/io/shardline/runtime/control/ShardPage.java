package io.shardline.runtime.control;

import java.util.List;

/**
 * Which shards of a listener a status answer lists: {@code limit} shards from {@code offset} on, in stream and
 * index order ({@code GET /listeners/{name}/status?offset=&limit=}). A status answer never lists more than
 * {@link #MAX_LIMIT} shards, so its size and the Redis reads behind it stay bounded however many shards a
 * listener has (docs/rest-api.yaml). Immutable.
 *
 * @param offset the first shard listed (0-based, in stream and index order)
 * @param limit the most shards listed
 */
public record ShardPage(int offset, int limit) {

    /** Shards listed when the request names no limit. */
    public static final int DEFAULT_LIMIT = 1_000;

    /** The most shards one answer lists. */
    public static final int MAX_LIMIT = 10_000;

    /** The first {@link #DEFAULT_LIMIT} shards. */
    public static final ShardPage FIRST = new ShardPage(0, DEFAULT_LIMIT);

    /** Validates. */
    public ShardPage {
        if (offset < 0) {
            throw ControlPlaneException.badRequest("query parameter offset: must be 0 or more, got " + offset);
        }
        if (limit < 1 || limit > MAX_LIMIT) {
            throw ControlPlaneException.badRequest("query parameter limit: must be 1.." + MAX_LIMIT
                    + " (at most " + MAX_LIMIT + " shards per answer; page with offset), got " + limit);
        }
    }

    /** The part of {@code all} this page lists (empty past the end). */
    public <T> List<T> of(List<T> all) {
        int from = Math.min(offset, all.size());
        return all.subList(from, (int) Math.min(all.size(), (long) from + limit));
    }
}
