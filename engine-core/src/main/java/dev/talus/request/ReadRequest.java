package dev.talus.request;

import dev.talus.ClusteringOrder;
import java.util.List;
import java.util.Map;

/**
 * A read as the user described it, before validation. Internal.
 *
 * @param restrictions single-column conditions
 * @param tupleRestrictions multi-column relations on clustering columns
 * @param tokenRestrictions conditions on the token of the partition key (column name {@code token},
 *     one {@code Long} value each); they make the read a scan of a token range
 * @param selectors parts of columns selected (elements, element ranges, fields)
 */
public record ReadRequest(
    List<Restriction> restrictions,
    List<TupleRestriction> tupleRestrictions,
    List<String> columns,
    List<Map.Entry<String, ClusteringOrder>> orderBy,
    boolean reversed,
    int limit,
    int pageSize,
    byte[] pagingState,
    boolean allowFiltering,
    int perPartitionLimit,
    List<Restriction> tokenRestrictions,
    List<Selector> selectors) {}
