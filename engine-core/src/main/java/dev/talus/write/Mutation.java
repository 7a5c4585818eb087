package dev.talus.write;

import dev.talus.commitlog.Payload;
import dev.talus.data.PartitionUpdate;
import dev.talus.data.VarInts;
import java.io.ByteArrayInputStream;
import java.io.ByteArrayOutputStream;
import java.io.DataInputStream;
import java.io.DataOutputStream;
import java.io.IOException;
import java.io.UncheckedIOException;
import java.nio.ByteBuffer;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.List;

/**
 * What one commit-log record holds: the updates of one write or one batch, each tagged with its
 * table id. Replayed all together or not at all, since a record is checksummed as a whole.
 *
 * <p>Format: {@code version(1) count(varint) { tableId(varint) PartitionUpdate }*}. Version 2 (the
 * one written) carries each update in {@link PartitionUpdate}'s layout 2 (element paths, complex
 * deletions, counter cells); version 1 records, from before those existed, are still replayed. A
 * version this build does not know is refused with its number.
 */
public record Mutation(List<Entry> entries) implements Payload {
  static final int VERSION = 2;

  /** The oldest record version still read. */
  static final int OLDEST_VERSION = 1;

  /** One table's update in the record. */
  public record Entry(int tableId, PartitionUpdate update) {}

  /** The length of what {@link #writeTo} writes. */
  @Override
  public int size() {
    long n = 1 + VarInts.sizeOfUnsigned(entries.size());
    for (Entry e : entries) {
      n += VarInts.sizeOfUnsigned(e.tableId) + e.update.serializedSize();
    }
    if (n > Integer.MAX_VALUE) {
      throw new IllegalArgumentException("a mutation of " + n + " bytes");
    }
    return (int) n;
  }

  /** The record, as {@link #serialize()} makes it, written into {@code out} at its position. */
  @Override
  public void writeTo(ByteBuffer out) {
    out.put((byte) VERSION);
    VarInts.putUnsigned(out, entries.size());
    for (Entry e : entries) {
      VarInts.putUnsigned(out, e.tableId);
      e.update.serialize(out);
    }
  }

  public byte[] serialize() {
    ByteArrayOutputStream bytes = new ByteArrayOutputStream(256);
    try (DataOutputStream out = new DataOutputStream(bytes)) {
      out.writeByte(VERSION);
      VarInts.writeUnsigned(out, entries.size());
      for (Entry e : entries) {
        VarInts.writeUnsigned(out, e.tableId);
        e.update.serialize(out);
      }
    } catch (IOException e) {
      throw new UncheckedIOException(e);
    }
    return bytes.toByteArray();
  }

  public static Mutation deserialize(byte[] payload) throws IOException {
    try (DataInputStream in = new DataInputStream(new ByteArrayInputStream(payload))) {
      int version = in.readUnsignedByte();
      if (version < OLDEST_VERSION || version > VERSION) {
        throw new IOException(
            "unknown mutation format version "
                + version
                + " (this build reads "
                + OLDEST_VERSION
                + " to "
                + VERSION
                + ")");
      }
      int n = VarInts.readLength(in, 1 << 20);
      List<Entry> entries = new ArrayList<>(Math.min(n, 1024));
      for (int i = 0; i < n; i++) {
        int id = VarInts.readLength(in, Integer.MAX_VALUE);
        entries.add(new Entry(id, PartitionUpdate.deserialize(in, version)));
      }
      if (in.available() != 0) {
        throw new IOException(in.available() + " trailing bytes after a mutation");
      }
      return new Mutation(entries);
    }
  }

  /** The distinct table ids of the entries, in the order they first appear. */
  public int[] tableIds() {
    if (entries.size() == 1) {
      return new int[] {entries.get(0).tableId};
    }
    int[] ids = new int[entries.size()];
    int n = 0;
    next:
    for (Entry e : entries) {
      for (int i = 0; i < n; i++) {
        if (ids[i] == e.tableId) {
          continue next;
        }
      }
      ids[n++] = e.tableId;
    }
    return Arrays.copyOf(ids, n);
  }
}
