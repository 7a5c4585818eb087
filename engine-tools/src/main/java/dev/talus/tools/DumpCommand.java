package dev.talus.tools;

import dev.talus.ColumnDef;
import dev.talus.StoredPartition;
import dev.talus.StoredPartition.Deletion;
import dev.talus.StoredPartition.RangeDeletion;
import dev.talus.StoredPartition.StoredCell;
import dev.talus.StoredPartition.StoredRow;
import dev.talus.Table;
import dev.talus.TalusDb;
import java.io.PrintWriter;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.Callable;
import picocli.CommandLine.Command;
import picocli.CommandLine.Mixin;
import picocli.CommandLine.Option;
import picocli.CommandLine.Parameters;
import picocli.CommandLine.Spec;

/**
 * {@code talus dump DIR TABLE (--key v1,v2 | --all)}: what every memtable and SSTable holds for one
 * partition, or for every partition with a live row, as JSON, like sstabledump.
 */
@Command(
    name = "dump",
    mixinStandardHelpOptions = true,
    version = TalusCli.VERSION,
    description = {
      "Print, as JSON, what every source (memtable, SSTable) holds for one partition: partition"
          + " deletion, range tombstones, rows, cells with timestamps, TTLs and local deletion"
          + " times, tombstones and shadowed data — like sstabledump for one partition. Rows are"
          + " typed row or static_block; an element of a non-frozen collection or user type"
          + " shows its path (set element, map key, list element's timeuuid, field name), and a"
          + " whole collection's deletion (a delete, or an overwrite at its timestamp - 1) shows"
          + " as a deletion_info entry before the column's cells.",
      "Unlike sstabledump this works per table and partition key (or --all), not per SSTable"
          + " file."
    })
public final class DumpCommand implements Callable<Integer> {
  @Parameters(index = "0", paramLabel = "DIR", description = "The data directory.")
  Path dir;

  @Parameters(index = "1", paramLabel = "TABLE", description = "The table.")
  String table;

  @Option(
      names = {"-k", "--key"},
      split = ",",
      paramLabel = "VALUE",
      description =
          "The partition key values in schema order, comma-separated or repeated"
              + " (e.g. --key s-1,2026-09-01). Timestamps ISO-8601, dates yyyy-mm-dd,"
              + " blobs 0x…")
  List<String> key;

  @Option(
      names = "--all",
      description =
          "Dump every partition instead of one (a JSON array, one object per partition, in token"
              + " order), streaming: a paged scan finds the partitions, so memory holds one page"
              + " and one partition at a time. Partitions without a live row (only tombstones or"
              + " expired data) are not found by the scan and not dumped; name them with --key.")
  boolean all;

  @Option(
      names = "--page-size",
      defaultValue = "1000",
      paramLabel = "ROWS",
      description = "With --all: rows per page of the scan (default 1000).")
  int pageSize;

  @Mixin OpenOptions open;

  @Spec picocli.CommandLine.Model.CommandSpec spec;

  @Override
  public Integer call() {
    PrintWriter out = spec.commandLine().getOut();
    if (all == (key != null)) {
      throw new CliException(
          ExitCodes.USAGE,
          all ? "give --key or --all, not both" : "give the partition with --key, or --all");
    }
    if (pageSize < 1) {
      throw new CliException(ExitCodes.USAGE, "--page-size must be positive, got " + pageSize);
    }
    try (TalusDb db = DataDirs.openExisting(dir, open, spec.commandLine().getErr())) {
      Table t = DataDirs.table(db, table);
      if (all) {
        dumpAll(t, out);
      } else {
        Object[] values = parseKey(t, key);
        out.println(toJson(t, values, t.dump(values)));
      }
    }
    out.flush();
    return ExitCodes.OK;
  }

  /**
   * Every partition with a live row, as a JSON array written as it goes: a paged scan of the
   * partition key columns finds each partition once (rows come partition by partition, in token
   * order), and each is dumped when the scan reaches it.
   */
  private void dumpAll(Table t, PrintWriter out) {
    String[] pk = t.schema().partitionKey().stream().map(ColumnDef::name).toArray(String[]::new);
    out.print("[");
    List<Object> previous = null;
    boolean first = true;
    dev.talus.PagingState state = null;
    do {
      dev.talus.Select q = t.select().columns(pk).pageSize(pageSize);
      if (state != null) {
        q.pagingState(state);
      }
      dev.talus.ResultSet page = q.execute();
      for (dev.talus.ResultRow r : page) {
        List<Object> values = new ArrayList<>(pk.length);
        for (String c : pk) {
          values.add(r.get(c));
        }
        if (values.equals(previous)) {
          continue; // another row of the partition just dumped
        }
        previous = values;
        out.print(first ? "\n" : ",\n");
        first = false;
        Object[] key = values.toArray();
        out.print(toJson(t, key, t.dump(key)));
      }
      out.flush();
      state = page.pagingState().orElse(null);
    } while (state != null);
    out.println(first ? "]" : "\n]");
  }

  /** The partition key values of {@code t} parsed from text, in schema order. */
  static Object[] parseKey(Table t, List<String> text) {
    List<ColumnDef> pk = t.schema().partitionKey();
    if (text.size() != pk.size()) {
      throw new CliException(
          ExitCodes.ERROR,
          "table "
              + t.name()
              + " has partition key "
              + pk.stream().map(c -> c.name() + " " + c.type().cqlName()).toList()
              + ": give "
              + pk.size()
              + " value(s) with --key, got "
              + text.size());
    }
    Object[] values = new Object[pk.size()];
    for (int i = 0; i < values.length; i++) {
      values[i] = ValueParser.parse(pk.get(i), text.get(i));
    }
    return values;
  }

  static String toJson(Table t, Object[] key, List<StoredPartition> sources) {
    Json j = new Json().beginObject();
    j.field("table", t.name());
    j.name("partition_key").beginObject();
    List<ColumnDef> pk = t.schema().partitionKey();
    for (int i = 0; i < key.length; i++) {
      j.field(pk.get(i).name(), key[i]);
    }
    j.endObject();
    j.name("sources").beginArray();
    for (StoredPartition p : sources) {
      j.beginObject();
      j.field("source", p.source());
      if (p.partitionDeletion() != null) {
        j.name("partition_deletion");
        deletion(j, p.partitionDeletion());
      }
      if (!p.rangeTombstones().isEmpty()) {
        j.name("range_tombstones").beginArray();
        for (RangeDeletion r : p.rangeTombstones()) {
          j.beginObject().field("start", r.start()).field("end", r.end()).name("deletion");
          deletion(j, r.deletion());
          j.endObject();
        }
        j.endArray();
      }
      j.name("rows").beginArray();
      for (StoredRow r : p.rows()) {
        row(j, t, r);
      }
      j.endArray();
      j.endObject();
    }
    return j.endArray().endObject().toString();
  }

  private static void row(Json j, Table t, StoredRow r) {
    j.beginObject();
    j.field("type", r.isStatic() ? "static_block" : "row");
    j.name("clustering").beginObject();
    List<ColumnDef> ck = t.schema().clustering();
    for (int i = 0; i < r.clustering().size(); i++) {
      j.field(i < ck.size() ? ck.get(i).name() : "c" + i, r.clustering().get(i));
    }
    j.endObject();
    if (r.markerTimestampMicros() != null) {
      j.name("liveness_info").beginObject().field("tstamp", Fmt.micros(r.markerTimestampMicros()));
      if (r.markerExpirySeconds() != null) {
        j.field("expires_at", Fmt.seconds(r.markerExpirySeconds()));
      }
      j.endObject();
    }
    if (r.rowDeletion() != null) {
      j.name("row_deletion");
      deletion(j, r.rowDeletion());
    }
    j.name("cells").beginArray();
    // as sstabledump: a collection's deletion comes first among its column's cells
    List<StoredPartition.CollectionDeletion> pending = new ArrayList<>(r.collectionDeletions());
    for (StoredCell c : r.cells()) {
      pending.removeIf(
          d -> {
            if (!d.column().equals(c.column())) {
              return false;
            }
            collectionDeletion(j, d);
            return true;
          });
      j.beginObject().field("name", c.column());
      if (c.element() != null) {
        j.name("path").beginArray().value(c.element()).endArray();
      }
      j.field("kind", c.kind().name().toLowerCase());
      if (c.value() != null) {
        j.field("value", c.value());
      }
      j.field("tstamp", Fmt.micros(c.timestampMicros()));
      if (c.ttlSeconds() != 0) {
        j.field("ttl", c.ttlSeconds());
      }
      if (c.localDeletionTimeSeconds() != null) {
        j.field(
            c.kind() == StoredPartition.CellKind.EXPIRING ? "expires_at" : "local_delete_time",
            Fmt.seconds(c.localDeletionTimeSeconds()));
      }
      j.endObject();
    }
    for (StoredPartition.CollectionDeletion d : pending) {
      collectionDeletion(j, d);
    }
    j.endArray();
    j.endObject();
  }

  /** A whole collection's or user type's deletion, as sstabledump prints one. */
  private static void collectionDeletion(Json j, StoredPartition.CollectionDeletion d) {
    j.beginObject().field("name", d.column()).name("deletion_info");
    deletion(j, d.deletion());
    j.endObject();
  }

  private static void deletion(Json j, Deletion d) {
    j.beginObject()
        .field("marked_deleted", Fmt.micros(d.timestampMicros()))
        .field("local_delete_time", Fmt.seconds(d.localDeletionTimeSeconds()))
        .endObject();
  }
}
