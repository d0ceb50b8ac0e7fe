package io.shardline.chaos;

import static org.assertj.core.api.Assertions.assertThat;

import java.time.LocalDateTime;
import java.time.ZoneId;
import java.time.ZoneOffset;
import java.util.ArrayList;
import java.util.List;
import org.junit.jupiter.api.Test;

class WorkerLogsTest {

    private static final ZoneId UTC = ZoneOffset.UTC;
    private static final long T0 = LocalDateTime.of(2026, 11, 29, 21, 19, 10).toInstant(ZoneOffset.UTC).toEpochMilli();

    @Test
    void selfFencesWithShardsAndLateRenewalsAreAttributedToTheFaultWindowTheyFallIn() {
        List<WorkerLogs.Finding> fences = new ArrayList<>();
        List<WorkerLogs.Finding> late = new ArrayList<>();
        for (String line : List.of(
                "2026-11-29 21:19:13,377 WARN  [vert.x-eventloop-thread-1] io.shardline.runtime.member.MemberVerticle - "
                        + "Member w3-chaos-m0: fencing itself, dropping [chaos:22, chaos:23]: no answer since the lease deadline 1 (now 2)",
                "2026-11-29 21:19:05,093 WARN  [vert.x-eventloop-thread-1] io.shardline.runtime.member.MemberVerticle - "
                        + "Member w1-chaos-m0: fencing itself, dropping []: no answer since the lease deadline 1 (now 2)",
                "2026-11-29 21:19:15,053 INFO  [vert.x-eventloop-thread-1] io.shardline.runtime.member.MemberVerticle - "
                        + "Member w3-chaos-m0: lease renewed by w3 after 3632 ms without a renewal (lease now ends in 307 ms)",
                "2026-11-29 21:25:15,053 INFO  [vert.x-eventloop-thread-1] io.shardline.runtime.member.MemberVerticle - "
                        + "Member w2-chaos-m0: lease renewed by w3 after 1100 ms without a renewal (lease now ends in 900 ms)",
                "21:19:15.053 INFO  [vert.x-eventloop-thread-1] console line without a date is ignored",
                "2026-11-29 21:19:15,100 INFO  [main] something else")) {
            WorkerLogs.parse(line, UTC, fences, late);
        }
        assertThat(fences).extracting(WorkerLogs.Finding::member).containsExactly("w3-chaos-m0");
        assertThat(fences.get(0).atMs()).isEqualTo(T0 + 3_377);
        assertThat(late).extracting(WorkerLogs.Finding::gapMs).containsExactly(3632L, 1100L);

        List<FaultEvent> faults = List.of(new FaultEvent(FaultKind.ROLLING_RESTART, "all", T0, T0 + 60_000));
        List<String> lines = WorkerLogs.render(new WorkerLogs.Summary(fences, late), faults, 3_000);
        assertThat(lines).hasSize(2);
        assertThat(lines.get(0)).contains("ROLLING_RESTART").contains("self-fences with shards 1")
                .contains("later than 2 heartbeats 1").contains("longest gap 3632 ms");
        assertThat(lines.get(1)).contains("no fault").contains("self-fences with shards 0").contains("longest gap 1100 ms");
    }
}
