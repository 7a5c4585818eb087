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

/**
 * The paging state of a read, written after a page and read back to resume the next one: {@code
 * version(1) queryHash(int) partition(int) returned(int) length(int) lastClustering[length]}. The
 * query hash ties a state to the query that produced it. Stateless.
 */
final class Paging {
  /** Where a paged read resumes: the partition, the rows already returned, the last clustering. */
  record Resume(int startPartition, int alreadyReturned, byte[] after) {}

  private static final Resume FROM_START = new Resume(0, 0, null);

  private Paging() {}

  /** Where {@code r} resumes over its {@code partitions} partitions (the start if no state). */
  static Resume resume(TableSchema s, ReadRequest r, int partitions) {
    if (r.pagingState() == null) {
      return FROM_START;
    }
    try (DataInputStream in = new DataInputStream(new ByteArrayInputStream(r.pagingState()))) {
      if (in.readByte() != 1 || in.readInt() != queryHash(s, r)) {
        throw new InvalidQueryException(
            "this paging state belongs to a different query; page with the query that"
                + " produced it");
      }
      int startPartition = in.readInt();
      int already = in.readInt();
      byte[] resume = new byte[in.readInt()];
      in.readFully(resume);
      if (startPartition < 0 || startPartition >= partitions || already < 0) {
        throw new InvalidQueryException("paging state out of range");
      }
      return new Resume(startPartition, already, resume);
    } catch (IOException e) {
      throw new InvalidQueryException("malformed paging state", e);
    }
  }

  static byte[] pagingState(
      QueryPlanner.Plan p, int partition, byte[] lastClustering, int returned) {
    ByteArrayOutputStream bytes = new ByteArrayOutputStream();
    try (DataOutputStream out = new DataOutputStream(bytes)) {
      out.writeByte(1);
      out.writeInt(p.queryHash());
      out.writeInt(partition);
      out.writeInt(returned);
      out.writeInt(lastClustering.length);
      out.write(lastClustering);
    } catch (IOException e) {
      throw new UncheckedIOException(e);
    }
    return bytes.toByteArray();
  }

  /** The slice of partition {@code index}, resumed after the paging state's last row. */
  static Slice sliceFor(QueryPlanner.Plan p, int index) {
    if (index != p.startPartition() || p.resumeAfter() == null) {
      return p.slice();
    }
    byte[] last = p.resumeAfter();
    Slice rest =
        p.reversed()
            ? new Slice(ClusteringBytes.BOTTOM, ClusteringBytes.before(last))
            : new Slice(ClusteringBytes.after(last), ClusteringBytes.TOP);
    return p.slice().intersect(rest);
  }

  static int queryHash(TableSchema s, ReadRequest r) {
    return java.util.Objects.hash(
        s.name(),
        r.restrictions().stream()
            .map(x -> x.column() + x.op() + String.valueOf(x.values()))
            .toList(),
        r.columns(),
        r.orderBy().toString(),
        r.reversed(),
        r.limit(),
        r.allowFiltering());
  }
}
