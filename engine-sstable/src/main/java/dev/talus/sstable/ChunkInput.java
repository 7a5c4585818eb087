package dev.talus.sstable;

import dev.talus.data.VarIntInput;
import dev.talus.data.VarInts;
import dev.talus.io.CorruptFileException;
import java.io.DataInput;
import java.io.EOFException;
import java.io.IOException;
import java.io.InputStream;
import java.io.UncheckedIOException;

/**
 * A sequential view of the uncompressed Data stream from any position, holding one decompressed
 * chunk at a time. Reading past the end of the stream is corruption (a length or offset pointed
 * outside the data). It is also the {@link DataInput} the row decoder reads from, with the common
 * reads (a byte, a long, a run of bytes) served straight from the current chunk array. Not
 * thread-safe; cheap to create per read.
 */
final class ChunkInput extends InputStream implements DataInput, VarIntInput {
  private final ChunkReader reader;
  private long position;
  private byte[] chunk;
  private long chunkStart = -1;
  private final int chunkSize;
  private final long length;

  ChunkInput(ChunkReader reader, long position) {
    this.reader = reader;
    this.position = position;
    this.chunkSize = reader.chunkSize();
    this.length = reader.length();
  }

  /**
   * A view starting at {@code position} that first uses the chunk {@code from} currently holds
   * (decompressed chunks are immutable), saving a cache lookup when both read the same chunk.
   */
  ChunkInput(ChunkInput from, long position) {
    this(from.reader, position);
    this.chunk = from.chunk;
    this.chunkStart = from.chunkStart;
  }

  /** A copy positioned at the same place, sharing the current chunk. */
  ChunkInput copy() {
    return new ChunkInput(this, position);
  }

  /**
   * Compares the next {@code len} bytes with {@code other} (unsigned) without consuming them, if
   * they lie in the current chunk; returns {@link Integer#MIN_VALUE} if they do not (the caller
   * then reads them).
   */
  int compareInPlace(int len, byte[] other) throws IOException {
    int i = ensure();
    if (i + len > chunk.length) {
      return Integer.MIN_VALUE;
    }
    return Integer.signum(
        java.util.Arrays.compareUnsigned(chunk, i, i + len, other, 0, other.length));
  }

  /**
   * Steps over the rows at the current position whose clustering is at or before {@code
   * skipThrough} and that lie wholly in the current chunk, in place ({@link InPlaceRows#skip}); the
   * row it stops at is left to the decoder.
   */
  void skipRowsInChunk(byte[] skipThrough, int version) throws IOException {
    int i = ensure();
    int end = InPlaceRows.skip(chunk, i, chunk.length, skipThrough, version);
    position += end - i;
  }

  /** The current chunk's bytes, loaded for the current position (whose offset {@link #offset}). */
  byte[] chunk() throws IOException {
    ensure();
    return chunk;
  }

  /** The current position's offset in {@link #chunk()}. */
  int offset() throws IOException {
    return ensure();
  }

  /** Moves on {@code n} bytes within the current chunk. */
  void advance(int n) {
    position += n;
  }

  long position() {
    return position;
  }

  void seek(long position) {
    this.position = position;
  }

  private int ensure() throws IOException {
    long off = position - chunkStart;
    if (chunkStart >= 0 && off >= 0 && off < chunk.length) {
      return (int) off;
    }
    if (position >= length) {
      throw new CorruptFileException(
          reader.path(),
          reader.fileOffsetOf(position),
          "read past the end of the data at uncompressed position " + position);
    }
    long cs = (position / chunkSize) * chunkSize;
    if (cs != chunkStart) {
      try {
        chunk = reader.chunk((int) (position / chunkSize));
      } catch (IOException e) {
        // Real I/O failures travel unchecked so decoders can treat every IOException they see
        // as a format error, i.e. corruption.
        throw new UncheckedIOException(e);
      }
      chunkStart = cs;
    }
    return (int) (position - chunkStart);
  }

  @Override
  public int read() throws IOException {
    int i = ensure();
    position++;
    return chunk[i] & 0xFF;
  }

  @Override
  public int read(byte[] b, int off, int len) throws IOException {
    if (len == 0) {
      return 0;
    }
    int i = ensure();
    int n = Math.min(len, chunk.length - i);
    System.arraycopy(chunk, i, b, off, n);
    position += n;
    return n;
  }

  // ---- DataInput, with the hot reads served from the chunk array ----

  @Override
  public void readFully(byte[] b) throws IOException {
    readFully(b, 0, b.length);
  }

  @Override
  public void readFully(byte[] b, int off, int len) throws IOException {
    while (len > 0) {
      int n = read(b, off, len);
      off += n;
      len -= n;
    }
  }

  @Override
  public int skipBytes(int n) throws IOException {
    if (n <= 0) {
      return 0;
    }
    if (position + n > length) {
      throw new CorruptFileException(
          reader.path(),
          reader.fileOffsetOf(position),
          "read past the end of the data at uncompressed position " + (position + n));
    }
    position += n;
    return n;
  }

  @Override
  public boolean readBoolean() throws IOException {
    return readUnsignedByte() != 0;
  }

  @Override
  public byte readByte() throws IOException {
    int i = ensure();
    position++;
    return chunk[i];
  }

  @Override
  public int readUnsignedByte() throws IOException {
    int i = ensure();
    position++;
    return chunk[i] & 0xFF;
  }

  @Override
  public short readShort() throws IOException {
    return (short) ((readUnsignedByte() << 8) | readUnsignedByte());
  }

  @Override
  public int readUnsignedShort() throws IOException {
    return (readUnsignedByte() << 8) | readUnsignedByte();
  }

  @Override
  public char readChar() throws IOException {
    return (char) readUnsignedShort();
  }

  @Override
  public int readInt() throws IOException {
    return (readUnsignedShort() << 16) | readUnsignedShort();
  }

  /**
   * An unsigned varint decoded straight from the chunk array when all ten bytes a varint may take
   * lie in it; near the chunk's end, byte by byte (same result, same errors).
   */
  @Override
  public long readUnsignedVarInt() throws IOException {
    int i = ensure();
    byte[] c = chunk;
    if (i + 10 > c.length) {
      return VarInts.readUnsignedBytewise(this);
    }
    long v = 0;
    for (int p = i, shift = 0; shift < 64; shift += 7) {
      int b = c[p++];
      v |= (long) (b & 0x7F) << shift;
      if (b >= 0) {
        position += p - i;
        return v;
      }
    }
    position += 10;
    throw new IOException("malformed varint: more than 10 bytes");
  }

  /** A zig-zag signed varint ({@link VarInts#readSigned}), through the fast unsigned decode. */
  long readVarSigned() throws IOException {
    return VarInts.zigZagDecode(readUnsignedVarInt());
  }

  /** A length varint no greater than {@code max} ({@link VarInts#readLength}). */
  int readVarLength(int max) throws IOException {
    return VarInts.checkLength(readUnsignedVarInt(), max);
  }

  /** A length-prefixed byte string of at most {@code max} bytes, copied out. */
  byte[] readLengthPrefixed(int max) throws IOException {
    byte[] b = new byte[readVarLength(max)];
    readFully(b);
    return b;
  }

  @Override
  public long readLong() throws IOException {
    int i = ensure();
    if (i + 8 <= chunk.length) {
      position += 8;
      return (long) LONG_BE.get(chunk, i);
    }
    return ((long) readInt() << 32) | (readInt() & 0xFFFFFFFFL);
  }

  @Override
  public float readFloat() throws IOException {
    return Float.intBitsToFloat(readInt());
  }

  @Override
  public double readDouble() throws IOException {
    return Double.longBitsToDouble(readLong());
  }

  @Override
  public String readLine() {
    throw new UnsupportedOperationException("the data stream holds no text lines");
  }

  @Override
  public String readUTF() throws IOException {
    throw new EOFException("the data stream holds no modified-UTF-8 strings");
  }

  private static final java.lang.invoke.VarHandle LONG_BE =
      java.lang.invoke.MethodHandles.byteArrayViewVarHandle(
          long[].class, java.nio.ByteOrder.BIG_ENDIAN);

  /** A corruption error at the current position, for decode failures. */
  CorruptFileException corrupt(String message, Throwable cause) {
    return new CorruptFileException(
        reader.path(),
        reader.fileOffsetOf(position),
        message + " (data position " + position + ")",
        cause);
  }
}
