package io.shardline.coordinator.record;

import io.shardline.coordinator.group.GroupConfig;
import java.util.Objects;

/**
 * The group's configuration (shard set, assignor, protocol, timeouts); creates the group on replay.
 *
 * @param config the configuration
 */
public record GroupConfigRecord(GroupConfig config) implements CoordinatorRecord {

    /** Validates. */
    public GroupConfigRecord {
        Objects.requireNonNull(config, "config");
    }

    @Override
    public String groupId() {
        return config.groupId();
    }
}
