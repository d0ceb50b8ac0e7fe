package io.shardline.runtime;

import static com.tngtech.archunit.lang.syntax.ArchRuleDefinition.classes;
import static com.tngtech.archunit.lang.syntax.ArchRuleDefinition.noClasses;
import static com.tngtech.archunit.library.dependencies.SlicesRuleDefinition.slices;

import com.tngtech.archunit.base.DescribedPredicate;
import com.tngtech.archunit.core.domain.JavaClass;
import com.tngtech.archunit.core.domain.JavaClasses;
import com.tngtech.archunit.core.domain.PackageMatcher;
import com.tngtech.archunit.core.importer.ClassFileImporter;
import com.tngtech.archunit.core.importer.ImportOption;
import com.tngtech.archunit.library.dependencies.SliceAssignment;
import com.tngtech.archunit.library.dependencies.SliceIdentifier;
import io.shardline.runtime.worker.Worker;
import java.net.URISyntaxException;
import java.nio.file.Path;
import java.util.Arrays;
import java.util.List;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;

/**
 * The order of the runtime's packages (docs/architecture.md, "The runtime's packages"), top to bottom: a package
 * may use the packages below it, never one above it, and no two packages depend on each other in a cycle. A new
 * package must be given its place here. Moving something shared down (or passing it in) is how an import that
 * would run back up is avoided.
 */
class PackageOrderTest {

    private static final String BASE = "io.shardline.runtime";

    /** Top to bottom; each layer is one or more ArchUnit package patterns. */
    private static final List<Layer> ORDER = List.of(
            new Layer("cli", BASE + ".cli.."),
            new Layer("worker", BASE + ".worker.."),
            new Layer("rest", BASE + ".rest", BASE + ".rest.route..", BASE + ".rest.ui.."),
            new Layer("control", BASE + ".control.."),
            new Layer("config", BASE + ".config.."),
            new Layer("member", BASE + ".member.."),
            new Layer("listener", BASE + ".listener.."),
            new Layer("coordinator", BASE + ".coordinator.."),
            new Layer("reshard", BASE + ".reshard.."),
            new Layer("retention", BASE + ".retention.."),
            new Layer("shard", BASE + ".shard.."),
            new Layer("topology", BASE + ".topology.."),
            new Layer("metrics", BASE + ".metrics.."),
            new Layer("store", BASE + ".store.."),
            new Layer("cluster", BASE + ".cluster.."),
            new Layer("plugin", BASE + ".plugin.."),
            new Layer("rest.entity", BASE + ".rest.entity.."),
            new Layer("redis", BASE + ".redis.."));

    private static JavaClasses runtime;

    private record Layer(String name, String... packages) {

        boolean contains(JavaClass c) {
            return Arrays.stream(packages).anyMatch(p -> PackageMatcher.of(p).matches(c.getPackageName()));
        }
    }

    @BeforeAll
    static void importClasses() {
        // Only the runtime's own classes (its class folder or jar), not every location on the class path.
        Path location;
        try {
            location = Path.of(Worker.class.getProtectionDomain().getCodeSource().getLocation().toURI());
        } catch (URISyntaxException e) {
            throw new IllegalStateException(e);
        }
        runtime = new ClassFileImporter()
                .withImportOption(ImportOption.Predefined.DO_NOT_INCLUDE_TESTS)
                .importPath(location)
                .that(DescribedPredicate.describe("in " + BASE, (JavaClass c) -> c.getPackageName().startsWith(BASE)));
    }

    @Test
    void everyPackageHasItsPlace() {
        classes().should().resideInAnyPackage(ORDER.stream().flatMap(l -> Arrays.stream(l.packages()))
                        .toArray(String[]::new))
                .because("every runtime package has a place in the package order (add a new one to ORDER and to "
                        + "docs/architecture.md)")
                .check(runtime);
    }

    @Test
    void noImportRunsBackUp() {
        for (int i = 1; i < ORDER.size(); i++) {
            Layer layer = ORDER.get(i);
            String[] above = ORDER.subList(0, i).stream().flatMap(l -> Arrays.stream(l.packages()))
                    .toArray(String[]::new);
            noClasses().that().resideInAnyPackage(layer.packages())
                    .should().dependOnClassesThat().resideInAnyPackage(above)
                    .because(layer.name() + " is below " + ORDER.subList(0, i).stream().map(Layer::name).toList()
                            + " in the runtime's package order (docs/architecture.md): move the shared thing down, or "
                            + "pass it in")
                    .allowEmptyShould(true)
                    .check(runtime);
        }
    }

    @Test
    void noCyclesBetweenPackages() {
        slices().assignedFrom(new SliceAssignment() {
                    @Override
                    public SliceIdentifier getIdentifierOf(JavaClass c) {
                        return ORDER.stream().filter(l -> l.contains(c)).findFirst()
                                .map(l -> SliceIdentifier.of(l.name())).orElse(SliceIdentifier.ignore());
                    }

                    @Override
                    public String getDescription() {
                        return "the runtime's packages (rest.entity apart from the REST edge)";
                    }
                })
                .should().beFreeOfCycles()
                .check(runtime);
    }
}
