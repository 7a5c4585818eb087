package dev.talus.read;

import dev.talus.ResultRow;
import dev.talus.data.ClusteringBytes;
import java.util.List;
import java.util.PriorityQueue;

/**
 * Puts the rows a read found in its partitions into one page: partition after partition, or merged
 * into the read's order, and the paging state of what follows. Stateless.
 */
final class PageAssembly {
  private PageAssembly() {}

  /** Partition after partition (Cassandra's order without ORDER BY); the paging state, or null. */
  static byte[] concatenate(
      QueryPlanner.Plan plan,
      List<List<ReadPath.Found>> perPartition,
      int first,
      int want,
      int remainingLimit,
      List<ResultRow> out) {
    ReadPath.Found last = null;
    int inLast = 0;
    for (int i = first; i < perPartition.size(); i++) {
      for (ReadPath.Found f : perPartition.get(i)) {
        if (out.size() == want) {
          return out.size() < remainingLimit ? state(plan, last, out.size(), inLast) : null;
        }
        out.add(f.row());
        inLast = last != null && last.partition() == f.partition() ? inLast + 1 : 1;
        last = f;
      }
    }
    return null;
  }

  /**
   * The partitions' rows merged into the query's clustering order, ties in partition order (as
   * Cassandra's stable sort of the rows it read partition after partition leaves them); the paging
   * state, or null.
   */
  static byte[] merge(
      QueryPlanner.Plan plan,
      List<List<ReadPath.Found>> perPartition,
      int want,
      int remainingLimit,
      List<ResultRow> out) {
    int n = perPartition.size();
    int[] next = new int[n];
    boolean reversed = plan.reversed();
    PriorityQueue<Integer> heads =
        new PriorityQueue<>(
            n,
            (a, b) -> {
              int c =
                  ClusteringBytes.compare(
                      perPartition.get(a).get(next[a]).clustering(),
                      perPartition.get(b).get(next[b]).clustering());
              return c != 0 ? (reversed ? -c : c) : Integer.compare(a, b);
            });
    for (int i = 0; i < n; i++) {
      if (!perPartition.get(i).isEmpty()) {
        heads.add(i);
      }
    }
    ReadPath.Found last = null;
    while (!heads.isEmpty()) {
      int i = heads.poll();
      ReadPath.Found f = perPartition.get(i).get(next[i]++);
      if (out.size() == want) {
        return out.size() < remainingLimit ? state(plan, last, out.size(), 0) : null;
      }
      out.add(f.row());
      last = f;
      if (next[i] < perPartition.get(i).size()) {
        heads.add(i);
      }
    }
    return null;
  }

  private static byte[] state(QueryPlanner.Plan plan, ReadPath.Found last, int rows, int inLast) {
    Paging.Resume r = plan.resume();
    int inPartition =
        inLast
            + (r.after() != null && r.startPartition() == last.partition() ? r.inPartition() : 0);
    return Paging.pagingState(
        plan, last.partition(), last.clustering(), r.alreadyReturned() + rows, inPartition);
  }
}
