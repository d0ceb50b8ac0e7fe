package io.shardline.runtime.shard;

/** What acknowledging a record does to the shard stream ({@code ack.mode} of a listener). */
public enum AckMode {
    /** {@code XACK}: the entry stays in the stream (trim it by length or age). */
    ACK("ack"),
    /** Acknowledge and delete: {@code XACKDEL} on Redis 8.2+, an atomic XACK+XDEL script elsewhere. */
    ACK_DELETE("ack-delete");

    private final String configName;

    AckMode(String configName) {
        this.configName = configName;
    }

    /** The name used in listener files. */
    public String configName() {
        return configName;
    }

    /** Parses {@code ack} or {@code ack-delete}. */
    public static AckMode fromConfig(String name) {
        for (AckMode mode : values()) {
            if (mode.configName.equalsIgnoreCase(name.trim())) {
                return mode;
            }
        }
        throw new IllegalArgumentException("ack.mode must be 'ack' or 'ack-delete', got '" + name + "'");
    }
}
