package dev.talus.read;

import dev.talus.InvalidQueryException;
import dev.talus.TableSchema;
import dev.talus.data.ClusteringBytes;
import dev.talus.data.Slice;
import dev.talus.request.ReadRequest;
import java.io.ByteArrayInputStream;
import java.io.ByteArrayOutputStream;
import java.io.DataInputStream;
import java.io.DataOutputStream;
import java.io.IOException;
import java.io.UncheckedIOException;
import java.util.Arrays;
import java.util.List;

/**
 * The paging state of a read, written after a page and read back to resume the next one: {@code
 * version(1)=2 queryHash(int) partition(int) returned(int) inPartition(int) length(int)
 * lastClustering[length]}. The query hash ties a state to the query that produced it; {@code
 * partition} is the index, in the read's partition order, of the last row's partition and {@code
 * inPartition} how many rows of that partition all pages so far returned (for the per-partition
 * limit). Stateless.
 */
final class Paging {
  /**
   * Where a paged read resumes: the partition of the last row returned, the rows already returned
   * (in all, and of that partition), the last clustering (null: from the start; the static
   * clustering when the last row was a partition with static data only).
   */
  record Resume(int startPartition, int alreadyReturned, byte[] after, int inPartition) {}

  private static final byte VERSION = 2;
  private static final Resume FROM_START = new Resume(0, 0, null, 0);

  private Paging() {}

  /** Where {@code r} resumes over its {@code partitions} partitions (the start if no state). */
  static Resume resume(TableSchema s, ReadRequest r, int partitions) {
    if (r.pagingState() == null) {
      return FROM_START;
    }
    try (DataInputStream in = new DataInputStream(new ByteArrayInputStream(r.pagingState()))) {
      if (in.readByte() != VERSION || in.readInt() != queryHash(s, r)) {
        throw new InvalidQueryException(
            "this paging state belongs to a different query; page with the query that"
                + " produced it");
      }
      int startPartition = in.readInt();
      int already = in.readInt();
      int inPartition = in.readInt();
      int length = in.readInt();
      if (length < 0 || length > in.available()) {
        throw new InvalidQueryException("paging state out of range");
      }
      byte[] resume = new byte[length];
      in.readFully(resume);
      if (startPartition < 0
          || startPartition >= partitions
          || already < 0
          || inPartition < 0
          || !(ClusteringBytes.isRow(resume) || ClusteringBytes.isStatic(resume))) {
        throw new InvalidQueryException("paging state out of range");
      }
      return new Resume(startPartition, already, resume, inPartition);
    } catch (IOException e) {
      throw new InvalidQueryException("malformed paging state", e);
    }
  }

  static byte[] pagingState(
      QueryPlanner.Plan p, int partition, byte[] lastClustering, int returned, int inPartition) {
    ByteArrayOutputStream bytes = new ByteArrayOutputStream();
    try (DataOutputStream out = new DataOutputStream(bytes)) {
      out.writeByte(VERSION);
      out.writeInt(p.queryHash());
      out.writeInt(partition);
      out.writeInt(returned);
      out.writeInt(inPartition);
      out.writeInt(lastClustering.length);
      out.write(lastClustering);
    } catch (IOException e) {
      throw new UncheckedIOException(e);
    }
    return bytes.toByteArray();
  }

  /**
   * The slices of partition {@code index}, resumed after the paging state's last row. Partition
   * after partition, only the last row's partition resumes (the later ones start afresh). Merged
   * into one order, every partition resumes at the last clustering: ties between partitions come in
   * partition order, so the partitions up to the last row's resume after it and the later ones at
   * it.
   */
  static List<Slice> slicesFor(QueryPlanner.Plan p, int index) {
    Resume r = p.resume();
    if (r.after() == null || (!p.merged() && index != r.startPartition())) {
      return p.slices();
    }
    boolean strict = index <= r.startPartition();
    byte[] last = r.after();
    Slice rest;
    if (p.reversed()) {
      rest =
          new Slice(
              ClusteringBytes.BOTTOM,
              strict ? ClusteringBytes.before(last) : ClusteringBytes.after(last));
    } else {
      rest =
          new Slice(
              strict ? ClusteringBytes.after(last) : ClusteringBytes.before(last),
              ClusteringBytes.TOP);
    }
    return Slices.within(p.slices(), rest);
  }

  static int queryHash(TableSchema s, ReadRequest r) {
    return java.util.Objects.hash(
        s.name(),
        // deepToString: blob values hash by content, not by array identity
        r.restrictions().stream()
            .map(x -> x.column() + x.op() + Arrays.deepToString(x.values().toArray()))
            .toList(),
        r.tupleRestrictions().stream()
            .map(
                x ->
                    x.columns()
                        + x.op().name()
                        + x.tuples().stream().map(t -> Arrays.deepToString(t.toArray())).toList())
            .toList(),
        r.columns(),
        r.orderBy().toString(),
        r.reversed(),
        r.limit(),
        r.allowFiltering(),
        r.perPartitionLimit(),
        r.tokenRestrictions().stream().map(x -> x.op() + "" + x.value()).toList());
  }
}
