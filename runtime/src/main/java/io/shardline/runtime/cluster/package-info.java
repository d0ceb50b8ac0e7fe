/**
 * Cluster membership and leader choice: {@link io.shardline.runtime.cluster.WorkerCluster} runs an embedded
 * Hazelcast member (TCP/IP join, loopback by default, tuned detection) under clustered Vert.x, and
 * publishes a {@link io.shardline.runtime.cluster.LeaderView} (leader = oldest member) on every change.
 * Leadership here is advisory; the leader's writes are fenced in Redis (see {@code runtime.store}).
 */
package io.shardline.runtime.cluster;
