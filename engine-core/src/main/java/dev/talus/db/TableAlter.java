package dev.talus.db;

import dev.talus.ColumnDef;
import dev.talus.InvalidQueryException;
import dev.talus.StorageException;
import dev.talus.TableSchema;
import dev.talus.request.AlterRequest;
import dev.talus.schema.DroppedColumn;
import dev.talus.schema.KeyCodec;
import dev.talus.table.TableStore;
import java.io.IOException;
import java.util.ArrayList;
import java.util.List;

/**
 * ALTER TABLE, under the database's lock: works out the new schema and dropped columns from the
 * requested changes, stores both in one atomic rewrite of the schema file (the durable point: a
 * crash leaves the old schema or the new one), then switches the table's store to them. Nothing in
 * a table's files changes: an added column has no cells yet, a dropped column's cells stay on disk
 * under an id no live column uses (reads ignore them at once, compactions leave them out), and a
 * renamed key column is stored by position, not by name. Stateless.
 *
 * <p>The rules and messages follow Cassandra's ALTER TABLE ({@code
 * cql3/statements/schema/AlterTableStatement.java}): only regular and static columns are added or
 * dropped, only primary key columns are renamed, and no column changes its type.
 */
final class TableAlter {
  private TableAlter() {}

  /** Applies {@code req} to the table of {@code h}; returns the new schema. */
  static TableSchema alter(Database db, TableHandle h, AlterRequest req) {
    db.ctx.checkWritable();
    TableStore store = h.store();
    KeyCodec keys = store.keys();
    TableSchema s = keys.schema();
    List<DroppedColumn> dropped = new ArrayList<>(keys.dropped());
    long now = db.ctx.nextTimestamp();
    for (AlterRequest.Op op : req.ops()) {
      if (op instanceof AlterRequest.AddColumn a) {
        if (s.column(a.name()).isPresent()) {
          throw new InvalidQueryException(
              "Column with name '" + a.name() + "' already exists in table " + s.name());
        }
        UserTypes.checkDefined(db.catalog, a.type(), "table " + s.name());
        TableSchema.Builder b = s.toBuilder();
        s =
            (a.isStatic() ? b.staticColumn(a.name(), a.type()) : b.column(a.name(), a.type()))
                .build();
      } else if (op instanceof AlterRequest.DropColumn d) {
        ColumnDef c = existing(s, d.name());
        if (c.isPrimaryKey()) {
          throw new InvalidQueryException("Cannot drop PRIMARY KEY column " + c.name());
        }
        List<String> indexed = TableIndexes.onColumn(db, store, c.name());
        if (!indexed.isEmpty()) {
          throw new InvalidQueryException(
              "Cannot drop column "
                  + c.name()
                  + " because it has dependent secondary indexes ("
                  + String.join(", ", indexed)
                  + "); drop them first with DROP INDEX");
        }
        int id = new KeyCodec(s, dropped).regularId(c.name());
        dropped.add(new DroppedColumn(c.name(), c.type(), c.kind(), id, now));
        List<ColumnDef> cols = new ArrayList<>(s.columns());
        cols.remove(c);
        s = withColumns(s, cols);
      } else if (op instanceof AlterRequest.RenameColumn r) {
        ColumnDef c = existing(s, r.from());
        if (!c.isPrimaryKey()) {
          throw new InvalidQueryException(
              "Cannot rename non PRIMARY KEY column "
                  + c.name()
                  + " (Cassandra renames only partition key and clustering columns; drop it"
                  + " and add a new column instead, which starts empty)");
        }
        List<String> indexed = TableIndexes.onColumn(db, store, c.name());
        if (!indexed.isEmpty()) {
          throw new InvalidQueryException(
              "Cannot rename column "
                  + c.name()
                  + " because it has dependent secondary indexes ("
                  + String.join(", ", indexed)
                  + ")");
        }
        if (s.column(r.to()).isPresent()) {
          throw new InvalidQueryException(
              "Cannot rename column "
                  + c.name()
                  + " to "
                  + r.to()
                  + " in table "
                  + s.name()
                  + "; another column of that name already exists");
        }
        List<ColumnDef> cols = new ArrayList<>();
        for (ColumnDef x : s.columns()) {
          cols.add(x == c ? new ColumnDef(r.to(), x.type(), x.kind(), x.order()) : x);
        }
        s = withColumns(s, cols);
      } else if (op instanceof AlterRequest.Options o) {
        s = o.change().apply(s.toBuilder()).build();
      }
    }
    KeyCodec next = new KeyCodec(s, dropped);
    try {
      db.catalog.alter(store.id(), s, dropped);
    } catch (IOException e) {
      throw new StorageException(
          "cannot alter table " + s.name() + " (its schema is unchanged): " + e.getMessage(), e);
    }
    store.altered(next);
    h.replaceStore(store); // the read path compiles queries against the new schema
    db.jobs().scheduleCompaction(store);
    return s;
  }

  private static ColumnDef existing(TableSchema s, String name) {
    return s.column(name)
        .orElseThrow(
            () ->
                new InvalidQueryException(
                    "Column " + name + " was not found in table " + s.name()));
  }

  /**
   * {@code s} with exactly the columns {@code cols} (in that order) and every option of {@code s}.
   * The options are copied one by one (a builder cannot remove a column); if a table option is
   * added and not copied here, the check below fails every ALTER TABLE that drops or renames.
   */
  static TableSchema withColumns(TableSchema s, List<ColumnDef> cols) {
    TableSchema copy = build(s, s.columns());
    if (!copy.equals(s)) {
      throw new IllegalStateException(
          "ALTER TABLE does not copy every table option: " + copy + " != " + s);
    }
    return build(s, cols);
  }

  private static TableSchema build(TableSchema s, List<ColumnDef> cols) {
    TableSchema.Builder b = TableSchema.builder(s.name()).keyspace(s.keyspace().orElse(null));
    for (ColumnDef c : cols) {
      switch (c.kind()) {
        case PARTITION_KEY -> b.partitionKey(c.name(), c.type());
        case CLUSTERING -> b.clusteringColumn(c.name(), c.type(), c.order());
        case REGULAR -> b.column(c.name(), c.type());
        case STATIC -> b.staticColumn(c.name(), c.type());
      }
    }
    return b.defaultTimeToLive(s.defaultTimeToLive())
        .gcGrace(s.gcGrace())
        .compaction(s.compaction())
        .compression(s.compression())
        .chunkLengthKb(s.chunkLengthKb())
        .bloomFilterFpChance(s.bloomFilterFpChance())
        .tombstoneThresholds(s.tombstoneWarnThreshold(), s.tombstoneFailureThreshold())
        .partitionSizeThresholds(s.partitionSizeWarnBytes(), s.partitionSizeFailBytes())
        .partitionRowsThresholds(s.partitionRowsWarn(), s.partitionRowsFail())
        .build();
  }
}
