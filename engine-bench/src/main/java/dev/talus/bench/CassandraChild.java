package dev.talus.bench;

import java.io.BufferedReader;
import java.io.IOException;
import java.io.InputStreamReader;
import java.io.PrintWriter;
import java.net.InetSocketAddress;
import java.net.ServerSocket;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.TimeUnit;

/**
 * Apache Cassandra 5.0 in a child JVM, for {@link DriverThroughput}: one node on loopback, with a
 * minimal {@code cassandra.yaml} written into {@code dir} (data, commit log, caches and hints under
 * it, free ports picked at start). Its classpath (the jars of {@code cassandra-all} and their
 * dependencies) comes from a file, one line of path-separated jars, as {@code mvn
 * dependency:build-classpath} writes it. The JVM options are those Cassandra's {@code
 * conf/jvm17-server.options} gives for JDK 17 (module opens and exports), with the jamm agent
 * Cassandra's start script adds. {@link #close()} stops it (SIGTERM, then kill).
 */
final class CassandraChild implements AutoCloseable {
  private static final String LISTENING = "Starting listening for CQL clients";

  private final Process process;
  private final InetSocketAddress address;
  private final long startMillis;

  private CassandraChild(Process process, InetSocketAddress address, long startMillis) {
    this.process = process;
    this.address = address;
    this.startMillis = startMillis;
  }

  /** From starting the child JVM to the node's log saying it listens for CQL clients, in ms. */
  long startMillis() {
    return startMillis;
  }

  /** The native protocol address the node listens on. */
  InetSocketAddress address() {
    return address;
  }

  static CassandraChild start(Path classpathFile, Path dir, String heap) throws Exception {
    String classpath = Files.readString(classpathFile).strip();
    String jamm = null;
    for (String jar : classpath.split(java.io.File.pathSeparator)) {
      if (jar.contains("jamm")) {
        jamm = jar;
      }
    }
    Files.createDirectories(dir);
    int nativePort = freePort();
    int storagePort = freePort();
    int jmxPort = freePort();
    Path yaml = dir.resolve("cassandra.yaml");
    Files.writeString(yaml, yaml(dir, nativePort, storagePort));
    List<String> cmd = new ArrayList<>();
    cmd.add(Path.of(System.getProperty("java.home"), "bin", "java").toString());
    cmd.addAll(List.of("-Xms" + heap, "-Xmx" + heap, "-XX:+UseG1GC"));
    if (jamm != null) {
      cmd.add("-javaagent:" + jamm);
    }
    cmd.add("-Djdk.attach.allowAttachSelf=true");
    for (String e :
        List.of(
            "java.base/jdk.internal.misc",
            "java.management.rmi/com.sun.jmx.remote.internal.rmi",
            "java.rmi/sun.rmi.registry",
            "java.rmi/sun.rmi.server",
            "java.sql/java.sql",
            "java.base/java.lang.ref",
            "jdk.unsupported/sun.misc",
            "jdk.compiler/com.sun.tools.javac.file",
            "jdk.attach/sun.tools.attach")) {
      cmd.add("--add-exports=" + e + "=ALL-UNNAMED");
    }
    for (String o :
        List.of(
            "java.base/java.lang.module",
            "java.base/jdk.internal.loader",
            "java.base/jdk.internal.ref",
            "java.base/jdk.internal.reflect",
            "java.base/jdk.internal.math",
            "java.base/jdk.internal.module",
            "java.base/jdk.internal.util.jar",
            "jdk.management/com.sun.management.internal",
            "java.base/sun.nio.ch",
            "java.base/java.io",
            "java.base/java.nio",
            "java.base/java.lang.reflect",
            "jdk.compiler/com.sun.tools.javac",
            "java.base/java.lang",
            "java.base/java.util")) {
      cmd.add("--add-opens=" + o + "=ALL-UNNAMED");
    }
    cmd.addAll(
        List.of(
            "-Dio.netty.tryReflectionSetAccessible=true",
            "-Dcassandra.config=" + yaml.toUri(),
            "-Dcassandra-foreground=yes",
            "-Dcassandra.storagedir=" + dir.resolve("data"),
            "-Dcassandra.jmx.local.port=" + jmxPort,
            "-Dcassandra.skip_wait_for_gossip_to_settle=0",
            "-cp",
            classpath,
            "org.apache.cassandra.service.CassandraDaemon"));
    long started = System.nanoTime();
    Process p = new ProcessBuilder(cmd).redirectErrorStream(true).start();
    CompletableFuture<Void> listening = new CompletableFuture<>();
    Path log = dir.resolve("cassandra.log");
    Thread pump =
        new Thread(
            () -> {
              try (BufferedReader r =
                      new BufferedReader(
                          new InputStreamReader(p.getInputStream(), StandardCharsets.UTF_8));
                  PrintWriter w = new PrintWriter(Files.newBufferedWriter(log))) {
                String line;
                while ((line = r.readLine()) != null) {
                  w.println(line);
                  if (line.contains(LISTENING)) {
                    w.flush();
                    listening.complete(null);
                  }
                }
              } catch (IOException e) {
                listening.completeExceptionally(e);
              }
              listening.completeExceptionally(
                  new IllegalStateException("Cassandra exited before it listened; see " + log));
            },
            "cassandra-log");
    pump.setDaemon(true);
    pump.start();
    try {
      listening.get(5, TimeUnit.MINUTES);
    } catch (Exception e) {
      p.destroyForcibly().waitFor();
      throw e;
    }
    long millis = TimeUnit.NANOSECONDS.toMillis(System.nanoTime() - started);
    return new CassandraChild(p, new InetSocketAddress("127.0.0.1", nativePort), millis);
  }

  private static String yaml(Path dir, int nativePort, int storagePort) {
    Path data = dir.resolve("data");
    return String.join(
        "\n",
        "cluster_name: talus-bench",
        "num_tokens: 16",
        "partitioner: org.apache.cassandra.dht.Murmur3Partitioner",
        "seed_provider:",
        "  - class_name: org.apache.cassandra.locator.SimpleSeedProvider",
        "    parameters:",
        "      - seeds: \"127.0.0.1:" + storagePort + "\"",
        "listen_address: 127.0.0.1",
        "rpc_address: 127.0.0.1",
        "storage_port: " + storagePort,
        "native_transport_port: " + nativePort,
        "start_native_transport: true",
        "endpoint_snitch: SimpleSnitch",
        "commitlog_sync: periodic",
        "commitlog_sync_period: 10000ms",
        "data_file_directories:",
        "  - " + data.resolve("data"),
        "commitlog_directory: " + data.resolve("commitlog"),
        "saved_caches_directory: " + data.resolve("saved_caches"),
        "hints_directory: " + data.resolve("hints"),
        "cdc_raw_directory: " + data.resolve("cdc_raw"),
        "");
  }

  private static int freePort() throws IOException {
    try (ServerSocket s = new ServerSocket(0)) {
      return s.getLocalPort();
    }
  }

  @Override
  public void close() {
    process.destroy();
    try {
      if (!process.waitFor(90, TimeUnit.SECONDS)) {
        process.destroyForcibly().waitFor();
      }
    } catch (InterruptedException e) {
      process.destroyForcibly();
      Thread.currentThread().interrupt();
    }
  }
}
