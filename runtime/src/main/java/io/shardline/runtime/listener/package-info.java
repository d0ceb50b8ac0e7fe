/**
 * Listeners: the definition of every listener key ({@link io.shardline.runtime.listener.ListenerConfig},
 * which also generates docs/configuration.md), a loaded listener ({@link io.shardline.runtime.listener.ListenerDefinition}),
 * a listener running on this worker ({@link io.shardline.runtime.listener.Listener}) and the coordinator-less
 * {@link io.shardline.runtime.listener.StandaloneListener} of the test kit. Loading and validating listener files is
 * the control plane's ({@code runtime.control}). docs/architecture.md, "The runtime's packages".
 */
package io.shardline.runtime.listener;
