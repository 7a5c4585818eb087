package dev.talus.db;

import dev.talus.data.ClusteringBytes;
import dev.talus.data.PartitionKey;
import dev.talus.data.Row;
import dev.talus.read.CurrentRow;
import dev.talus.runtime.DbContext;
import dev.talus.table.TableStore;
import java.util.List;
import java.util.concurrent.locks.ReentrantLock;

/**
 * What makes the conditional writes of one table linearizable within the process: a striped lock
 * per partition (by token), held from the read of the current state through the logging and
 * applying of the write, the design the counter write path uses; and the timestamp rule, which
 * gives each applied conditional write a timestamp above the clock's last one and above every
 * timestamp in the rows it examined, so conditional writes to one partition get strictly increasing
 * timestamps (Cassandra's Paxos ballots do the same) and each supersedes what it read, even after a
 * reopen with a clock that went back. Plain writes do not take these locks. Thread-safe.
 */
public final class ConditionalPartitions {
  /** The number of lock stripes per table. */
  static final int STRIPES = 256;

  private final ReentrantLock[] locks = new ReentrantLock[STRIPES];

  ConditionalPartitions() {
    for (int i = 0; i < STRIPES; i++) {
      locks[i] = new ReentrantLock();
    }
  }

  /** The lock of the partition with these canonical key values. */
  ReentrantLock lockOf(TableStore store, Object[] partitionKey) {
    PartitionKey key = store.keys().partitionKey(partitionKey);
    return locks[(int) (key.token() & (STRIPES - 1))];
  }

  /**
   * The timestamp of a conditional write to these rows: after the clock's last timestamp and after
   * every timestamp stored in each row (a null clustering: the static row only).
   */
  static long timestamp(
      DbContext ctx, TableStore store, Object[] partitionKey, List<List<Object>> clusterings) {
    PartitionKey key = store.keys().partitionKey(partitionKey);
    long newest = newest(CurrentRow.read(store, key, ClusteringBytes.STATIC));
    for (List<Object> ck : clusterings) {
      if (ck != null) {
        newest = Math.max(newest, newest(CurrentRow.read(store, key, store.keys().row(ck))));
      }
    }
    long ts = ctx.nextTimestamp();
    return newest == Long.MIN_VALUE || newest < ts ? ts : Math.addExact(newest, 1);
  }

  private static long newest(Row r) {
    return r == null ? Long.MIN_VALUE : r.maxTimestamp();
  }
}
