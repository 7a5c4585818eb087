package dev.talus.data;

import java.io.IOException;

/**
 * An input that decodes {@link VarInts}' unsigned varints itself, faster than byte by byte through
 * {@link java.io.DataInput#readUnsignedByte()} (typically straight from an array it holds). {@link
 * VarInts#readUnsigned} uses it when the input implements it; the result and the errors must be
 * exactly those of the byte-by-byte decode. Internal.
 */
public interface VarIntInput {
  /** The next unsigned LEB128 varint, as {@link VarInts#readUnsigned} decodes it. */
  long readUnsignedVarInt() throws IOException;
}
