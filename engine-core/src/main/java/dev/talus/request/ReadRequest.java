package dev.talus.request;

import dev.talus.ClusteringOrder;
import java.util.List;
import java.util.Map;

/** A read as the user described it, before validation. Internal. */
public record ReadRequest(
    List<Restriction> restrictions,
    List<String> columns,
    List<Map.Entry<String, ClusteringOrder>> orderBy,
    boolean reversed,
    int limit,
    int pageSize,
    byte[] pagingState,
    boolean allowFiltering,
    int perPartitionLimit,
    List<Selector> selectors) {
  /** A read without element selections. */
  public ReadRequest(
      List<Restriction> restrictions,
      List<String> columns,
      List<Map.Entry<String, ClusteringOrder>> orderBy,
      boolean reversed,
      int limit,
      int pageSize,
      byte[] pagingState,
      boolean allowFiltering,
      int perPartitionLimit) {
    this(
        restrictions,
        columns,
        orderBy,
        reversed,
        limit,
        pageSize,
        pagingState,
        allowFiltering,
        perPartitionLimit,
        List.of());
  }
}
