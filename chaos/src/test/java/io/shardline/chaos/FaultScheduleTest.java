package io.shardline.chaos;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import java.util.EnumSet;
import java.util.List;
import org.junit.jupiter.api.Test;

class FaultScheduleTest {

    @Test
    void theSameSeedReplaysTheSamePlan() {
        List<FaultSchedule.Planned> a = FaultSchedule.plan(42, EnumSet.allOf(FaultKind.class), 200, 6_000, 3_000);
        List<FaultSchedule.Planned> b = FaultSchedule.plan(42, EnumSet.allOf(FaultKind.class), 200, 6_000, 3_000);
        List<FaultSchedule.Planned> c = FaultSchedule.plan(43, EnumSet.allOf(FaultKind.class), 200, 6_000, 3_000);

        assertThat(a).isEqualTo(b).isNotEqualTo(c);
        EnumSet<FaultKind> drawn = EnumSet.allOf(FaultKind.class);
        drawn.removeIf(FaultKind::reshard);
        assertThat(a).extracting(FaultSchedule.Planned::kind).containsOnlyElementsOf(drawn).containsAll(drawn);
        assertThat(a).allSatisfy(p -> assertThat(p.settleMs()).isBetween(6_000L, 9_000L));
    }

    @Test
    void drawsOnlyTheRequestedKinds() {
        assertThat(FaultSchedule.plan(7, EnumSet.of(FaultKind.ROLLING_RESTART), 5, 1_000, 1_000))
                .extracting(FaultSchedule.Planned::kind).containsOnly(FaultKind.ROLLING_RESTART);
    }

    @Test
    void neverDrawsTheReshardingsWhichAreScheduledByCount() {
        assertThat(FaultSchedule.plan(7, EnumSet.of(FaultKind.RESHARD, FaultKind.RESHARD_ROLLBACK), 5, 1_000, 1_000))
                .isEmpty();
    }

    @Test
    void parsesDurationsAndRejectsGarbageByName() {
        assertThat(ChaosRunner.parseDuration("90s")).isEqualTo(90_000);
        assertThat(ChaosRunner.parseDuration("30m")).isEqualTo(1_800_000);
        assertThat(ChaosRunner.parseDuration("1h")).isEqualTo(3_600_000);
        assertThat(ChaosRunner.parseDuration("1500ms")).isEqualTo(1_500);
        assertThatThrownBy(() -> ChaosRunner.parseDuration("soon")).hasMessageContaining("--duration")
                .hasMessageContaining("'soon'");
    }
}
