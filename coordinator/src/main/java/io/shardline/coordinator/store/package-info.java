/**
 * Where records are kept: {@link io.shardline.coordinator.store.MetadataStore} (compare-and-set on the store
 * revision under a leader epoch that only grows) and an in-memory implementation.
 */
package io.shardline.coordinator.store;
