package dev.talus.sstable;

import dev.talus.data.VarIntInput;
import java.io.DataInput;
import java.io.EOFException;
import java.io.IOException;
import java.lang.invoke.MethodHandles;
import java.lang.invoke.VarHandle;
import java.nio.ByteOrder;

/**
 * A {@link DataInput} over a range of a byte array, for decoding bytes already in memory (index
 * stretches) without the locking and virtual calls of {@code DataInputStream} over {@code
 * ByteArrayInputStream}. Reading past the end of the range throws {@link EOFException}, as those
 * streams do. Not thread-safe; cheap to create per decode.
 */
final class ArrayInput implements DataInput, VarIntInput {
  private static final VarHandle LONG_BE =
      MethodHandles.byteArrayViewVarHandle(long[].class, ByteOrder.BIG_ENDIAN);

  private final byte[] bytes;
  private int pos;
  private final int end;

  ArrayInput(byte[] bytes, int from, int to) {
    this.bytes = bytes;
    this.pos = from;
    this.end = to;
  }

  int position() {
    return pos;
  }

  int remaining() {
    return end - pos;
  }

  private void need(int n) throws EOFException {
    if (n > end - pos) {
      throw new EOFException("needs " + n + " bytes, " + (end - pos) + " left");
    }
  }

  @Override
  public long readUnsignedVarInt() throws IOException {
    long v = 0;
    for (int shift = 0; shift < 64; shift += 7) {
      need(1);
      int b = bytes[pos++];
      v |= (long) (b & 0x7F) << shift;
      if (b >= 0) {
        return v;
      }
    }
    throw new IOException("malformed varint: more than 10 bytes");
  }

  @Override
  public void readFully(byte[] b) throws IOException {
    readFully(b, 0, b.length);
  }

  @Override
  public void readFully(byte[] b, int off, int len) throws IOException {
    need(len);
    System.arraycopy(bytes, pos, b, off, len);
    pos += len;
  }

  @Override
  public int skipBytes(int n) {
    int k = Math.max(0, Math.min(n, end - pos));
    pos += k;
    return k;
  }

  @Override
  public boolean readBoolean() throws IOException {
    return readUnsignedByte() != 0;
  }

  @Override
  public byte readByte() throws IOException {
    need(1);
    return bytes[pos++];
  }

  @Override
  public int readUnsignedByte() throws IOException {
    need(1);
    return bytes[pos++] & 0xFF;
  }

  @Override
  public short readShort() throws IOException {
    return (short) readUnsignedShort();
  }

  @Override
  public int readUnsignedShort() throws IOException {
    need(2);
    int v = ((bytes[pos] & 0xFF) << 8) | (bytes[pos + 1] & 0xFF);
    pos += 2;
    return v;
  }

  @Override
  public char readChar() throws IOException {
    return (char) readUnsignedShort();
  }

  @Override
  public int readInt() throws IOException {
    return (readUnsignedShort() << 16) | readUnsignedShort();
  }

  @Override
  public long readLong() throws IOException {
    need(8);
    long v = (long) LONG_BE.get(bytes, pos);
    pos += 8;
    return v;
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
    throw new UnsupportedOperationException("index bytes hold no text lines");
  }

  @Override
  public String readUTF() throws IOException {
    throw new EOFException("index bytes hold no modified-UTF-8 strings");
  }
}
