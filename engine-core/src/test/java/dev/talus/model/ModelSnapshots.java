package dev.talus.model;

import dev.talus.SnapshotDetails;
import dev.talus.Table;
import dev.talus.TalusDb;
import java.util.ArrayList;
import java.util.List;

/**
 * Snapshots in {@link WideModelTest}: a snapshot operation snapshots table w and records a copy of
 * the model as it is then; a later import check imports the newest snapshot into a fresh table of
 * w's schema and compares every partition of it with the recorded model (at the current time, so
 * TTLs that ran out since read as expired in both), then drops the fresh table. Restarts, flushes,
 * compactions and strategy changes of w between the two leave the snapshot as it was.
 */
final class ModelSnapshots {
  private WideModel recorded;
  private SnapshotDetails snapshot;
  private int taken;

  /** Snapshots {@code t} and records {@code model}'s state. */
  void take(Table t, WideModel model) {
    snapshot = t.snapshot("model-" + taken++);
    recorded = model.copy();
  }

  /** Imports the newest snapshot into a fresh table; returns the first difference, or null. */
  String check(TalusDb db, long now) {
    if (snapshot == null) {
      return null; // nothing snapshotted yet
    }
    Table fresh = db.createTable(WideModelTest.schema("imported"));
    try {
      fresh.importSSTables(snapshot.directory());
      List<WideModel.Pk> pks = new ArrayList<>();
      for (String a : WideModel.A_VALUES) {
        for (int b : WideModel.B_VALUES) {
          pks.add(new WideModel.Pk(a, b));
        }
      }
      WideModelTest.Read all =
          new WideModelTest.Read(
              pks,
              0,
              0,
              0,
              0,
              0,
              false,
              Integer.MAX_VALUE,
              Integer.MAX_VALUE,
              List.of(),
              List.of(),
              true,
              true,
              Integer.MAX_VALUE);
      String diff = WideModelReads.check(all, fresh, recorded, now);
      return diff == null ? null : "import of snapshot " + snapshot.name() + ": " + diff;
    } finally {
      db.dropTable("imported");
    }
  }
}
