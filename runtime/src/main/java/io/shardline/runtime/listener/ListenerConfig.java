package io.shardline.runtime.listener;

import io.shardline.api.config.ConfigDef;
import io.shardline.api.config.ConfigType;
import io.shardline.api.config.ConfigValues;
import io.shardline.api.config.Importance;
import io.shardline.api.config.Validator;
import io.shardline.coordinator.assignor.AssignorRegistry;
import io.shardline.coordinator.group.RebalanceProtocol;
import io.shardline.runtime.retention.RetentionPolicy;
import io.shardline.runtime.shard.AckMode;
import io.shardline.runtime.shard.ConsumerSettings;
import io.shardline.runtime.shard.HotPath;
import io.shardline.runtime.topology.StreamSpec;
import java.util.HashSet;
import java.util.List;
import java.util.Locale;
import java.util.Optional;
import java.util.Set;

/**
 * The settings of a listener file ({@code config/listeners/<name>.properties}): the definition that
 * validates it (and generates its documentation) and typed getters. Keys under
 * {@value #HANDLER_PREFIX} belong to the handler and are checked against its own definition
 * ({@link io.shardline.api.handler.Handler#config()}). Immutable.
 */
public final class ListenerConfig {

    public static final String HANDLER_PREFIX = "handler.config.";
    public static final String HANDLER_CONFIG = "handler";
    public static final String STREAMS_CONFIG = "streams";
    public static final String GROUP_CONFIG = "group";
    public static final String CONCURRENCY_CONFIG = "concurrency";
    public static final String MAX_CONCURRENCY_CONFIG = "max.concurrency";
    public static final String ASSIGNOR_CONFIG = "assignor";
    public static final String BATCH_SIZE_CONFIG = "batch.size";
    public static final String ACK_MODE_CONFIG = "ack.mode";
    public static final String MAX_ATTEMPTS_CONFIG = "max.attempts";
    public static final String RETRY_BACKOFF_CONFIG = "retry.backoff.ms";
    public static final String RETRY_BACKOFF_MAX_CONFIG = "retry.backoff.max.ms";
    public static final String DEAD_LETTER_STREAM_CONFIG = "dead.letter.stream";
    /** Redis deliveries of a record after which it is dead-lettered without calling the handler again. */
    public static final String MAX_DELIVERIES_CONFIG = "max.deliveries";
    public static final String HANDLER_TIMEOUT_CONFIG = "handler.timeout.ms";
    public static final String START_FROM_CONFIG = "start.from";
    public static final String RELEASE_INFLIGHT_CONFIG = "release.inflight";
    public static final String WAKEUP_BLOCK_CONFIG = "wakeup.block.ms";
    public static final String ACK_LINGER_CONFIG = "ack.linger.ms";
    // Group protocol (docs/assignors.md): what the coordinator can do, reachable per listener.
    public static final String REBALANCE_PROTOCOL_CONFIG = "rebalance.protocol";
    public static final String STATIC_MEMBERSHIP_CONFIG = "static.membership";
    public static final String MEMBER_WEIGHT_CONFIG = "member.weight";
    // The group's timeouts, when the listener sets them; else the worker's keys of the same names.
    public static final String SESSION_TIMEOUT_CONFIG = "session.timeout.ms";
    public static final String HEARTBEAT_INTERVAL_CONFIG = "heartbeat.interval.ms";
    public static final String REBALANCE_TIMEOUT_CONFIG = "rebalance.timeout.ms";

    /** The definition every listener file is validated against. */
    public static final ConfigDef DEFINITION = define();

    private final String name;
    private final ConfigValues values;

    /** Typed access to {@code values}, parsed from the listener {@code name}'s file. */
    public ListenerConfig(String name, ConfigValues values) {
        this.name = name;
        this.values = values;
    }

    private static ConfigDef define() {
        ConfigDef def = new ConfigDef()
                .defineRequired(HANDLER_CONFIG, ConfigType.STRING, Validator.nonEmpty(), Importance.HIGH,
                        "The handler plugin: its alias (e.g. logging-sink) or fully qualified class name.", "Handler")
                .defineRequired(STREAMS_CONFIG, ConfigType.LIST, Validator.custom(
                                "a list of <stream>:<shard count>, e.g. orders:16,payments:4", ListenerConfig::checkStreams),
                        Importance.HIGH, "The streams to consume and their shard counts.", "Handler")
                .define(GROUP_CONFIG, ConfigType.STRING, null, Validator.any(), Importance.HIGH,
                        "The consumer group (also the Redis consumer-group name on every shard). Default: the listener name.", "Group")
                .define(CONCURRENCY_CONFIG, ConfigType.INT, 1, Validator.between(1, 256), Importance.HIGH,
                        "Logical members this worker runs for the listener; each is assigned shards on its own.", "Group")
                .define(MAX_CONCURRENCY_CONFIG, ConfigType.INT, 4, Validator.between(1, 1024), Importance.HIGH,
                        "Local workers of one member: how many handler calls (batches of different shards) it runs at the same time. Reads "
                                + "and acknowledgements do not wait for a worker; each shard has at most one batch in flight.", "Group")
                .define(ASSIGNOR_CONFIG, ConfigType.STRING, "range", Validator.nonEmpty(),
                        Importance.MEDIUM, "How the group's shards are spread over its members: a built-in assignor "
                                + AssignorRegistry.builtInNames() + ", or the name() or class name of an assignor plugin "
                                + "on plugin.path (see docs/assignors.md). Every worker running the listener must have it; "
                                + "one that does not refuses the listener with a message naming it.", "Group")
                .define(START_FROM_CONFIG, ConfigType.STRING, "latest", Validator.oneOf("earliest", "latest"), Importance.MEDIUM,
                        "Where a new group starts on a shard: earliest (every entry) or latest (entries added from now).", "Group")
                .define(BATCH_SIZE_CONFIG, ConfigType.INT, 100, Validator.between(1, 5_000), Importance.MEDIUM,
                        "Entries read per fenced read and handed to the handler as one batch.", "Processing")
                .define(ACK_MODE_CONFIG, ConfigType.STRING, "ack", Validator.oneOf("ack", "ack-delete"), Importance.MEDIUM,
                        "ack: XACK only; ack-delete: acknowledge and delete the entry (XACKDEL on Redis 8.2+, an atomic script elsewhere).",
                        "Processing")
                .define(MAX_ATTEMPTS_CONFIG, ConfigType.INT, 3, Validator.between(1, 1_000), Importance.MEDIUM,
                        "Handler attempts of a batch (and of each record once a failing batch is split) before dead-lettering.", "Retries")
                .define(MAX_DELIVERIES_CONFIG, ConfigType.INT, ConsumerSettings.DEFAULT_MAX_DELIVERIES,
                        Validator.between(1, 1_000), Importance.MEDIUM,
                        "How many times Redis may deliver a record to the group (its delivery count: 1 for the first "
                                + "read, one more for each read of the still pending entry after a crash, a lost lease or "
                                + "an abandoned batch). A record read with a higher count is written to the dead-letter "
                                + "stream with the last error known, without calling the handler again, and acknowledged: "
                                + "a record that kills its worker stops doing so after this many deaths. In-process "
                                + "retries (max.attempts) do not count.", "Retries")
                .define(RETRY_BACKOFF_CONFIG, ConfigType.LONG, 100L, Validator.between(0, 3_600_000), Importance.LOW,
                        "The first retry delay; doubled per attempt.", "Retries")
                .define(RETRY_BACKOFF_MAX_CONFIG, ConfigType.LONG, 10_000L, Validator.between(0, 3_600_000), Importance.LOW,
                        "The longest retry delay.", "Retries")
                .define(DEAD_LETTER_STREAM_CONFIG, ConfigType.STRING, null, deadLetterKey(), Importance.MEDIUM,
                        "The stream failed records are written to, with their error. Default: <listener>.dlq. "
                                + "Must not be one of Shardline's own keys: a shard ({stream:i}, of any listener) or "
                                + "its keys, or the cluster metadata ({shardline:...}).", "Retries")
                .define(HANDLER_TIMEOUT_CONFIG, ConfigType.LONG, 30_000L, Validator.between(1, 86_400_000), Importance.MEDIUM,
                        "A handler call running longer counts as failed (its thread is interrupted).", "Retries")
                .define(ACK_LINGER_CONFIG, ConfigType.LONG, ConsumerSettings.DEFAULT_ACK_LINGER_MS, Validator.between(0, 10_000),
                        Importance.LOW, "How long a shard that keeps up (its last read was small) may hold the acknowledgement of "
                                + "its last handled batch, so that it goes to Redis with the shard's next read: one Redis call per batch "
                                + "instead of two. 0: acknowledge each batch at once. A release or pause acknowledges first; after a "
                                + "crash the records handled in this time are handled again by the next owner (at least once).",
                        "Processing")
                .define(RELEASE_INFLIGHT_CONFIG, ConfigType.STRING, "finish", Validator.oneOf("finish", "abandon"), Importance.LOW,
                        "When a shard moves away: finish the batch in flight first, or abandon it to the next owner.", "Processing")
                .define(WAKEUP_BLOCK_CONFIG, ConfigType.LONG, 1_000L, Validator.between(10, 60_000), Importance.LOW,
                        "BLOCK time of the member's wake-up XREAD on idle shards.", "Processing")
                .definePrefix(HANDLER_PREFIX, "The handler's own settings, checked against the handler's definition.");
        defineGroupProtocolKeys(def);
        defineRetentionKeys(def);
        def.require(HEARTBEAT_INTERVAL_CONFIG, "must be at most a third of session.timeout.ms (a member must be able "
                + "to miss two heartbeats without being expired)", v -> v.get(HEARTBEAT_INTERVAL_CONFIG) == null
                || v.get(SESSION_TIMEOUT_CONFIG) == null
                || 3L * v.getInt(HEARTBEAT_INTERVAL_CONFIG) <= v.getInt(SESSION_TIMEOUT_CONFIG));
        def.require(RETRY_BACKOFF_MAX_CONFIG, "must be >= retry.backoff.ms",
                v -> v.getLong(RETRY_BACKOFF_MAX_CONFIG) >= v.getLong(RETRY_BACKOFF_CONFIG));
        def.require(MEMBER_WEIGHT_CONFIG, "the range assignor ignores weights: use sticky, cooperative-sticky or "
                + "round-robin, or leave member.weight at 1",
                v -> v.getInt(MEMBER_WEIGHT_CONFIG) == 1 || !"range".equals(v.getString(ASSIGNOR_CONFIG)));
        return def;
    }

    private static void defineGroupProtocolKeys(ConfigDef def) {
        def.define(REBALANCE_PROTOCOL_CONFIG, ConfigType.STRING, "cooperative", Validator.oneOf("cooperative", "eager"),
                        Importance.MEDIUM, "How the group moves shards when its target changes. cooperative: only the "
                                + "shards that move are revoked (each drained by its old owner before its new owner starts "
                                + "it); every other shard keeps being processed. eager: every member revokes every shard "
                                + "and no shard is given out until all are revoked (Kafka's classic protocol): every "
                                + "membership change stops the whole group for the slowest drain, and records of every "
                                + "shard wait meanwhile. A group's protocol is the one of the listener that created it.",
                        "Group")
                .define(STATIC_MEMBERSHIP_CONFIG, ConfigType.BOOLEAN, false, Validator.any(), Importance.MEDIUM,
                        "Static membership (Kafka's KIP-345), with the member id as instance id: a member that stops "
                                + "gracefully keeps its target reserved for session.timeout.ms, so a worker restarted "
                                + "within that time gets the same shards back with no rebalance (a rolling restart moves "
                                + "nothing). Its shards are not processed while it is away; one that stays away longer "
                                + "is expired as without it.", "Group")
                .define(MEMBER_WEIGHT_CONFIG, ConfigType.INT, 1, Validator.between(1, 1_000), Importance.MEDIUM,
                        "This worker's members' capacity relative to the group's other members: the sticky, "
                                + "cooperative-sticky and round-robin assignors give each member a share of shards "
                                + "proportional to its weight, within one shard (with different subscriptions, per stream "
                                + "over its subscribers). Equal weights (the default 1 everywhere) give exactly the "
                                + "unweighted assignment; a weight other than 1 with the range assignor is refused. Shown per member in GET /groups/{group}.",
                        "Group");
        def.define(SESSION_TIMEOUT_CONFIG, ConfigType.INT, null, Validator.between(1_000, 600_000), Importance.MEDIUM,
                        "The group's session timeout (a member not heard from for this long is expired). Default: the "
                                + "worker's session.timeout.ms. Set here, it is the same on every worker and a change "
                                + "reaches the coordinator as a new group configuration.", "Group")
                .define(HEARTBEAT_INTERVAL_CONFIG, ConfigType.INT, null, Validator.between(50, 60_000), Importance.MEDIUM,
                        "How often the group's members heartbeat; at most a third of the session timeout. Default: "
                                + "the worker's heartbeat.interval.ms.", "Group")
                .define(REBALANCE_TIMEOUT_CONFIG, ConfigType.INT, null, Validator.between(1_000, 3_600_000),
                        Importance.MEDIUM, "How long a member of the group may take to drain a revoked shard before "
                                + "it is fenced. Default: the worker's rebalance.timeout.ms (which also bounds the "
                                + "worker's graceful stop).", "Group");
    }

    private static void defineRetentionKeys(ConfigDef def) {
        String doc = " Applies to every stream of the listener and is enforced by the leader with XTRIM MINID, never past "
                + "the oldest entry any consumer group on a shard still needs (its oldest pending entry and its last "
                + "delivered one), so no group loses an entry it has not acknowledged (docs/operations.md, Retention). "
                + "Listeners sharing a stream declare the same value or only one declares it; different values are "
                + "refused. 0: no limit.";
        def.define(RetentionPolicy.MAX_LENGTH_CONFIG, ConfigType.LONG, 0L, Validator.between(0, Long.MAX_VALUE),
                        Importance.MEDIUM, "The most entries a shard keeps." + doc, "Retention")
                .define(RetentionPolicy.MAX_AGE_CONFIG, ConfigType.LONG, 0L, Validator.between(0, Long.MAX_VALUE),
                        Importance.MEDIUM, "The oldest entry a shard keeps, in ms of entry time before now." + doc,
                        "Retention");
    }

    private static Optional<String> checkStreams(Object value) {
        @SuppressWarnings("unchecked")
        List<String> entries = (List<String>) value;
        if (entries.isEmpty()) {
            return Optional.of("at least one stream is needed, e.g. orders:16");
        }
        Set<String> seen = new HashSet<>();
        for (String entry : entries) {
            try {
                StreamSpec spec = StreamSpec.parse(entry);
                if (!seen.add(spec.name())) {
                    return Optional.of("stream '" + spec.name() + "' is listed twice");
                }
            } catch (IllegalArgumentException e) {
                return Optional.of(e.getMessage());
            }
        }
        return Optional.empty();
    }

    /** The listener name (its file name without {@code .properties}). */
    public String name() {
        return name;
    }

    /** The parsed values (with sources, for error messages). */
    public ConfigValues values() {
        return values;
    }

    /** The handler alias or class name. */
    public String handler() {
        return values.getString(HANDLER_CONFIG);
    }

    /** The streams and shard counts. */
    public List<StreamSpec> streams() {
        return values.getList(STREAMS_CONFIG).stream().map(StreamSpec::parse).toList();
    }

    /** The consumer group. */
    public String group() {
        String group = values.getString(GROUP_CONFIG);
        return group == null || group.isBlank() ? name : group;
    }

    /** Logical members per worker. */
    public int concurrency() {
        return values.getInt(CONCURRENCY_CONFIG);
    }

    /** The assignor name or class. */
    public String assignor() {
        return values.getString(ASSIGNOR_CONFIG);
    }

    /** The group's rebalance protocol. */
    public RebalanceProtocol rebalanceProtocol() {
        return RebalanceProtocol.parse(values.getString(REBALANCE_PROTOCOL_CONFIG));
    }

    /** Whether members use their member id as static instance id (KIP-345). */
    public boolean staticMembership() {
        return values.getBoolean(STATIC_MEMBERSHIP_CONFIG);
    }

    /** The weight of this listener's members on this worker. */
    public int memberWeight() {
        return values.getInt(MEMBER_WEIGHT_CONFIG);
    }

    /** The listener's {@code session.timeout.ms}, or {@code workerValue} when it sets none. */
    public int sessionTimeoutMs(int workerValue) {
        return intOr(SESSION_TIMEOUT_CONFIG, workerValue);
    }

    /** The listener's {@code heartbeat.interval.ms}, or {@code workerValue} when it sets none. */
    public int heartbeatIntervalMs(int workerValue) {
        return intOr(HEARTBEAT_INTERVAL_CONFIG, workerValue);
    }

    /** The listener's {@code rebalance.timeout.ms}, or {@code workerValue} when it sets none. */
    public int rebalanceTimeoutMs(int workerValue) {
        return intOr(REBALANCE_TIMEOUT_CONFIG, workerValue);
    }

    private int intOr(String key, int fallback) {
        return values.get(key) == null ? fallback : values.getInt(key);
    }

    /** {@code 0} for earliest, {@code $} for latest: the start id of a new group. */
    public String startId() {
        return "earliest".equals(values.getString(START_FROM_CONFIG)) ? "0" : "$";
    }

    /**
     * Refuses a dead-letter key that is one of Shardline's own: a shard key {@code {stream:i}} or a key derived
     * from it (owner hashes), or anything under the metadata prefix {@code {shardline:...}}. Writing dead letters
     * there would break that shard or the cluster (WRONGTYPE, or entries in another listener's shard).
     */
    private static Validator deadLetterKey() {
        java.util.regex.Pattern shard = java.util.regex.Pattern.compile("\\{[^{}]+:\\d+}.*");
        return Validator.custom("a stream key that is not one of Shardline's own", value -> {
            String key = String.valueOf(value);
            if (key.isBlank()) {
                return java.util.Optional.of("must not be blank (leave it unset for <listener>.dlq)");
            }
            if (key.startsWith("{shardline:")) {
                return java.util.Optional.of("is under Shardline's metadata prefix {shardline:...}; choose another key");
            }
            if (shard.matcher(key).matches()) {
                return java.util.Optional.of("is a shard key (or one derived from it) of stream " + key.substring(1,
                        key.lastIndexOf(':', key.indexOf('}'))) + "; choose another key, e.g. <listener>.dlq");
            }
            return java.util.Optional.empty();
        });
    }

    /** The dead-letter stream key. */
    public String deadLetterStream() {
        Object v = values.get(DEAD_LETTER_STREAM_CONFIG);
        return v == null || v.toString().isBlank() ? name + ".dlq" : v.toString();
    }

    /** How one member of this listener consumes, on a worker heartbeating every second (the worker default). */
    public ConsumerSettings consumerSettings() {
        return consumerSettings(1_000);
    }

    /**
     * How one member of this listener consumes, on a worker whose {@code heartbeat.interval.ms} is
     * {@code workerHeartbeatIntervalMs} (the listener's own setting wins): the cutover poll follows the heartbeat.
     */
    public ConsumerSettings consumerSettings(int workerHeartbeatIntervalMs) {
        return new ConsumerSettings(group(), values.getInt(MAX_CONCURRENCY_CONFIG), values.getInt(BATCH_SIZE_CONFIG),
                AckMode.fromConfig(values.getString(ACK_MODE_CONFIG)), values.getInt(MAX_ATTEMPTS_CONFIG),
                values.getLong(RETRY_BACKOFF_CONFIG), values.getLong(RETRY_BACKOFF_MAX_CONFIG), deadLetterStream(),
                values.getLong(HANDLER_TIMEOUT_CONFIG),
                ConsumerSettings.ReleaseMode.valueOf(values.getString(RELEASE_INFLIGHT_CONFIG).toUpperCase(Locale.ROOT)),
                values.getLong(WAKEUP_BLOCK_CONFIG), 1_000, HotPath.TRANSACTION, values.getLong(ACK_LINGER_CONFIG),
                values.getInt(MAX_DELIVERIES_CONFIG),
                ConsumerSettings.cutoverPollMs(heartbeatIntervalMs(workerHeartbeatIntervalMs)));
    }
}
