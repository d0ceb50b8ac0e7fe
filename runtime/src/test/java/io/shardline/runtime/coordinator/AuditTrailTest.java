package io.shardline.runtime.coordinator;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import io.shardline.coordinator.AuditEvent;
import io.shardline.coordinator.AuditType;
import java.util.List;
import java.util.Optional;
import org.junit.jupiter.api.Test;

class AuditTrailTest {

    private static AuditEvent event(String group, long time) {
        return new AuditEvent(time, group, AuditType.MEMBER_JOINED, "m" + time, Optional.empty(), 1, 1, 1, "joined");
    }

    @Test
    void keepsTheNewestPerGroupOldestFirst() {
        AuditTrail trail = new AuditTrail(3);
        trail.addAll(List.of(event("a", 1), event("b", 2), event("a", 3), event("a", 4), event("a", 5)));
        assertThat(trail.recent("a", 10)).extracting(AuditEvent::timeMs).containsExactly(3L, 4L, 5L);
        assertThat(trail.recent("a", 2)).extracting(AuditEvent::timeMs).containsExactly(4L, 5L);
        assertThat(trail.recent("b", 10)).extracting(AuditEvent::timeMs).containsExactly(2L);
        assertThat(trail.recent("c", 10)).isEmpty();
        assertThat(trail.recent("a", 0)).isEmpty();
    }

    @Test
    void clearForgetsEverything() {
        AuditTrail trail = new AuditTrail(5);
        trail.addAll(List.of(event("a", 1)));
        trail.clear();
        assertThat(trail.recent("a", 5)).isEmpty();
    }

    @Test
    void capacityMustBePositive() {
        assertThatThrownBy(() -> new AuditTrail(0)).hasMessageContaining("capacity must be at least 1, was 0");
    }
}
