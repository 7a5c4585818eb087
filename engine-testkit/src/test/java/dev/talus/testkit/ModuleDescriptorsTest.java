package dev.talus.testkit;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import java.lang.module.Configuration;
import java.lang.module.ModuleDescriptor;
import java.lang.module.ModuleFinder;
import java.lang.reflect.InvocationTargetException;
import java.lang.reflect.Method;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.Arrays;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.TreeMap;
import java.util.stream.Collectors;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * The tests run on the class path, so this test checks the module descriptors on a module path: the
 * engine's modules and their dependencies resolve under their module names (lz4-java as the
 * automatic module its manifest names), {@code dev.talus} exports the public API and nothing else
 * but the storage hook to the testkit, the storage modules export nothing to users, and a database
 * opened in a module layer writes, flushes and reads while its internals stay out of reach.
 */
class ModuleDescriptorsTest {
  /** The class path entries that make the module path: ours, and what they require. */
  private static final List<String> MODULE_ARTIFACTS =
      List.of(
          "engine-sstable",
          "engine-compaction",
          "engine-core",
          "engine-testfs",
          "engine-testkit",
          "slf4j-api",
          "lz4-java",
          "zstd-jni",
          "caffeine",
          "RoaringBitmap",
          "junit-jupiter-api",
          "junit-platform-commons",
          "opentest4j",
          "assertj-core");

  private static ModuleLayer layer;

  private static boolean isModuleArtifact(Path p) {
    String s = p.toString().replace('\\', '/');
    if (s.endsWith("/test-classes") || s.endsWith("-tests.jar")) {
      return false;
    }
    for (String a : MODULE_ARTIFACTS) {
      String name = p.getFileName().toString();
      if (name.startsWith(a + "-") || s.contains("/" + a + "/target/classes")) {
        return true;
      }
    }
    return false;
  }

  @BeforeAll
  static void resolve() {
    Path[] path =
        Arrays.stream(System.getProperty("java.class.path").split(java.io.File.pathSeparator))
            .map(Path::of)
            .filter(ModuleDescriptorsTest::isModuleArtifact)
            .toArray(Path[]::new);
    Configuration cf =
        ModuleLayer.boot()
            .configuration()
            .resolve(ModuleFinder.of(path), ModuleFinder.of(), Set.of("dev.talus.testkit"));
    layer = ModuleLayer.boot().defineModulesWithOneLoader(cf, ClassLoader.getSystemClassLoader());
  }

  private static ModuleDescriptor descriptor(String module) {
    return layer.findModule(module).orElseThrow().getDescriptor();
  }

  /** Exported package → target modules (empty for an unqualified export). */
  private static Map<String, Set<String>> exports(String module) {
    return descriptor(module).exports().stream()
        .collect(
            Collectors.toMap(
                ModuleDescriptor.Exports::source,
                ModuleDescriptor.Exports::targets,
                (a, b) -> a,
                TreeMap::new));
  }

  @Test
  void everyModuleResolvesUnderItsName() {
    assertThat(layer.modules().stream().map(Module::getName))
        .contains(
            "dev.talus",
            "dev.talus.sstable",
            "dev.talus.compaction",
            "dev.talus.testfs",
            "dev.talus.testkit",
            "org.slf4j",
            "org.lz4.java",
            "com.github.luben.zstd_jni",
            "com.github.benmanes.caffeine",
            "roaringbitmap");
    assertThat(descriptor("org.lz4.java").isAutomatic()).isTrue();
  }

  @Test
  void theEngineExportsThePublicApiAndTheStorageHookToTheTestkitOnly() {
    assertThat(exports("dev.talus"))
        .containsExactlyEntriesOf(
            new TreeMap<>(
                Map.of("dev.talus", Set.of(), "dev.talus.db", Set.of("dev.talus.testkit"))));
    assertThat(descriptor("dev.talus").packages())
        .contains("dev.talus.read", "dev.talus.write", "dev.talus.table", "dev.talus.commitlog");
    for (String storage : List.of("dev.talus.sstable", "dev.talus.compaction")) {
      assertThat(exports(storage).values()).as(storage).allMatch(targets -> !targets.isEmpty());
    }
    assertThat(exports("dev.talus.testkit")).containsOnlyKeys("dev.talus.testkit");
  }

  private static Object call(Object target, String name, Object... args) throws Exception {
    Class<?> type = target instanceof Class<?> c ? c : target.getClass();
    for (Method m : type.getMethods()) {
      if (m.getName().equals(name) && accepts(m.getParameterTypes(), args)) {
        try {
          return m.invoke(target instanceof Class<?> ? null : target, args);
        } catch (InvocationTargetException e) {
          throw (Exception) e.getCause();
        }
      }
    }
    throw new NoSuchMethodException(type.getName() + "." + name);
  }

  /** Overloads of the same arity exist (eq(String, Object), eq(List, List)): match the types. */
  private static boolean accepts(Class<?>[] params, Object[] args) {
    if (params.length != args.length) {
      return false;
    }
    for (int i = 0; i < params.length; i++) {
      Class<?> p = params[i].isPrimitive() ? boxed(params[i]) : params[i];
      if (args[i] != null && !p.isInstance(args[i])) {
        return false;
      }
    }
    return true;
  }

  private static Class<?> boxed(Class<?> primitive) {
    return java.lang.invoke.MethodType.methodType(primitive).wrap().returnType();
  }

  @SuppressWarnings({"unchecked", "rawtypes"})
  private static Object constant(ClassLoader loader, String enumType, String name)
      throws ClassNotFoundException {
    return Enum.valueOf((Class) loader.loadClass(enumType), name);
  }

  @Test
  void aDatabaseOpenedOnTheModulePathWorksAndKeepsItsInternalsToItself(@TempDir Path dir)
      throws Exception {
    ClassLoader loader = layer.findLoader("dev.talus");
    Class<?> talusDb = loader.loadClass("dev.talus.TalusDb");
    assertThat(talusDb.getModule().getName()).isEqualTo("dev.talus");
    Object options =
        call(
            call(
                call(loader.loadClass("dev.talus.TalusOptions"), "builder", dir),
                "backgroundCompaction",
                false),
            "build");
    Object schemaBuilder = call(loader.loadClass("dev.talus.TableSchema"), "builder", "kv");
    // DataType is a class of constants now (collections and user types are values too)
    Class<?> dataType = loader.loadClass("dev.talus.DataType");
    call(schemaBuilder, "partitionKey", "k", dataType.getField("INT").get(null));
    call(schemaBuilder, "column", "v", dataType.getField("TEXT").get(null));
    call(schemaBuilder, "compression", constant(loader, "dev.talus.Compression", "NONE"));
    Object db = call(talusDb, "open", options);
    try {
      Object table = call(db, "createTable", call(schemaBuilder, "build"));
      Object insert = call(table, "insert");
      call(insert, "value", "k", 1);
      call(insert, "value", "v", "on the module path");
      call(insert, "execute");
      call(table, "flush");
      Object rows = call(call(call(call(table, "select"), "eq", "k", 1), "execute"), "rows");
      assertThat(rows.toString()).contains("v=on the module path");
      assertThat(Files.list(dir.resolve("tables")).count()).isEqualTo(1);

      Class<?> database = loader.loadClass("dev.talus.db.Database");
      Method open = database.getMethod("open", options.getClass());
      assertThatThrownBy(() -> open.invoke(null, options))
          .isInstanceOf(IllegalAccessException.class)
          .hasMessageContaining("does not export dev.talus.db");
    } finally {
      call(db, "close");
    }
  }
}
