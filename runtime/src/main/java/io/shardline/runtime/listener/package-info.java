/**
 * Listener files and running listeners: the definition of every listener key ({@link io.shardline.runtime.listener.ListenerConfig},
 * which also generates docs/configuration.md), loading and validation with file, line and key
 * ({@link io.shardline.runtime.control.ListenerLoader}), a listener running on this worker
 * ({@link io.shardline.runtime.listener.Listener}) and the coordinator-less {@link io.shardline.runtime.listener.StandaloneListener}
 * of the test kit. docs/architecture.md, "The runtime's packages".
 */
package io.shardline.runtime.listener;
