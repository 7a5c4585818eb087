package dev.talus.sstable;

import dev.talus.data.PartitionKey;
import dev.talus.data.VarInts;
import java.io.IOException;
import java.util.Arrays;

/**
 * One checksummed stretch of Index.db (the entries from one in-memory sample to the next), parsed
 * once into the offsets and tokens of its entries so a lookup binary-searches the tokens, compares
 * keys in place and decodes only the entry it finds. Built from bytes whose CRC32C the caller has
 * already checked; cached in the {@link ChunkCache} next to the Data chunks. Immutable and
 * thread-safe.
 */
final class IndexStretch {
  private final byte[] bytes;
  private final int version;
  private final long[] tokens;

  /** Start of each entry in {@link #bytes}, plus the end. */
  private final int[] offsets;

  private IndexStretch(byte[] bytes, int version, long[] tokens, int[] offsets) {
    this.bytes = bytes;
    this.version = version;
    this.tokens = tokens;
    this.offsets = offsets;
  }

  /**
   * Parses every entry of {@code bytes}, written in format {@code version}; throws IOException if
   * they do not decode.
   */
  static IndexStretch parse(byte[] bytes, int version) throws IOException {
    ArrayInput in = new ArrayInput(bytes, 0, bytes.length);
    long[] tokens = new long[SSTableReader.SAMPLE_INTERVAL];
    int[] offsets = new int[SSTableReader.SAMPLE_INTERVAL + 1];
    int n = 0;
    while (in.remaining() > 0) {
      if (n == tokens.length) {
        tokens = Arrays.copyOf(tokens, n * 2);
        offsets = Arrays.copyOf(offsets, n * 2 + 1);
      }
      offsets[n] = in.position();
      tokens[n] = IndexEntry.read(in, version).token();
      n++;
    }
    offsets[n] = bytes.length;
    return new IndexStretch(
        bytes, version, Arrays.copyOf(tokens, n), Arrays.copyOf(offsets, n + 1));
  }

  int size() {
    return tokens.length;
  }

  /** Approximate heap footprint, for the cache's weigher. */
  int weight() {
    return bytes.length + tokens.length * 12 + 64;
  }

  /** Entry {@code i}, decoded. */
  IndexEntry entry(int i) throws IOException {
    return IndexEntry.read(new ArrayInput(bytes, offsets[i], offsets[i + 1]), version);
  }

  /**
   * Where entry {@code i}'s partition (whose key {@link #find} matched to {@code key}) starts in
   * the Data stream, and where to start reading its rows for a slice starting at {@code bound}: the
   * offset (from the partition's start) of the first row-index block whose last clustering is after
   * {@code bound}, {@link Located#FROM_HEADER} for a partition without a row index, or {@link
   * Located#NONE} if every block ends at or before {@code bound}; with the partition's header if
   * the entry carries it. Decoded in place: nothing of the row index is materialised.
   */
  Located locate(int i, byte[] key, byte[] bound) throws IOException {
    ArrayInput in = new ArrayInput(bytes, offsets[i] + 8, offsets[i + 1]);
    in.skipBytes(VarInts.readLength(in, PartitionSerializer.MAX_KEY));
    long position = VarInts.readUnsigned(in);
    int n = VarInts.readLength(in, PartitionSerializer.MAX_COUNT);
    if (n == 0) {
      return new Located(position, Located.FROM_HEADER, null);
    }
    PartitionSerializer.Header header = null;
    if (version >= FormatVersion.HEADER_IN_INDEX) {
      header = PartitionSerializer.readHeaderSummary(in, key, version);
    }
    for (int b = 0; b < n; b++) {
      in.skipBytes(VarInts.readLength(in, PartitionSerializer.MAX_CLUSTERING)); // first
      int len = VarInts.readLength(in, PartitionSerializer.MAX_CLUSTERING);
      int from = in.position();
      if (len > in.remaining()) {
        throw new IOException("row-index block runs past its entry");
      }
      in.skipBytes(len);
      long offset = VarInts.readUnsigned(in);
      VarInts.readUnsigned(in); // width
      if (Arrays.compareUnsigned(bytes, from, from + len, bound, 0, bound.length) > 0) {
        return new Located(position, offset, header);
      }
    }
    return new Located(position, Located.NONE, header);
  }

  /**
   * An entry's partition position, where its rows that may lie after a bound start (see {@link
   * #locate}), and the partition's header without range tombstones if the entry carries it (null:
   * read the header from Data).
   */
  record Located(long position, long rowsOffset, PartitionSerializer.Header header) {
    /** No row-index block reaches past the bound: no row of the partition is after it. */
    static final long NONE = -1;

    /** The partition has no row index: its rows follow its header. */
    static final long FROM_HEADER = -2;
  }

  /**
   * The index of the entry for {@code key}, or -1: a binary search on the tokens, then key bytes
   * compared in place among the (rare) entries sharing the token.
   */
  int find(PartitionKey key) throws IOException {
    long token = key.token();
    int lo = 0;
    int hi = tokens.length;
    while (lo < hi) { // first entry with token >= key's
      int mid = (lo + hi) >>> 1;
      if (tokens[mid] < token) {
        lo = mid + 1;
      } else {
        hi = mid;
      }
    }
    byte[] k = key.bytes();
    for (int i = lo; i < tokens.length && tokens[i] == token; i++) {
      int[] at = {offsets[i] + 8};
      int len = (int) readUnsignedVarInt(at);
      int from = at[0];
      if (len < 0 || from + len > offsets[i + 1]) {
        throw new IOException("index entry key runs past its entry");
      }
      int c = Arrays.compareUnsigned(bytes, from, from + len, k, 0, k.length);
      if (c == 0) {
        return i;
      }
      if (c > 0) {
        return -1;
      }
    }
    return -1;
  }

  /** A LEB128 varint at {@code at[0]}, which advances past it. */
  private long readUnsignedVarInt(int[] at) throws IOException {
    long v = 0;
    for (int shift = 0; shift < 64; shift += 7) {
      if (at[0] >= bytes.length) {
        throw new IOException("index entry truncated");
      }
      int b = bytes[at[0]++] & 0xFF;
      v |= (long) (b & 0x7F) << shift;
      if ((b & 0x80) == 0) {
        return v;
      }
    }
    throw new IOException("malformed varint: more than 10 bytes");
  }
}
