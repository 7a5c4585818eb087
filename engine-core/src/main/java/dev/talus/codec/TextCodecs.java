package dev.talus.codec;

import dev.talus.DataType;
import java.io.ByteArrayOutputStream;
import java.nio.ByteBuffer;
import java.nio.charset.CharacterCodingException;
import java.nio.charset.Charset;
import java.nio.charset.CodingErrorAction;
import java.nio.charset.StandardCharsets;
import java.util.Arrays;

/**
 * Codecs of the byte-string types: text, ascii and blob.
 *
 * <p>Cell encodings: text is its UTF-8 bytes, ascii its US-ASCII bytes, blob its bytes as is.
 * Decoding is strict: malformed UTF-8 or a byte above 0x7F in ascii is an error, not replaced.
 *
 * <p>Key encoding: the same bytes with every {@code 0x00} escaped as {@code 0x00 0xFF}, terminated
 * by {@code 0x00 0x00}. The terminator sorts below every continuation, so a string sorts before its
 * extensions, and the escaping keeps the unsigned byte order of the original bytes.
 *
 * <p>Natural orders: unsigned lexicographic bytes. For text this is Unicode code point order, which
 * is the order of UTF-8 bytes but not the UTF-16 order of {@link String#compareTo}: U+FFFF sorts
 * before U+1F600, whose UTF-16 form starts with the surrogate 0xD83D.
 *
 * <p>Coercion: text and ascii accept a {@link String}; text rejects unpaired surrogates (they have
 * no UTF-8 form) and ascii rejects characters above U+007F. Blob accepts a {@code byte[]}, which is
 * copied so later changes by the caller cannot reach stored data.
 *
 * <p>All codecs here are immutable and thread-safe.
 */
final class TextCodecs {
  static final TypeCodec<String> TEXT = new StringCodec(DataType.TEXT, StandardCharsets.UTF_8);
  static final TypeCodec<String> ASCII = new StringCodec(DataType.ASCII, StandardCharsets.US_ASCII);
  static final TypeCodec<byte[]> BLOB = new BlobCodec();

  /** A blob nested in a collection, tuple, user type or vector: a read-only ByteBuffer. */
  static final TypeCodec<ByteBuffer> BLOB_BUFFER = new BlobBufferCodec();

  private TextCodecs() {}

  /**
   * Compares strings by code point without decoding them: at the first differing UTF-16 unit, the
   * surrogates (0xD800-0xDFFF) are moved above the other units from 0xE000, which is exactly where
   * the supplementary code points they encode belong.
   */
  static int compareCodePoints(String a, String b) {
    int n = Math.min(a.length(), b.length());
    for (int i = 0; i < n; i++) {
      char x = a.charAt(i);
      char y = b.charAt(i);
      if (x != y) {
        if (x >= Character.MIN_SURROGATE && y >= Character.MIN_SURROGATE) {
          return Integer.compare(fixUp(x), fixUp(y));
        }
        return Character.compare(x, y);
      }
    }
    return Integer.compare(a.length(), b.length());
  }

  private static int fixUp(char c) {
    return c > Character.MAX_SURROGATE ? c - 0x800 : c + 0x2000;
  }

  private static final class StringCodec extends TypeCodec<String> {
    private final Charset charset;

    StringCodec(DataType type, Charset charset) {
      super(type, String.class);
      this.charset = charset;
    }

    @Override
    String coerceNonNull(Object value) {
      String s = cast(value);
      if (charset == StandardCharsets.US_ASCII) {
        for (int i = 0; i < s.length(); i++) {
          if (s.charAt(i) > 0x7F) {
            throw invalid(value, "non-ASCII character U+" + hex4(s.charAt(i)) + " at index " + i);
          }
        }
      } else {
        for (int i = 0; i < s.length(); i++) {
          char c = s.charAt(i);
          if (Character.isHighSurrogate(c)
              && i + 1 < s.length()
              && Character.isLowSurrogate(s.charAt(i + 1))) {
            i++;
          } else if (Character.isSurrogate(c)) {
            throw invalid(value, "unpaired surrogate U+" + hex4(c) + " at index " + i);
          }
        }
      }
      return s;
    }

    private static String hex4(char c) {
      return String.format("%04X", (int) c);
    }

    @Override
    void serializeValue(String value, ByteArrayOutputStream out) {
      out.writeBytes(value.getBytes(charset));
    }

    @Override
    byte[] encode(String value) {
      return value.getBytes(charset);
    }

    @Override
    String deserializeValue(byte[] src, int[] pos) {
      return decode(KeyBytes.readBytes(src, pos, src.length - pos[0]));
    }

    @Override
    void encodeKeyValue(String value, ByteArrayOutputStream out) {
      KeyBytes.writeEscaped(out, value.getBytes(charset));
    }

    @Override
    String decodeKeyValue(byte[] src, int[] pos) {
      return decode(KeyBytes.readEscaped(src, pos));
    }

    /**
     * Strict decoding: malformed bytes are refused, never replaced. Bytes all below 0x80 mean the
     * same in ASCII and UTF-8, and make the string without a decoder (most keys and many values).
     */
    private String decode(byte[] bytes) {
      if (ascii(bytes)) {
        return new String(bytes, StandardCharsets.ISO_8859_1);
      }
      try {
        return charset
            .newDecoder()
            .onMalformedInput(CodingErrorAction.REPORT)
            .onUnmappableCharacter(CodingErrorAction.REPORT)
            .decode(ByteBuffer.wrap(bytes))
            .toString();
      } catch (CharacterCodingException e) {
        throw new IllegalArgumentException("Invalid " + type().cqlName() + " bytes", e);
      }
    }

    private static boolean ascii(byte[] bytes) {
      for (byte b : bytes) {
        if (b < 0) {
          return false;
        }
      }
      return true;
    }

    @Override
    int compareValues(String a, String b) {
      return compareCodePoints(a, b);
    }

    @Override
    String formatValue(String value) {
      return value;
    }

    @Override
    public String literal(Object value) {
      return "'" + cast(value).replace("'", "''") + "'";
    }
  }

  private static final class BlobCodec extends TypeCodec<byte[]> {
    BlobCodec() {
      super(DataType.BLOB, byte[].class);
    }

    @Override
    byte[] coerceNonNull(Object value) {
      return cast(value).clone();
    }

    /** Encoding only reads the array, so the defensive copy of {@link #coerce} is not needed. */
    @Override
    byte[] checked(Object canonicalValue) {
      return cast(canonicalValue);
    }

    @Override
    void serializeValue(byte[] value, ByteArrayOutputStream out) {
      out.writeBytes(value);
    }

    @Override
    byte[] encode(byte[] value) {
      return value.clone();
    }

    @Override
    public byte[] serializeOwned(Object coercedValue) {
      return cast(coercedValue); // coerce copied it; the caller hands the copy over
    }

    @Override
    public byte[] deserializeOwned(byte[] bytes) {
      return java.util.Objects.requireNonNull(bytes, "bytes"); // a blob's bytes are its value
    }

    @Override
    byte[] deserializeValue(byte[] src, int[] pos) {
      return KeyBytes.readBytes(src, pos, src.length - pos[0]);
    }

    @Override
    void encodeKeyValue(byte[] value, ByteArrayOutputStream out) {
      KeyBytes.writeEscaped(out, value);
    }

    @Override
    byte[] decodeKeyValue(byte[] src, int[] pos) {
      return KeyBytes.readEscaped(src, pos);
    }

    @Override
    int compareValues(byte[] a, byte[] b) {
      return Arrays.compareUnsigned(a, b);
    }

    @Override
    String formatValue(byte[] value) {
      return KeyBytes.hex(value);
    }
  }

  private static final class BlobBufferCodec extends TypeCodec<ByteBuffer> {
    BlobBufferCodec() {
      super(DataType.BLOB, ByteBuffer.class);
    }

    @Override
    ByteBuffer coerceNonNull(Object value) {
      if (value instanceof byte[] b) {
        return ByteBuffer.wrap(b.clone()).asReadOnlyBuffer();
      }
      ByteBuffer b = cast(value);
      byte[] copy = new byte[b.remaining()];
      b.duplicate().get(copy);
      return ByteBuffer.wrap(copy).asReadOnlyBuffer();
    }

    private static byte[] bytes(ByteBuffer b) {
      byte[] copy = new byte[b.remaining()];
      b.duplicate().get(copy);
      return copy;
    }

    @Override
    ByteBuffer checked(Object canonicalValue) {
      return canonicalValue instanceof byte[]
          ? coerceNonNull(canonicalValue)
          : cast(canonicalValue);
    }

    @Override
    void serializeValue(ByteBuffer value, ByteArrayOutputStream out) {
      out.writeBytes(bytes(value));
    }

    @Override
    ByteBuffer deserializeValue(byte[] src, int[] pos) {
      return ByteBuffer.wrap(KeyBytes.readBytes(src, pos, src.length - pos[0])).asReadOnlyBuffer();
    }

    @Override
    void encodeKeyValue(ByteBuffer value, ByteArrayOutputStream out) {
      KeyBytes.writeEscaped(out, bytes(value));
    }

    @Override
    ByteBuffer decodeKeyValue(byte[] src, int[] pos) {
      return ByteBuffer.wrap(KeyBytes.readEscaped(src, pos)).asReadOnlyBuffer();
    }

    @Override
    int compareValues(ByteBuffer a, ByteBuffer b) {
      return Arrays.compareUnsigned(bytes(a), bytes(b));
    }

    @Override
    String formatValue(ByteBuffer value) {
      return KeyBytes.hex(bytes(value));
    }
  }
}
