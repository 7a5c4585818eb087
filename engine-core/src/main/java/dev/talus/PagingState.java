package dev.talus;

import java.util.Arrays;
import java.util.Base64;

/**
 * Where a paged read stopped. Pass it to {@link Select#pagingState} with the same query to get the
 * next page. Opaque; {@link #toString()} and {@link #fromString} turn it into text that can be sent
 * to a client and back. Immutable and thread-safe.
 */
public final class PagingState {
  private final byte[] bytes;

  PagingState(byte[] bytes) {
    this.bytes = bytes;
  }

  /** Parses a state produced by {@link #toString()}. */
  public static PagingState fromString(String s) {
    try {
      return new PagingState(Base64.getUrlDecoder().decode(s));
    } catch (IllegalArgumentException e) {
      throw new InvalidQueryException("not a paging state: " + s, e);
    }
  }

  byte[] bytes() {
    return bytes.clone();
  }

  @Override
  public boolean equals(Object o) {
    return o instanceof PagingState p && Arrays.equals(p.bytes, bytes);
  }

  @Override
  public int hashCode() {
    return Arrays.hashCode(bytes);
  }

  @Override
  public String toString() {
    return Base64.getUrlEncoder().withoutPadding().encodeToString(bytes);
  }
}
