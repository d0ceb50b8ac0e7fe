package io.shardline.runtime.rest.entity;

import com.fasterxml.jackson.annotation.JsonInclude;
import com.fasterxml.jackson.databind.PropertyNamingStrategies;
import com.fasterxml.jackson.databind.annotation.JsonNaming;
import java.util.Map;
import java.util.Objects;

/**
 * One entry of a listener's dead-letter stream ({@code GET /listeners/{name}/dead-letters}), read from its
 * {@code __dlq.*} fields (docs/operations.md, "Dead letters"). Immutable.
 *
 * @param id the entry id in the dead-letter stream
 * @param timeMs when it was dead-lettered (epoch milliseconds: {@code __dlq.failed.at.ms}, else the id's time)
 * @param stream the logical stream the record came from, {@code null} when the entry has no {@code __dlq.stream}
 * @param shard the shard index it came from, {@code null} when unknown
 * @param entryId its entry id on that shard, {@code null} when unknown
 * @param key the record key ({@code __key}), {@code null} when it has none
 * @param error why it was dead-lettered
 * @param deliveries its Redis delivery count when dead-lettered, {@code null} when not recorded
 * @param attempts in-process handler attempts of it ({@code max.attempts}), {@code null} when not recorded
 * @param member the member that wrote it, {@code null} when unknown
 * @param fields the record's own fields (without {@code __dlq.*}); only when one dead letter is asked for
 */
@JsonNaming(PropertyNamingStrategies.SnakeCaseStrategy.class)
@JsonInclude(JsonInclude.Include.NON_NULL)
public record DeadLetter(String id, long timeMs, String stream, Integer shard, String entryId, String key, String error,
                         Integer deliveries, Integer attempts, String member, Map<String, String> fields) {

    /** Validates. */
    public DeadLetter {
        Objects.requireNonNull(id, "id");
        Objects.requireNonNull(error, "error");
    }
}
