package dev.talus.request;

import java.time.Duration;
import java.util.List;
import java.util.Map;

/** A write as the user described it, before validation. Internal. */
public record WriteRequest(
    Kind kind,
    List<Restriction> where,
    Map<String, Object> values,
    List<String> deleteColumns,
    Duration ttl,
    Long timestamp,
    List<ElementOp> operations) {
  /** A write without element operations. */
  public WriteRequest(
      Kind kind,
      List<Restriction> where,
      Map<String, Object> values,
      List<String> deleteColumns,
      Duration ttl,
      Long timestamp) {
    this(kind, where, values, deleteColumns, ttl, timestamp, List.of());
  }

  /** INSERT creates row liveness; UPDATE writes cells only; DELETE writes tombstones. */
  public enum Kind {
    INSERT,
    UPDATE,
    DELETE
  }
}
