package dev.talus.server;

import dev.talus.cql.CqlResult;
import dev.talus.cql.PreparedCql;
import dev.talus.cql.TalusSession;
import dev.talus.server.wire.ProtocolException;
import dev.talus.server.wire.QueryOptions;
import dev.talus.server.wire.Wire;
import io.netty.buffer.ByteBuf;
import java.util.ArrayList;
import java.util.List;
import java.util.Objects;

/**
 * A {@code BATCH} message: statements given as text or as prepared ids, each with its values. It
 * runs as one CQL {@code BEGIN ... BATCH} of those statements, with their values in order, so the
 * batch has the CQL layer's semantics (one timestamp, all or nothing for a logged batch).
 * Immutable.
 */
final class BatchRequest {
  private static final int SERIAL_CONSISTENCY = 0x10;
  private static final int DEFAULT_TIMESTAMP = 0x20;
  private static final int NAMES = 0x40;
  private static final int KEYSPACE = 0x80;
  private static final int NOW_IN_SECONDS = 0x100;

  private final int type;
  private final List<Object> statements; // a String query or a byte[] prepared id
  private final List<byte[]> values;
  private final int consistency;
  private final long timestamp;
  private final String keyspace;
  private final Integer nowInSeconds;

  private BatchRequest(
      int type,
      List<Object> statements,
      List<byte[]> values,
      int consistency,
      long timestamp,
      String keyspace,
      Integer nowInSeconds) {
    this.keyspace = keyspace;
    this.nowInSeconds = nowInSeconds;
    this.type = type;
    this.statements = statements;
    this.values = values;
    this.consistency = consistency;
    this.timestamp = timestamp;
  }

  /** Reads a {@code BATCH} of protocol {@code version} (v5: flags are an {@code [int]}). */
  static BatchRequest read(ByteBuf in, int version) {
    int type = Wire.readByte(in);
    if (type > 2) {
      throw new ProtocolException("Unknown batch type " + type);
    }
    int n = Wire.readShort(in);
    List<Object> statements = new ArrayList<>(n);
    List<byte[]> values = new ArrayList<>();
    for (int i = 0; i < n; i++) {
      int kind = Wire.readByte(in);
      switch (kind) {
        case 0 -> statements.add(Wire.readLongString(in));
        case 1 -> statements.add(Wire.readShortBytes(in));
        default -> throw new ProtocolException("Invalid query kind in BATCH messages: " + kind);
      }
      int count = Wire.readShort(in);
      for (int j = 0; j < count; j++) {
        values.add(Wire.readValue(in));
      }
    }
    int consistency = Wire.readShort(in);
    int flags = version >= 5 ? Wire.readInt(in) : Wire.readByte(in);
    int known = SERIAL_CONSISTENCY | DEFAULT_TIMESTAMP | NAMES;
    if ((flags & ~(version >= 5 ? known | KEYSPACE | NOW_IN_SECONDS : known)) != 0) {
      throw new ProtocolException("unknown BATCH flags 0x" + Integer.toHexString(flags));
    }
    if ((flags & NAMES) != 0) {
      throw new ProtocolException("Named values are not supported in a BATCH (as in Cassandra)");
    }
    if ((flags & SERIAL_CONSISTENCY) != 0) {
      Wire.readShort(in);
    }
    long timestamp = (flags & DEFAULT_TIMESTAMP) != 0 ? Wire.readLong(in) : Long.MIN_VALUE;
    String keyspace = (flags & KEYSPACE) != 0 ? Wire.readString(in) : null;
    Integer now = (flags & NOW_IN_SECONDS) != 0 ? Wire.readInt(in) : null;
    return new BatchRequest(type, statements, values, consistency, timestamp, keyspace, now);
  }

  /** What the batch is answered if it waits too long for a worker. */
  Deadline deadline() {
    return Deadline.batch(type, consistency);
  }

  /** The keyspace the batch names (v5), or null for the connection's. */
  String keyspace() {
    return keyspace;
  }

  /** Runs the batch: in the keyspace its prepared statements were prepared in, if any. */
  CqlResult run(PreparedRegistry registry, TalusSession session) {
    List<String> texts = new ArrayList<>(statements.size());
    String keyspace = session.keyspace().orElse(null);
    boolean first = true;
    for (Object s : statements) {
      if (s instanceof byte[] id) {
        PreparedRegistry.Entry e = registry.entry(id);
        if (first) {
          keyspace = e.keyspace();
          first = false;
        } else if (!Objects.equals(keyspace, e.keyspace())) {
          throw new dev.talus.cql.CqlInvalidRequestException(
              "the prepared statements of a batch must have been prepared in one keyspace");
        }
        texts.add(e.query());
      } else {
        texts.add((String) s);
      }
    }
    TalusSession in = registry.sessionFor(session, keyspace);
    PreparedCql p = in.prepare(Statements.batchText(type, texts));
    return Statements.run(
        in.db(), p, QueryOptions.ofBatch(values, consistency, timestamp, nowInSeconds));
  }
}
