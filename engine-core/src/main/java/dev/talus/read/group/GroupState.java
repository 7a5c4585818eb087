package dev.talus.read.group;

import dev.talus.InvalidQueryException;
import java.io.ByteArrayInputStream;
import java.io.ByteArrayOutputStream;
import java.io.DataInputStream;
import java.io.DataOutputStream;
import java.io.IOException;
import java.io.UncheckedIOException;
import java.nio.charset.StandardCharsets;
import java.util.List;

/**
 * The paging state of a grouped read: {@code magic(1)=0x47 version(1)=1 groupHash(int)
 * returned(int) inPartition(int) partitionLength(int) partition[UTF-8] groupLength(int)
 * group[UTF-8] hasState(1) [length(int) engineState[length]]}: the groups returned by all pages so
 * far, those of the last group's partition (for the per-partition limit), that partition's and
 * group's key as {@link Grouping#key} writes them, and the read path's own state after the group's
 * last row (which carries the query's hash). {@code groupHash} ties the state to the group columns.
 * Immutable.
 */
record GroupState(
    byte[] engineState, int returned, int inPartition, String partition, String group) {
  private static final byte MAGIC = 0x47;
  private static final byte VERSION = 1;
  private static final GroupState START = new GroupState(null, 0, 0, null, null);

  static GroupState decode(byte[] bytes, List<String> columns) {
    if (bytes == null) {
      return START;
    }
    try (DataInputStream in = new DataInputStream(new ByteArrayInputStream(bytes))) {
      if (in.readByte() != MAGIC
          || in.readByte() != VERSION
          || in.readInt() != columns.hashCode()) {
        throw new InvalidQueryException(
            "this paging state belongs to a different query; page with the query that"
                + " produced it");
      }
      int returned = in.readInt();
      int inPartition = in.readInt();
      String partition = readText(in);
      String group = readText(in);
      byte[] state = null;
      if (in.readBoolean()) {
        int length = in.readInt();
        if (length < 0 || length > in.available()) {
          throw new InvalidQueryException("paging state out of range");
        }
        state = new byte[length];
        in.readFully(state);
      }
      if (returned < 0 || inPartition < 0) {
        throw new InvalidQueryException("paging state out of range");
      }
      return new GroupState(state, returned, inPartition, partition, group);
    } catch (IOException e) {
      throw new InvalidQueryException("malformed paging state", e);
    }
  }

  private static String readText(DataInputStream in) throws IOException {
    int length = in.readInt();
    if (length < 0 || length > in.available()) {
      throw new InvalidQueryException("paging state out of range");
    }
    byte[] b = new byte[length];
    in.readFully(b);
    return new String(b, StandardCharsets.UTF_8);
  }

  private static void writeText(DataOutputStream out, String s) throws IOException {
    byte[] b = s.getBytes(StandardCharsets.UTF_8);
    out.writeInt(b.length);
    out.write(b);
  }

  byte[] encode(List<String> columns) {
    ByteArrayOutputStream bytes = new ByteArrayOutputStream();
    try (DataOutputStream out = new DataOutputStream(bytes)) {
      out.writeByte(MAGIC);
      out.writeByte(VERSION);
      out.writeInt(columns.hashCode());
      out.writeInt(returned);
      out.writeInt(inPartition);
      writeText(out, partition);
      writeText(out, group);
      out.writeBoolean(engineState != null);
      if (engineState != null) {
        out.writeInt(engineState.length);
        out.write(engineState);
      }
    } catch (IOException e) {
      throw new UncheckedIOException(e);
    }
    return bytes.toByteArray();
  }
}
