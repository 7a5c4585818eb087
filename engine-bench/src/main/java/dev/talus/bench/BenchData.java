package dev.talus.bench;

import dev.talus.ClusteringOrder;
import dev.talus.CompactionOptions;
import dev.talus.Compression;
import dev.talus.DataType;
import dev.talus.TableSchema;
import java.util.Random;

/**
 * The data every benchmark writes: tables keyed by an INT partition id and a BIGINT sequence, with
 * one 100-byte BLOB value, and the deterministic values themselves. Immutable; thread-safe.
 */
final class BenchData {
  /** Bytes of each row's value. */
  static final int VALUE_BYTES = 100;

  /** User bytes of one row as both engines see it: 4-byte partition + 8-byte sequence + value. */
  static final int ROW_BYTES = 4 + 8 + VALUE_BYTES;

  private static final int POOL = 1024;

  private final byte[][] values = new byte[POOL][];

  /**
   * Values from {@code seed}. Half of each value is random and half repeats, so LZ4 has about as
   * much to do as on db_bench's default data (compression ratio ~0.5) on both engines.
   */
  BenchData(long seed) {
    Random r = new Random(seed);
    for (int i = 0; i < POOL; i++) {
      byte[] v = new byte[VALUE_BYTES];
      byte[] half = new byte[VALUE_BYTES / 2];
      r.nextBytes(half);
      System.arraycopy(half, 0, v, 0, half.length);
      byte fill = (byte) ('a' + r.nextInt(26));
      for (int j = half.length; j < VALUE_BYTES; j++) {
        v[j] = fill;
      }
      values[i] = v;
    }
  }

  /** The value of write number {@code n}. Shared; callers must not modify it. */
  byte[] value(long n) {
    return values[(int) Math.floorMod(n * 31 + 7, (long) POOL)];
  }

  /**
   * A table {@code name(p int, seq bigint, v blob, PRIMARY KEY (p, seq))} clustered in {@code
   * order}, LZ4 chunks, 1% Bloom filter.
   */
  static TableSchema schema(String name, ClusteringOrder order, CompactionOptions compaction) {
    return TableSchema.builder(name)
        .partitionKey("p", DataType.INT)
        .clusteringColumn("seq", DataType.BIGINT, order)
        .column("v", DataType.BLOB)
        .compression(Compression.LZ4)
        .bloomFilterFpChance(0.01)
        .compaction(compaction)
        .build();
  }
}
