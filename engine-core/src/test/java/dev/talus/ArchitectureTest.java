package dev.talus;

import static com.tngtech.archunit.lang.syntax.ArchRuleDefinition.codeUnits;
import static com.tngtech.archunit.lang.syntax.ArchRuleDefinition.fields;
import static com.tngtech.archunit.lang.syntax.ArchRuleDefinition.noClasses;
import static org.assertj.core.api.Assertions.assertThat;

import com.tngtech.archunit.base.DescribedPredicate;
import com.tngtech.archunit.core.domain.AccessTarget;
import com.tngtech.archunit.core.domain.JavaClass;
import com.tngtech.archunit.core.domain.JavaClasses;
import com.tngtech.archunit.core.domain.JavaCodeUnit;
import com.tngtech.archunit.core.domain.JavaField;
import com.tngtech.archunit.core.domain.JavaModifier;
import com.tngtech.archunit.core.importer.ClassFileImporter;
import com.tngtech.archunit.core.importer.ImportOption;
import com.tngtech.archunit.lang.ArchCondition;
import com.tngtech.archunit.lang.ConditionEvents;
import com.tngtech.archunit.lang.SimpleConditionEvent;
import com.tngtech.archunit.library.dependencies.SliceAssignment;
import com.tngtech.archunit.library.dependencies.SliceIdentifier;
import com.tngtech.archunit.library.dependencies.SlicesRuleDefinition;
import dev.talus.io.NioStorageFs;
import dev.talus.io.StorageFs;
import java.io.IOException;
import java.nio.channels.FileChannel;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.Set;
import java.util.stream.Stream;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;

/**
 * The layering of design.md, checked on the main classes of engine-core, engine-compaction and
 * engine-sstable (everything under {@code dev.talus} on the test class path, tests excluded).
 */
class ArchitectureTest {
  /** The public API package itself, without its sub-packages. */
  private static final String API = "dev.talus";

  /**
   * Packages that may read the wall clock directly: commit-log sync cadence, compaction throttle,
   * latency measurement.
   */
  private static final String[] WALL_CLOCK_ALLOWED = {
    "dev.talus.commitlog..", "dev.talus.compaction..", "dev.talus.metrics.."
  };

  /**
   * The public API classes that reach the engine (through the seam); every other class of {@link
   * #API} is a value (schemas, options, results, exceptions) and reaches nothing below the API.
   */
  private static final Set<String> API_ENTRY_POINTS =
      Set.of(
          "TalusDb",
          "Table",
          "AlterTable",
          "Batch",
          "Select",
          "PreparedSelect",
          "PreparedInsert",
          "Insert",
          "Update",
          "Delete",
          "Buckets",
          "ConditionalWrites",
          "Aggregator",
          "ValueOrder");

  /** The seam: the only internal packages the API's entry points may use. */
  private static final String[] SEAM = {"dev.talus.db..", "dev.talus.request.."};

  /** Main code files (every module) longer than this are asking to be split. */
  private static final int MAX_MAIN_FILE_LINES = 500;

  private static JavaClasses classes;

  @BeforeAll
  static void importClasses() {
    // engine-testfs is on the test class path too; it is test support, not a production jar
    classes =
        new ClassFileImporter()
            .withImportOption(ImportOption.Predefined.DO_NOT_INCLUDE_TESTS)
            .importPackages("dev.talus")
            .that(
                DescribedPredicate.not(
                    JavaClass.Predicates.resideInAPackage("dev.talus.testfs..")));
  }

  @Test
  void theImportSeesEveryModuleOnTheClassPath() {
    // Guards the rules below against passing on an empty import.
    org.assertj.core.api.Assertions.assertThat(
            classes.stream().map(JavaClass::getPackageName).distinct().toList())
        .contains("dev.talus", "dev.talus.db", "dev.talus.data", "dev.talus.io")
        .doesNotContain("dev.talus.testfs");
  }

  @Test
  void storageLayerDoesNotDependOnTheLayersAboveIt() {
    noClasses()
        .that()
        .resideInAnyPackage("dev.talus.data..", "dev.talus.io..", "dev.talus.sstable..")
        .should()
        .dependOnClassesThat()
        .resideInAnyPackage(
            API,
            "dev.talus.db..",
            "dev.talus.request..",
            "dev.talus.schema..",
            "dev.talus.table..",
            "dev.talus.read..",
            "dev.talus.write..",
            "dev.talus.runtime..",
            "dev.talus.memtable..",
            "dev.talus.commitlog..",
            "dev.talus.compaction..")
        .because("engine-sstable knows nothing of schemas, the API or the engine (design.md)")
        .check(classes);
  }

  @Test
  void compactionDoesNotDependOnTheApiOrTheEngine() {
    noClasses()
        .that()
        .resideInAPackage("dev.talus.compaction..")
        .should()
        .dependOnClassesThat()
        .resideInAnyPackage(
            API,
            "dev.talus.db..",
            "dev.talus.request..",
            "dev.talus.schema..",
            "dev.talus.table..",
            "dev.talus.read..",
            "dev.talus.write..",
            "dev.talus.runtime..",
            "dev.talus.memtable..",
            "dev.talus.commitlog..")
        .because("engine-compaction knows SSTables and the data model, never the public API")
        .allowEmptyShould(true)
        .check(classes);
  }

  @Test
  void onlyTheFileLayerUsesFileChannelAndFiles() {
    noClasses()
        .that()
        .resideOutsideOfPackage("dev.talus.io..")
        .should()
        .dependOnClassesThat()
        .belongToAnyOf(FileChannel.class, Files.class)
        .because("all file I/O passes through one layer so tests can inject faults")
        .check(classes);
  }

  private static DescribedPredicate<AccessTarget.MethodCallTarget> method(
      Class<?> owner, String name) {
    return DescribedPredicate.describe(
        owner.getSimpleName() + "." + name + "()",
        t -> t.getOwner().isEquivalentTo(owner) && t.getName().equals(name));
  }

  @Test
  void noWallClockReadsOutsideTheAllowedPackages() {
    noClasses()
        .that()
        .resideOutsideOfPackages(WALL_CLOCK_ALLOWED)
        .should()
        .callMethodWhere(
            DescribedPredicate.describe(
                "System.currentTimeMillis() or System.nanoTime()",
                call ->
                    method(System.class, "currentTimeMillis").test(call.getTarget())
                        || method(System.class, "nanoTime").test(call.getTarget())))
        .because("every \"now\" comes from the injected clock (design decision 4)")
        .check(classes);
  }

  @Test
  void noMainCodeSleeps() {
    noClasses()
        .should()
        .callMethodWhere(
            DescribedPredicate.describe(
                "Thread.sleep(...)", call -> method(Thread.class, "sleep").test(call.getTarget())))
        .because("nothing sleeps; tests move a manual clock")
        .check(classes);
  }

  @Test
  void noMainCodeWritesToStandardOutOrErr() {
    noClasses()
        .should()
        .accessField(System.class, "out")
        .orShould()
        .accessField(System.class, "err")
        .orShould()
        .callMethodWhere(
            DescribedPredicate.describe(
                "Throwable.printStackTrace()",
                call ->
                    call.getTarget().getName().equals("printStackTrace")
                        && call.getTarget().getOwner().isAssignableTo(Throwable.class)))
        .because("a library logs through slf4j; only engine-tools prints")
        .check(classes);
  }

  /** Every package under dev.talus but the API itself is internal. */
  private static boolean isInternal(JavaClass c) {
    JavaClass base = c;
    while (base.isArray()) {
      base = base.getComponentType();
    }
    return base.getPackageName().startsWith(API + ".");
  }

  private static final DescribedPredicate<JavaClass> INTERNAL_CLASS =
      DescribedPredicate.describe("internal classes", ArchitectureTest::isInternal);

  private static boolean isApiEntryPoint(JavaClass c) {
    if (!c.getPackageName().equals(API)) {
      return false;
    }
    String top = c.getName().substring(API.length() + 1);
    int nested = top.indexOf('$');
    return API_ENTRY_POINTS.contains(nested < 0 ? top : top.substring(0, nested));
  }

  private static final DescribedPredicate<JavaClass> API_ENTRY_POINT =
      DescribedPredicate.describe("the API's entry points", ArchitectureTest::isApiEntryPoint);

  @Test
  void theApiReachesTheEngineOnlyThroughTheSeam() {
    noClasses()
        .that()
        .resideInAPackage(API)
        .should()
        .dependOnClassesThat(
            DescribedPredicate.describe(
                "internal classes outside the seam " + List.of(SEAM),
                c -> isInternal(c) && !JavaClass.Predicates.resideInAnyPackage(SEAM).test(c)))
        .because(
            "the API reaches the engine through one seam: db.Database, db.TableHandle and"
                + " the request records")
        .check(classes);
  }

  @Test
  void onlyTheApiEntryPointsReachBelowTheApi() {
    noClasses()
        .that()
        .resideInAPackage(API)
        .and(DescribedPredicate.not(API_ENTRY_POINT))
        .should()
        .dependOnClassesThat(INTERNAL_CLASS)
        .because(
            "the API's values (schemas, options, results, exceptions) sit below the engine, which"
                + " uses them; only the entry points sit above it")
        .check(classes);
  }

  /**
   * No package cycles anywhere under dev.talus. The API package is two layers — its values, which
   * the engine uses, and its entry points, which use the engine through the seam — so it is two
   * slices; every other package is one.
   */
  @Test
  void noPackageCycles() {
    SliceAssignment byPackage =
        new SliceAssignment() {
          @Override
          public SliceIdentifier getIdentifierOf(JavaClass c) {
            if (c.getPackageName().equals(API)) {
              return SliceIdentifier.of(isApiEntryPoint(c) ? "dev.talus (entry points)" : API);
            }
            if (isInternal(c)) {
              return SliceIdentifier.of(c.getPackageName());
            }
            return SliceIdentifier.ignore();
          }

          @Override
          public String getDescription() {
            return "packages under dev.talus, the API split into values and entry points";
          }
        };
    SlicesRuleDefinition.slices().assignedFrom(byPackage).should().beFreeOfCycles().check(classes);
  }

  @Test
  void noTestDoubleInTheProductionJars() {
    noClasses()
        .should()
        .dependOnClassesThat()
        .resideInAnyPackage(
            "org.junit..", "org.assertj..", "dev.talus.testfs..", "dev.talus.testkit..")
        .orShould()
        .haveNameMatching(".*(Fake|Mock|Stub|FaultInject|Failing)[^.]*")
        .because("test doubles live in engine-testfs and engine-testkit, never in a production jar")
        .check(classes);
    com.tngtech.archunit.lang.syntax.ArchRuleDefinition.classes()
        .that()
        .implement(StorageFs.class)
        .should()
        .haveFullyQualifiedName(NioStorageFs.class.getName())
        .because("the production jars hold the real file layer only")
        .check(classes);
  }

  @Test
  void noMainCodeFileIsLongerThan500Lines() throws IOException {
    Path root = Path.of("").toAbsolutePath().getParent();
    List<Path> files;
    try (Stream<Path> modules = Files.list(root)) {
      files =
          modules
              .map(m -> m.resolve("src/main/java"))
              .filter(Files::isDirectory)
              .flatMap(ArchitectureTest::javaFiles)
              .toList();
    }
    assertThat(files.stream().map(f -> root.relativize(f).getName(0).toString()).distinct())
        .as("modules scanned")
        .contains("engine-core", "engine-sstable", "engine-compaction");
    List<String> tooLong = new ArrayList<>();
    for (Path f : files) {
      long lines;
      try (Stream<String> l = Files.lines(f)) {
        lines = l.count();
      }
      if (lines > MAX_MAIN_FILE_LINES) {
        tooLong.add(root.relativize(f) + " (" + lines + " lines)");
      }
    }
    assertThat(tooLong).as("main code files over " + MAX_MAIN_FILE_LINES + " lines").isEmpty();
  }

  private static Stream<Path> javaFiles(Path dir) {
    try (Stream<Path> s = Files.walk(dir)) {
      return s.filter(p -> p.toString().endsWith(".java")).toList().stream();
    } catch (IOException e) {
      throw new java.io.UncheckedIOException(e);
    }
  }

  private static final ArchCondition<JavaCodeUnit> EXPOSE_NO_INTERNAL_TYPES =
      new ArchCondition<>("expose no internal types in their signature") {
        @Override
        public void check(JavaCodeUnit unit, ConditionEvents events) {
          List<JavaClass> used = new ArrayList<>();
          used.add(unit.getRawReturnType());
          used.addAll(unit.getRawParameterTypes());
          used.addAll(unit.getThrowsClause().getTypes());
          unit.getReturnType().getAllInvolvedRawTypes().forEach(used::add);
          unit.getParameterTypes().forEach(p -> used.addAll(p.getAllInvolvedRawTypes()));
          for (JavaClass c : used) {
            if (isInternal(c)) {
              events.add(
                  SimpleConditionEvent.violated(
                      unit, unit.getFullName() + " exposes internal type " + c.getName()));
            }
          }
        }
      };

  private static final DescribedPredicate<JavaClass> PUBLIC_API_CLASS =
      DescribedPredicate.describe(
          "public classes of " + API,
          c -> c.getPackageName().equals(API) && isPublicAllTheWayOut(c));

  private static boolean isPublicAllTheWayOut(JavaClass c) {
    for (JavaClass x = c; x != null; x = x.getEnclosingClass().orElse(null)) {
      if (!x.getModifiers().contains(JavaModifier.PUBLIC)) {
        return false;
      }
    }
    return true;
  }

  @Test
  void publicApiSignaturesExposeNoInternalTypes() {
    codeUnits()
        .that()
        .areDeclaredInClassesThat(PUBLIC_API_CLASS)
        .and(
            DescribedPredicate.describe(
                "are public or protected",
                u ->
                    u.getModifiers().contains(JavaModifier.PUBLIC)
                        || u.getModifiers().contains(JavaModifier.PROTECTED)))
        .should(EXPOSE_NO_INTERNAL_TYPES)
        .because("users depend on dev.talus alone; internals may change freely")
        .check(classes);
  }

  @Test
  void publicApiFieldsExposeNoInternalTypes() {
    fields()
        .that()
        .areDeclaredInClassesThat(PUBLIC_API_CLASS)
        .and()
        .arePublic()
        .should(
            new ArchCondition<JavaField>("have no internal type") {
              @Override
              public void check(JavaField f, ConditionEvents events) {
                if (isInternal(f.getRawType())) {
                  events.add(
                      SimpleConditionEvent.violated(
                          f, f.getFullName() + " has internal type " + f.getRawType().getName()));
                }
              }
            })
        .allowEmptyShould(true)
        .check(classes);
  }

  @Test
  void publicApiClassesDoNotExtendOrImplementInternalTypes() {
    com.tngtech.archunit.lang.syntax.ArchRuleDefinition.classes()
        .that(PUBLIC_API_CLASS)
        .should(
            new ArchCondition<JavaClass>("extend or implement no internal type") {
              @Override
              public void check(JavaClass c, ConditionEvents events) {
                List<JavaClass> supers = new ArrayList<>();
                c.getRawSuperclass().ifPresent(supers::add);
                supers.addAll(c.getRawInterfaces());
                for (JavaClass s : supers) {
                  if (isInternal(s)) {
                    events.add(
                        SimpleConditionEvent.violated(
                            c, c.getName() + " extends internal type " + s.getName()));
                  }
                }
              }
            })
        .check(classes);
  }
}
