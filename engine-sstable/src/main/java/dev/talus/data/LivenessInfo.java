package dev.talus.data;

/**
 * Primary-key liveness of a row (Cassandra's row marker): written by INSERT, not by UPDATE, so an
 * inserted row stays visible with all its columns null. It may expire (TTL) like a cell.
 *
 * <p>Immutable and thread-safe.
 */
public record LivenessInfo(long timestamp, int ttl, long localExpirationTime) {
  /** No row marker. */
  public static final LivenessInfo EMPTY =
      new LivenessInfo(Long.MIN_VALUE, 0, Cell.NO_DELETION_TIME);

  public static LivenessInfo of(long timestamp) {
    return new LivenessInfo(timestamp, 0, Cell.NO_DELETION_TIME);
  }

  public static LivenessInfo expiring(long timestamp, int ttl, long nowSec) {
    return new LivenessInfo(timestamp, ttl, nowSec + ttl);
  }

  public boolean isEmpty() {
    return timestamp == Long.MIN_VALUE;
  }

  public boolean isExpiring() {
    return ttl > 0;
  }

  public boolean isLive(long nowSec) {
    return !isEmpty() && (ttl == 0 || nowSec < localExpirationTime);
  }

  /**
   * Higher timestamp wins; on a tie an expiring marker beats a plain one, and between two of the
   * same kind the later expiry (then the smaller TTL) wins.
   */
  public boolean supersedes(LivenessInfo o) {
    if (timestamp != o.timestamp) {
      return timestamp > o.timestamp;
    }
    if (isExpiring() != o.isExpiring()) {
      return isExpiring();
    }
    if (localExpirationTime != o.localExpirationTime) {
      return localExpirationTime > o.localExpirationTime;
    }
    return ttl < o.ttl;
  }

  public LivenessInfo max(LivenessInfo o) {
    return o.supersedes(this) ? o : this;
  }
}
