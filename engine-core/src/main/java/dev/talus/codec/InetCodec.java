package dev.talus.codec;

import dev.talus.DataType;
import java.io.ByteArrayOutputStream;
import java.net.Inet6Address;
import java.net.InetAddress;
import java.net.UnknownHostException;
import java.util.Arrays;

/**
 * Codec of inet, an IPv4 or IPv6 address.
 *
 * <p>Coercion accepts an {@link InetAddress} and keeps only its address bytes: the host name is
 * dropped (the result never triggers a name lookup), and an IPv6 address with a scope is rejected
 * because the scope could not be stored. IPv4-mapped IPv6 addresses become IPv4 addresses, as
 * {@link InetAddress#getByAddress(byte[])} does.
 *
 * <p>Cell encoding: the 4 or 16 address bytes. Key encoding: the address length (one byte, 4 or
 * 16), then the address bytes. Natural order: IPv4 before IPv6, then unsigned bytes. Formatted as
 * the address literal ({@link InetAddress#getHostAddress}).
 *
 * <p>Immutable and thread-safe.
 */
final class InetCodec extends TypeCodec<InetAddress> {
  static final TypeCodec<InetAddress> INET = new InetCodec();

  private InetCodec() {
    super(DataType.INET, InetAddress.class);
  }

  @Override
  InetAddress coerceNonNull(Object value) {
    InetAddress address = cast(value);
    if (address instanceof Inet6Address v6
        && (v6.getScopeId() != 0 || v6.getScopedInterface() != null)) {
      throw invalid(value, address + " has a scope, which cannot be stored");
    }
    return ofBytes(address.getAddress());
  }

  private static InetAddress ofBytes(byte[] bytes) {
    if (bytes.length != 4 && bytes.length != 16) {
      throw new IllegalArgumentException("Invalid inet address length " + bytes.length);
    }
    try {
      return InetAddress.getByAddress(bytes);
    } catch (UnknownHostException e) {
      throw new IllegalArgumentException("Invalid inet address", e);
    }
  }

  @Override
  void serializeValue(InetAddress value, ByteArrayOutputStream out) {
    out.writeBytes(value.getAddress());
  }

  @Override
  InetAddress deserializeValue(byte[] src, int[] pos) {
    return ofBytes(KeyBytes.readBytes(src, pos, src.length - pos[0]));
  }

  @Override
  void encodeKeyValue(InetAddress value, ByteArrayOutputStream out) {
    byte[] bytes = value.getAddress();
    out.write(bytes.length);
    out.writeBytes(bytes);
  }

  @Override
  InetAddress decodeKeyValue(byte[] src, int[] pos) {
    int length = KeyBytes.readByte(src, pos);
    if (length != 4 && length != 16) {
      throw new IllegalArgumentException("Invalid inet address length " + length);
    }
    return ofBytes(KeyBytes.readBytes(src, pos, length));
  }

  @Override
  int compareValues(InetAddress a, InetAddress b) {
    byte[] x = a.getAddress();
    byte[] y = b.getAddress();
    int c = Integer.compare(x.length, y.length);
    return c != 0 ? c : Arrays.compareUnsigned(x, y);
  }

  @Override
  String formatValue(InetAddress value) {
    return value.getHostAddress();
  }
}
