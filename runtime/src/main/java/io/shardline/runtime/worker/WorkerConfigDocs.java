package io.shardline.runtime.worker;

import io.shardline.api.config.ConfigDocs;
import io.shardline.runtime.config.WorkerConfig;
import io.shardline.runtime.listener.ListenerConfig;
import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;

/**
 * Generates {@code docs/configuration.md} from {@link WorkerConfig#DEFINITION} and {@link ListenerConfig#DEFINITION}. A test fails when the
 * committed file differs from {@link #render()}.
 *
 * <p>Run: {@code bin/shardline-run-class io.shardline.runtime.worker.WorkerConfigDocs docs/configuration.md}.
 */
public final class WorkerConfigDocs {

    private static final String INTRO = """
            # Worker configuration

            <!-- GENERATED from io.shardline.runtime.config.WorkerConfig by WorkerConfigDocs; do not edit.
                 Regenerate: mvn -B -ntp -q test -pl runtime -am -Dtest=WorkerConfigDocsTest \
            -Dsurefire.failIfNoSpecifiedTests=false -Dshardline.docs.write=true -->

            `bin/start-worker config/worker.properties` reads a Java properties file. The worker validates it
            before it joins anything: every problem is listed with key, value, file, line and reason (secrets
            are shown as `[hidden]`), and the worker exits with code 2. Unknown keys are errors, with a
            "did you mean" suggestion when a known key is close.

            Secrets need not be written into the file: a value may contain `${env:NAME}` (an environment
            variable) or `${file:path:key}` (a key of another properties file; a relative path is resolved
            against the directory of the worker file).

            ## Choosing the timeouts

            | setting | Shardline | Kafka consumer | why |
            | --- | --- | --- | --- |
            | `heartbeat.interval.ms` | 1000 | 3000 (5000 in KIP-848) | a heartbeat is one small event-bus request (~0.3 ms p50 here); ten per session keep detection fast without load |
            | `session.timeout.ms` | 10000 | 45000 | a dead worker's shards move in about 11 s; a live member survives a 9 s stop-the-world pause (G1 pauses on ordinary heaps are tens to hundreds of ms) and up to 8 lost heartbeats |
            | `rebalance.timeout.ms` | 30000 | 300000 (`max.poll.interval.ms`) | time to finish the in-flight batch of a revoked shard; a member whose drain hangs longer is fenced and rejoins, so a hung handler delays a shard's move by at most this plus a few heartbeat intervals; handlers that need longer per batch must raise it |
            | `cluster.failure.timeout.ms` | 15000 | — | Hazelcast removes a hung worker from the view after 15 s (its default is 60 s); a killed one is seen in under 1 s through refused connections. Leadership does not wait for it (the leader's silence in Redis decides, after 2.7 s by default); a worker frozen for less comes back into an unchanged view instead of splitting it |
            | `cluster.merge.delay.ms` | 5000 | — | two halves of a split cluster merge seconds after the network heals, not minutes (262 s measured with Hazelcast's defaults) |

            A member stops processing on its own when it has not had a heartbeat answer for
            `session.timeout.ms - 2 * heartbeat.interval.ms` (8 s by default), so it is already silent when
            the coordinator may hand its shards to another member. Hazelcast membership only decides who
            *tries* to lead: every write of the leader to group state is fenced in Redis by a leader epoch,
            so a leader on the wrong side of a split cannot overwrite its successor.

            ## Keys

            """;

    private WorkerConfigDocs() {
    }

    private static final String LISTENERS = """

            # Listener configuration

            <!-- GENERATED from io.shardline.runtime.listener.ListenerConfig, as above. -->

            Each `*.properties` file in `listeners.dir` (or the body of `PUT /listeners/{name}/config`) defines one
            listener, named after the file. It is validated against these keys and, for `handler.config.*`,
            against the handler's own definition (see the handler's documentation), with the same error
            quality as the worker file: an invalid listener file stops the worker at start (exit code 2, every
            problem listed), an invalid `PUT` body is refused with 400 and the problems.

            ## Keys

            """;

    /** The whole document: the worker's keys, then a listener's. */
    public static String render() {
        return INTRO + ConfigDocs.markdown(WorkerConfig.DEFINITION, 3) + LISTENERS + ConfigDocs.markdown(ListenerConfig.DEFINITION, 3);
    }

    /** Writes the document to the path given as the only argument. */
    public static void main(String[] args) throws IOException {
        if (args.length != 1) {
            System.err.println("usage: WorkerConfigDocs <output.md>");
            System.exit(2);
        }
        Files.writeString(Path.of(args[0]), render(), StandardCharsets.UTF_8);
    }
}
