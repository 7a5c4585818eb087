package dev.talus.engine;

import dev.talus.data.PartitionUpdate;
import java.util.ArrayList;
import java.util.List;

/** Validates and writes a batch as one commit-log record. Stateless. */
public final class BatchWriter {
  private BatchWriter() {}

  public static void write(Engine engine, List<TableStore> tables, List<WriteRequest> requests) {
    engine.checkOpen();
    long shared = engine.nextTimestamp();
    long now = engine.nowSeconds();
    List<PartitionUpdate> updates = new ArrayList<>(requests.size());
    for (int i = 0; i < requests.size(); i++) {
      WriteRequest r = requests.get(i);
      long ts = r.timestamp() != null ? TableStore.checkTimestamp(r.timestamp()) : shared;
      PartitionUpdate u = WritePlanner.plan(tables.get(i).keys(), r, ts, now);
      tables.get(i).guardrails().checkWrite(u);
      updates.add(u);
    }
    engine.writeBatch(tables, updates);
  }
}
