package dev.talus.read;

import dev.talus.InvalidQueryException;
import dev.talus.data.ClusteringBytes;
import dev.talus.data.PartitionKey;
import dev.talus.data.Slice;
import dev.talus.schema.PartitionKeys;
import java.io.ByteArrayInputStream;
import java.io.ByteArrayOutputStream;
import java.io.DataInputStream;
import java.io.DataOutputStream;
import java.io.IOException;
import java.io.UncheckedIOException;
import java.util.List;

/**
 * The paging state of a scan: {@code version(1)=3 queryHash(int) returned(int) inPartition(int)
 * keyLength(int) key[keyLength] clusteringLength(int) lastClustering[clusteringLength]}. A scan
 * resumes in the last row's partition (identified by its key bytes, so the state stays valid
 * whatever was written, flushed or compacted since) after its last clustering, then goes on in
 * token order. Stateless.
 */
final class ScanPaging {
  /**
   * Where a scan resumes: after {@code clustering} of {@code key}, or from the start (null key).
   */
  record Resume(PartitionKey key, byte[] clustering, int alreadyReturned, int inPartition) {}

  private static final byte VERSION = 3;
  private static final Resume FROM_START = new Resume(null, null, 0, 0);

  private ScanPaging() {}

  static Resume resume(QueryPlanner.Plan p) {
    byte[] state = p.request().pagingState();
    if (state == null) {
      return FROM_START;
    }
    try (DataInputStream in = new DataInputStream(new ByteArrayInputStream(state))) {
      if (in.readByte() != VERSION || in.readInt() != p.queryHash()) {
        throw new InvalidQueryException(
            "this paging state belongs to a different query; page with the query that"
                + " produced it");
      }
      int already = in.readInt();
      int inPartition = in.readInt();
      int keyLength = in.readInt();
      if (keyLength <= 0 || keyLength > PartitionKeys.MAX_KEY_BYTES) {
        throw new InvalidQueryException("paging state out of range");
      }
      byte[] key = new byte[keyLength];
      in.readFully(key);
      int clusteringLength = in.readInt();
      if (clusteringLength < 0 || clusteringLength > in.available()) {
        throw new InvalidQueryException("paging state out of range");
      }
      byte[] clustering = new byte[clusteringLength];
      in.readFully(clustering);
      // a static-only partition's single row has the static clustering: resuming after it
      // skips the rest of that partition
      if (already < 0
          || inPartition < 0
          || !(ClusteringBytes.isRow(clustering) || ClusteringBytes.isStatic(clustering))) {
        throw new InvalidQueryException("paging state out of range");
      }
      return new Resume(PartitionKey.of(key), clustering, already, inPartition);
    } catch (IOException e) {
      throw new InvalidQueryException("malformed paging state", e);
    }
  }

  static byte[] state(
      QueryPlanner.Plan p, PartitionKey key, byte[] lastClustering, int returned, int inPartition) {
    ByteArrayOutputStream bytes = new ByteArrayOutputStream();
    try (DataOutputStream out = new DataOutputStream(bytes)) {
      out.writeByte(VERSION);
      out.writeInt(p.queryHash());
      out.writeInt(returned);
      out.writeInt(inPartition);
      out.writeInt(key.bytes().length);
      out.write(key.bytes());
      out.writeInt(lastClustering.length);
      out.write(lastClustering);
    } catch (IOException e) {
      throw new UncheckedIOException(e);
    }
    return bytes.toByteArray();
  }

  /** The slices of the resumed partition: those of the plan after the last row returned. */
  static List<Slice> after(QueryPlanner.Plan p, byte[] lastClustering) {
    return Slices.within(
        p.slices(), new Slice(ClusteringBytes.after(lastClustering), ClusteringBytes.TOP));
  }
}
