/**
 * The entry points behind {@code bin/}: {@link io.shardline.runtime.cli.StartWorker}, {@link io.shardline.runtime.cli.StopWorker},
 * {@link io.shardline.runtime.cli.Assign} and {@link io.shardline.runtime.cli.Produce}. Each parses its arguments with picocli, prints one
 * line per error (never a stack trace) and returns a documented exit code; {@code System.exit} is called only in their {@code main}.
 */
package io.shardline.runtime.cli;
