/**
 * Group metadata in Redis: {@link io.shardline.runtime.store.RedisGroupLog} keeps the coordinator's
 * records under one hash-tagged prefix per cluster ({@link io.shardline.runtime.store.MetadataKeys}); leader
 * epochs are taken by compare-and-set and every write is checked against the leader epoch and the store
 * revision in one Lua script, so a deposed leader's write is refused.
 */
package io.shardline.runtime.store;
