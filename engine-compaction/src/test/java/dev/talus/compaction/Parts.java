package dev.talus.compaction;

import dev.talus.data.Cell;
import dev.talus.data.ClusteringBytes;
import dev.talus.data.DeletionTime;
import dev.talus.data.LiveRows;
import dev.talus.data.PartitionData;
import dev.talus.data.PartitionKey;
import dev.talus.data.PartitionMerger;
import dev.talus.data.RangeTombstone;
import dev.talus.data.Row;
import dev.talus.data.Slice;
import java.nio.ByteBuffer;
import java.nio.charset.StandardCharsets;
import java.util.ArrayList;
import java.util.Iterator;
import java.util.List;

/** In-memory partitions and small builders for compaction tests. */
final class Parts {
  private Parts() {}

  /** One source's content for one partition; rows ascending, range tombstones any order. */
  record Part(PartitionKey key, DeletionTime deletion, List<RangeTombstone> rts, List<Row> rows)
      implements PartitionData {
    @Override
    public PartitionKey key() {
      return key;
    }

    @Override
    public DeletionTime partitionDeletion() {
      return deletion;
    }

    @Override
    public List<RangeTombstone> rangeTombstones(Slice slice) {
      return rts.stream().filter(t -> slice.intersects(t.start(), t.end())).toList();
    }

    @Override
    public Iterator<Row> rows(Slice slice, boolean reversed) {
      List<Row> out = new ArrayList<>();
      for (Row r : rows) {
        if (slice.contains(r.clustering())) {
          out.add(r);
        }
      }
      if (reversed) {
        java.util.Collections.reverse(out);
      }
      return out.iterator();
    }
  }

  static PartitionKey key(String s) {
    return PartitionKey.of(s.getBytes(StandardCharsets.UTF_8));
  }

  static byte[] ck(int i) {
    return ClusteringBytes.row(List.of(ByteBuffer.allocate(4).putInt(i ^ 0x80000000).array()));
  }

  static byte[] bound(int i, boolean after) {
    return ClusteringBytes.bound(
        List.of(ByteBuffer.allocate(4).putInt(i ^ 0x80000000).array()), after);
  }

  /** Range tombstone over clusterings from {@code from} to {@code to}, both inclusive. */
  static RangeTombstone range(int from, int to, long ts, long ldt) {
    return new RangeTombstone(bound(from, false), bound(to, true), new DeletionTime(ts, ldt));
  }

  static byte[] val(String s) {
    return s.getBytes(StandardCharsets.UTF_8);
  }

  static Row row(int ck, Cell... cells) {
    return new Row(ck(ck), dev.talus.data.LivenessInfo.EMPTY, DeletionTime.LIVE, cells);
  }

  static Part part(PartitionKey k, Row... rows) {
    return new Part(k, DeletionTime.LIVE, List.of(), List.of(rows));
  }

  static PartitionMerger.Merged merge(List<? extends PartitionData> sources) {
    return PartitionMerger.merge(sources.get(0).key(), sources, Slice.ALL, false);
  }

  static List<Row> rows(Iterator<Row> it) {
    List<Row> out = new ArrayList<>();
    it.forEachRemaining(out::add);
    return out;
  }

  /** What a read at {@code now} returns from these sources. */
  static List<Row> live(List<? extends PartitionData> sources, long now) {
    return rows(new LiveRows(merge(sources).rows(), now, n -> {}));
  }
}
