package dev.talus.db;

import dev.talus.ColumnDef;
import dev.talus.DataType;
import dev.talus.IndexDef;
import dev.talus.InvalidQueryException;
import dev.talus.TableSchema;
import dev.talus.codec.TypeCodec;
import dev.talus.data.PartitionKey;
import dev.talus.index.VectorSearch;
import dev.talus.index.VectorSimilarity;
import dev.talus.request.ReadRequest;
import dev.talus.request.Restriction;
import dev.talus.schema.Columns;
import dev.talus.schema.KeyCodec;
import java.util.List;

/**
 * What an ANN read asks, checked with Cassandra 5.0's messages ({@code
 * cql3/restrictions/StatementRestrictions.java}, {@code cql3/statements/SelectStatement.java}): the
 * column has a vector index, the query vector its dimension, a LIMIT of at most 1000 and no PER
 * PARTITION LIMIT, no other ordering; a restricted regular or static column must have an index (of
 * its own, not the vector). A page size below the LIMIT does not page the read: as Cassandra 5.0
 * runs a top-k query ({@code SelectStatement.execute}), every row comes in one page. With the whole
 * partition key by equality and nothing else, or no restriction, the vector index ranks each
 * source; with any other restriction (an indexed column, a clustering range) the plan is {@code
 * filtered}: the matching rows are read as a normal read would, and ranked exactly.
 *
 * @param column the vector column
 * @param index its vector index
 * @param function the index's similarity function
 * @param query the query vector, checked
 * @param partition the partition the read is restricted to, or null for the whole table
 * @param k the number of rows asked for
 * @param filtered true if the read has restrictions beyond the whole partition key
 */
record VectorPlan(
    String column,
    IndexDef index,
    VectorSimilarity function,
    float[] query,
    PartitionKey partition,
    int k,
    boolean filtered) {
  /** Cassandra's {@code SelectStatement.TOPK_LIMIT_ERROR}, for a read without a LIMIT. */
  static final String TOPK_LIMIT_ERROR =
      "Top-K queries must have a limit specified and the limit must be less than the query page"
          + " size";

  static VectorPlan of(
      TableSchema s,
      KeyCodec keys,
      List<IndexDef> indexes,
      ReadRequest req,
      String column,
      float[] query) {
    ColumnDef c =
        s.column(column)
            .orElseThrow(() -> new InvalidQueryException("Undefined column name " + column));
    if (!req.orderBy().isEmpty() || req.reversed()) {
      throw new InvalidQueryException("ANN ordering does not support any other ordering");
    }
    if (c.type().kind() != DataType.Kind.VECTOR || !c.type().elementType().equals(DataType.FLOAT)) {
      throw new InvalidQueryException("ANN ordering is only supported on float vector indexes");
    }
    IndexDef index = null;
    for (IndexDef d : indexes) {
      if (d.column().equals(c.name()) && VectorSearch.isVector(keys, d)) {
        index = d;
      }
    }
    if (index == null) {
      throw new InvalidQueryException("ANN ordering by vector requires the column to be indexed");
    }
    if (req.limit() == Integer.MAX_VALUE) {
      throw new InvalidQueryException(TOPK_LIMIT_ERROR);
    }
    if (req.perPartitionLimit() != Integer.MAX_VALUE) {
      throw new InvalidQueryException("Top-K queries do not support per-partition limits");
    }
    if (req.limit() > VectorRead.MAX_TOP_K) {
      throw new InvalidQueryException(
          "Use of ANN OF in an ORDER BY clause requires a LIMIT that is not greater than "
              + VectorRead.MAX_TOP_K
              + ". LIMIT was "
              + req.limit());
    }
    float[] q;
    try {
      q = (float[]) TypeCodec.of(c.type()).coerce(query);
    } catch (IllegalArgumentException e) {
      throw new InvalidQueryException(e.getMessage(), e);
    }
    VectorSimilarity f = VectorSimilarity.of(index);
    if (!f.accepts(q)) {
      throw new InvalidQueryException(
          "Zero and near-zero vectors cannot be indexed or queried with cosine similarity");
    }
    if (req.pagingState() != null) {
      throw new InvalidQueryException(
          "an ANN read returns its rows in one page (at most 1000): it takes no paging state");
    }
    if (!req.tupleRestrictions().isEmpty() || !req.tokenRestrictions().isEmpty()) {
      throw unsupported("multi-column or token restrictions");
    }
    Object[] pk = new Object[s.partitionKey().size()];
    boolean filtered = false;
    for (Restriction x : req.restrictions()) {
      ColumnDef rc =
          s.column(x.column())
              .orElseThrow(() -> new InvalidQueryException("Undefined column name " + x.column()));
      if (rc.kind() == ColumnDef.Kind.REGULAR || rc.kind() == ColumnDef.Kind.STATIC) {
        boolean indexed = false;
        for (IndexDef d : indexes) {
          indexed |= d.column().equals(rc.name()) && !VectorSearch.isVector(keys, d);
        }
        if (!indexed) { // Cassandra 5.0 filters nothing beside ANN, opted into or not
          throw new InvalidQueryException(
              "ANN ordering by vector requires all restricted column(s) to be indexed");
        }
      }
      if (rc.kind() != ColumnDef.Kind.PARTITION_KEY
          || x.op() != Restriction.Op.EQ
          || x.values().size() != 1) {
        filtered = true;
      } else {
        pk[s.partitionKey().indexOf(rc)] = Columns.coerce(s, rc, x.value());
      }
    }
    PartitionKey partition = null;
    if (!req.restrictions().isEmpty()) {
      for (Object v : pk) {
        filtered |= v == null;
      }
      if (!filtered) {
        partition = keys.partitionKey(pk);
      }
    }
    return new VectorPlan(c.name(), index, f, q, partition, req.limit(), filtered);
  }

  private static InvalidQueryException unsupported(String what) {
    return new InvalidQueryException(
        "ANN ordering with " + what + " is not yet supported by Talus");
  }
}
