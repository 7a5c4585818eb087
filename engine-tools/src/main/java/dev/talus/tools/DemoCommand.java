package dev.talus.tools;

import dev.talus.ClusteringOrder;
import dev.talus.DataType;
import dev.talus.InvalidQueryException;
import dev.talus.ManualClock;
import dev.talus.ResultRow;
import dev.talus.Table;
import dev.talus.TableSchema;
import dev.talus.TalusDb;
import dev.talus.TalusOptions;
import java.io.IOException;
import java.io.PrintStream;
import java.io.PrintWriter;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.time.Instant;
import java.util.UUID;
import java.util.concurrent.Callable;
import picocli.CommandLine.Command;
import picocli.CommandLine.Option;
import picocli.CommandLine.Spec;

/**
 * The chat and IoT examples from the data-modeling guide, end to end. Chat: four tables, one per
 * query, written together for each message, then each query run and printed. IoT: readings bucketed
 * by day with a TTL and time-window compaction, deletes, flushes, the clock moved past TTL and
 * gc_grace, and the table's statistics before and after. Uses a manual clock so the output is the
 * same on every run.
 */
@Command(
    name = "demo",
    mixinStandardHelpOptions = true,
    version = TalusCli.VERSION,
    description = {
      "Model the chat example (one table per query), write messages, run the queries;",
      "then the IoT example (day buckets, TTL, time-window compaction): writes, queries, deletes,",
      "flush, compaction, the clock moved past TTL and gc_grace, stats before and after."
    })
public final class DemoCommand implements Callable<Integer> {
  @Option(
      names = "--dir",
      description = "Data directory (default: a new temporary directory, deleted afterwards).")
  Path dir;

  @Spec picocli.CommandLine.Model.CommandSpec spec;

  private PrintWriter out;

  public DemoCommand() {}

  DemoCommand(PrintStream out) {
    this.out = new PrintWriter(out, true);
  }

  @Override
  public Integer call() throws IOException {
    if (out == null) {
      out = spec.commandLine().getOut();
    }
    boolean temp = dir == null;
    Path d = temp ? Files.createTempDirectory("talus-demo") : dir;
    try {
      run(d);
      return 0;
    } finally {
      if (temp) {
        deleteTree(d);
      }
    }
  }

  void run(Path d) {
    ManualClock clock = new ManualClock(Instant.parse("2026-09-01T09:00:00Z"));
    // compactions run when the demo asks, so the statistics it prints are the same every run
    try (TalusDb db =
        TalusDb.open(TalusOptions.builder(d).clock(clock).backgroundCompaction(false).build())) {
      out.println("Talus demo — the chat example, one table per query (data in " + d + ")");
      Table byRoom =
          db.createTableIfNotExists(
              TableSchema.builder("messages_by_room")
                  .partitionKey("room_id", DataType.UUID)
                  .partitionKey("bucket", DataType.TEXT)
                  .clusteringColumn("sent_at", DataType.TIMESTAMP, ClusteringOrder.DESC)
                  .clusteringColumn("message_id", DataType.TIMEUUID, ClusteringOrder.DESC)
                  .column("sender", DataType.TEXT)
                  .column("body", DataType.TEXT)
                  .build());
      Table bySender =
          db.createTableIfNotExists(
              TableSchema.builder("messages_by_sender")
                  .partitionKey("sender", DataType.TEXT)
                  .partitionKey("bucket", DataType.TEXT)
                  .clusteringColumn("sent_at", DataType.TIMESTAMP, ClusteringOrder.DESC)
                  .clusteringColumn("message_id", DataType.TIMEUUID, ClusteringOrder.DESC)
                  .column("room_id", DataType.UUID)
                  .column("body", DataType.TEXT)
                  .build());
      Table byId =
          db.createTableIfNotExists(
              TableSchema.builder("messages_by_id")
                  .partitionKey("message_id", DataType.TIMEUUID)
                  .column("room_id", DataType.UUID)
                  .column("sender", DataType.TEXT)
                  .column("sent_at", DataType.TIMESTAMP)
                  .column("body", DataType.TEXT)
                  .build());
      Table roomsByUser =
          db.createTableIfNotExists(
              TableSchema.builder("rooms_by_user")
                  .partitionKey("user_id", DataType.TEXT)
                  .clusteringColumn("room_id", DataType.UUID)
                  .column("joined_at", DataType.TIMESTAMP)
                  .column("room_name", DataType.TEXT)
                  .build());

      UUID general = UUID.fromString("00000000-0000-4000-8000-000000000042");
      UUID random = UUID.fromString("00000000-0000-4000-8000-000000000099");
      join(roomsByUser, clock, "alice", general, "general");
      join(roomsByUser, clock, "alice", random, "random");
      join(roomsByUser, clock, "bob", general, "general");

      String[][] script = {
        {"alice", "morning"},
        {"bob", "hi"},
        {"carol", "hello"},
        {"alice", "lunch?"},
        {"bob", "sure, 12:30"},
      };
      UUID lastId = null;
      for (String[] m : script) {
        clock.advance(Duration.ofMinutes(7));
        lastId = send(db, byRoom, bySender, byId, general, m[0], m[1]);
      }
      String bucket = "2026-09";

      out.println();
      out.println("Q1  latest 3 messages in room 'general' (newest first):");
      for (ResultRow r :
          byRoom.select().eq("room_id", general).eq("bucket", bucket).limit(3).execute()) {
        out.printf(
            "    %s  %-6s %s%n",
            r.getInstant("sent_at"), r.getString("sender"), r.getString("body"));
      }

      out.println();
      out.println("Q2  everything alice sent this month:");
      for (ResultRow r : bySender.select().eq("sender", "alice").eq("bucket", bucket).execute()) {
        out.printf("    %s  %s%n", r.getInstant("sent_at"), r.getString("body"));
      }

      out.println();
      out.println("Q3  message " + lastId + " by id:");
      byId.select()
          .eq("message_id", lastId)
          .one()
          .ifPresent(
              r -> out.printf("    %s said '%s'%n", r.getString("sender"), r.getString("body")));

      out.println();
      out.println("Q4  rooms alice belongs to:");
      for (ResultRow r : roomsByUser.select().eq("user_id", "alice").execute()) {
        out.printf("    %s (%s)%n", r.getString("room_name"), r.getUuid("room_id"));
      }

      out.println();
      out.println("A query the table was not designed for is refused with the rule and the fix:");
      try {
        byRoom
            .select()
            .eq("room_id", general)
            .eq("bucket", bucket)
            .eq("message_id", lastId)
            .execute();
      } catch (InvalidQueryException e) {
        out.println("    " + e.getMessage());
      }

      out.println();
      out.println("TTL: a typing indicator that lives 10 seconds");
      UUID indicator = db.timeUuids().next();
      byId.insert()
          .value("message_id", indicator)
          .value("sender", "bob")
          .value("body", "…")
          .ttl(Duration.ofSeconds(10))
          .execute();
      out.println(
          "    at t+0s:  indicator visible = "
              + byId.select().eq("message_id", indicator).one().isPresent()
              + ", ttl = "
              + byId.select().eq("message_id", indicator).one().map(r -> r.ttl("body")).orElse(null)
              + " s");
      clock.advance(Duration.ofSeconds(10));
      out.println(
          "    at t+10s: indicator visible = "
              + byId.select().eq("message_id", indicator).one().isPresent());

      new IotDemo(db, clock, out).run();
    }
    out.flush();
  }

  private static void join(
      Table roomsByUser, ManualClock clock, String user, UUID room, String name) {
    roomsByUser
        .insert()
        .value("user_id", user)
        .value("room_id", room)
        .value("joined_at", clock.instant())
        .value("room_name", name)
        .execute();
  }

  private static UUID send(
      TalusDb db, Table byRoom, Table bySender, Table byId, UUID room, String sender, String body) {
    UUID id = db.timeUuids().next();
    Instant at = db.clock().instant();
    String bucket = "2026-09";
    byRoom
        .insert()
        .value("room_id", room)
        .value("bucket", bucket)
        .value("sent_at", at)
        .value("message_id", id)
        .value("sender", sender)
        .value("body", body)
        .execute();
    bySender
        .insert()
        .value("sender", sender)
        .value("bucket", bucket)
        .value("sent_at", at)
        .value("message_id", id)
        .value("room_id", room)
        .value("body", body)
        .execute();
    byId.insert()
        .value("message_id", id)
        .value("room_id", room)
        .value("sender", sender)
        .value("sent_at", at)
        .value("body", body)
        .execute();
    return id;
  }

  private static void deleteTree(Path d) throws IOException {
    if (!Files.exists(d)) {
      return;
    }
    try (var s = Files.walk(d)) {
      for (Path p : s.sorted(java.util.Comparator.reverseOrder()).toList()) {
        Files.deleteIfExists(p);
      }
    }
  }
}
