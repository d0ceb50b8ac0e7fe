package io.shardline.coordinator;

import static com.tngtech.archunit.lang.syntax.ArchRuleDefinition.noClasses;

import com.tngtech.archunit.core.domain.JavaClasses;
import com.tngtech.archunit.core.importer.ClassFileImporter;
import com.tngtech.archunit.core.importer.ImportOption;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;

/**
 * The coordinator is pure (docs/architecture.md): no clocks it did not get from its caller, no unseeded
 * randomness, no threads or executors, no I/O. The Maven Enforcer keeps Vert.x, Hazelcast and Redis
 * clients off its class path; these rules keep the JDK's impure corners out of its code.
 */
class PurityRulesTest {

    private static JavaClasses coordinator;

    @BeforeAll
    static void importClasses() {
        coordinator = new ClassFileImporter()
                .withImportOption(ImportOption.Predefined.DO_NOT_INCLUDE_TESTS)
                .importPackages("io.shardline.coordinator");
    }

    @Test
    void readsNoClock() {
        noClasses().should().callMethod(System.class, "currentTimeMillis")
                .orShould().callMethod(System.class, "nanoTime")
                .orShould().callMethod(java.time.Instant.class, "now")
                .orShould().callMethod(java.time.LocalDateTime.class, "now")
                .orShould().callMethod(java.time.Clock.class, "systemUTC")
                .orShould().callMethod(java.time.Clock.class, "systemDefaultZone")
                .because("time is an argument in the coordinator")
                .allowEmptyShould(true)
                .check(coordinator);
    }

    @Test
    void usesNoUnseededRandomness() {
        noClasses().should().callConstructor(java.util.Random.class)
                .orShould().dependOnClassesThat().haveFullyQualifiedName("java.util.concurrent.ThreadLocalRandom")
                .orShould().callMethod(Math.class, "random")
                .orShould().callMethod(java.util.UUID.class, "randomUUID")
                .because("randomness is injected and seeded in the coordinator")
                .allowEmptyShould(true)
                .check(coordinator);
    }

    @Test
    void startsNoThreadsAndDoesNoIo() {
        noClasses().should().dependOnClassesThat().resideInAnyPackage("java.io..", "java.nio..", "java.net..")
                .orShould().dependOnClassesThat().haveFullyQualifiedName(Thread.class.getName())
                .orShould().dependOnClassesThat().resideInAPackage("java.util.concurrent..")
                .because("the coordinator has no I/O and no threads; the runtime hosts it")
                .allowEmptyShould(true)
                .check(coordinator);
    }
}
