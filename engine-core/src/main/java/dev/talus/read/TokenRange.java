package dev.talus.read;

import dev.talus.InvalidQueryException;
import dev.talus.data.PartitionKey;
import dev.talus.request.Restriction;
import java.util.List;

/**
 * The tokens a scan reads, both ends inclusive: the whole ring, or what its {@code token(pk)}
 * restrictions leave (their intersection). Immutable.
 */
record TokenRange(long min, long max) {
  static final TokenRange ALL = new TokenRange(Long.MIN_VALUE, Long.MAX_VALUE);

  /** The range the restrictions leave; {@code min > max} when they leave none. */
  static TokenRange of(List<Restriction> restrictions) {
    long min = Long.MIN_VALUE;
    long max = Long.MAX_VALUE;
    boolean empty = false;
    for (Restriction r : restrictions) {
      if (r.values().size() != 1 || !(r.value() instanceof Long t)) {
        throw new InvalidQueryException("a token restriction takes one long value");
      }
      switch (r.op()) {
        case GT -> {
          empty |= t == Long.MAX_VALUE;
          min = Math.max(min, t == Long.MAX_VALUE ? t : t + 1);
        }
        case GE -> min = Math.max(min, t);
        case LT -> {
          empty |= t == Long.MIN_VALUE;
          max = Math.min(max, t == Long.MIN_VALUE ? t : t - 1);
        }
        case LE -> max = Math.min(max, t);
        case EQ -> {
          min = Math.max(min, t);
          max = Math.min(max, t);
        }
        case IN -> throw new InvalidQueryException("in(...) is not supported on token(...)");
      }
    }
    return empty ? new TokenRange(0, -1) : new TokenRange(min, max);
  }

  boolean isEmpty() {
    return min > max;
  }

  /** The smallest partition key of the range (no key sorts before it). */
  PartitionKey firstKey() {
    return PartitionKey.of(new byte[0], min, 0);
  }

  boolean pastEnd(PartitionKey key) {
    return key.token() > max;
  }
}
