package dev.talus.testkit;

import dev.talus.ColumnDef;
import dev.talus.ResultSet;
import dev.talus.Select;
import dev.talus.StoredPartition;
import dev.talus.Table;
import java.time.InstantSource;
import java.util.Arrays;
import java.util.List;
import java.util.Objects;
import java.util.stream.Collectors;
import org.assertj.core.api.AbstractAssert;

/**
 * Assertions on one partition of a {@link Table}, as stored in every memtable and SSTable ({@link
 * Table#dump}) and as read. Tombstone counts include expired TTL cells and expired row markers.
 */
public final class PartitionAssert extends AbstractAssert<PartitionAssert, Table> {
  private final Object[] key;
  private InstantSource clock;

  PartitionAssert(Table table, Object... partitionKey) {
    super(table, PartitionAssert.class);
    this.key = partitionKey.clone();
  }

  /** Another clock for explanations (by default the table's own database clock). */
  public PartitionAssert usingClock(InstantSource clock) {
    this.clock = Objects.requireNonNull(clock, "clock");
    return this;
  }

  private String name() {
    return TombstoneExplainer.partitionName(actual, key);
  }

  private Explanation explain() {
    return TombstoneExplainer.explain(clock, actual, key);
  }

  private List<StoredTombstone> tombstones() {
    return TombstoneExplainer.tombstones(clock, actual, key);
  }

  /** No memtable or SSTable holds a tombstone or expired data for the partition. */
  public PartitionAssert hasNoTombstones() {
    isNotNull();
    List<StoredTombstone> t = tombstones();
    if (!t.isEmpty()) {
      failWithMessage(
          "Expected %s to have no tombstones but %d are stored:%n%s%n%s",
          name(), t.size(), summary(t), explain());
    }
    return this;
  }

  /** Exactly {@code n} tombstones and pieces of expired data are stored, over all sources. */
  public PartitionAssert hasTombstones(int n) {
    isNotNull();
    List<StoredTombstone> t = tombstones();
    if (t.size() != n) {
      failWithMessage(
          "Expected %s to have %d tombstones but %d are stored:%n%s%n%s",
          name(), n, t.size(), summary(t), explain());
    }
    return this;
  }

  /** A read of the whole partition returns {@code n} live rows. */
  public PartitionAssert hasRows(int n) {
    isNotNull();
    ResultSet rs = read();
    if (rs.size() != n) {
      failWithMessage(
          "Expected %s to read as %d live rows but it has %d: %s", name(), n, rs.size(), rs);
    }
    return this;
  }

  /** Reads the whole partition and checks the read scanned at most {@code n} tombstones. */
  public PartitionAssert readScansAtMostTombstones(int n) {
    isNotNull();
    read();
    int scanned = actual.lastReadTombstoneCount();
    if (scanned > n) {
      failWithMessage(
          "Expected a read of %s to scan at most %d tombstones but it scanned %d:%n%s",
          name(), n, scanned, explain());
    }
    return this;
  }

  /** No SSTable holds anything for the partition (memtables may). */
  public PartitionAssert isNotInAnySSTable() {
    isNotNull();
    List<StoredPartition> in =
        actual.dump(key).stream().filter(p -> p.sstableGeneration() >= 0).toList();
    if (!in.isEmpty()) {
      failWithMessage(
          "Expected %s not to be in any SSTable but %s:%n%s", name(), holders(in), explain());
    }
    return this;
  }

  /** Nothing at all is stored for the partition: no data, no tombstones, in no source. */
  public PartitionAssert isNotStored() {
    isNotNull();
    List<StoredPartition> in = actual.dump(key);
    if (!in.isEmpty()) {
      failWithMessage(
          "Expected nothing to be stored for %s but %s:%n%s", name(), holders(in), explain());
    }
    return this;
  }

  /** Exactly these SSTables (and no memtable) hold something for the partition. */
  public PartitionAssert isStoredOnlyIn(long... generations) {
    isNotNull();
    List<String> expected =
        Arrays.stream(generations).sorted().mapToObj(g -> "sstable " + g).toList();
    List<String> actualSources =
        actual.dump(key).stream()
            .map(p -> p.sstableGeneration() < 0 ? p.source() : "sstable " + p.sstableGeneration())
            .sorted()
            .toList();
    if (!actualSources.equals(expected)) {
      failWithMessage(
          "Expected %s to be stored only in %s but it is in %s", name(), expected, actualSources);
    }
    return this;
  }

  private ResultSet read() {
    List<ColumnDef> pk = actual.schema().partitionKey();
    if (pk.size() != key.length) {
      throw new IllegalArgumentException(
          "the table's partition key is "
              + pk.stream().map(ColumnDef::name).toList()
              + " but "
              + key.length
              + " values were given");
    }
    Select s = actual.select();
    for (int i = 0; i < key.length; i++) {
      s.eq(pk.get(i).name(), key[i]);
    }
    return s.execute();
  }

  private static String summary(List<StoredTombstone> t) {
    return t.stream()
        .collect(
            Collectors.groupingBy(
                x -> x.source() + ": " + x.kind(),
                java.util.LinkedHashMap::new,
                Collectors.counting()))
        .entrySet()
        .stream()
        .map(e -> "  " + e.getKey() + " × " + e.getValue())
        .collect(Collectors.joining(System.lineSeparator()));
  }

  /**
   * "sstable 2 holds it", "sstable 1 and sstable 2 hold it", "memtable, sstable 3 and … hold it".
   */
  static String holders(List<StoredPartition> in) {
    List<String> names = in.stream().map(StoredPartition::source).toList();
    if (names.size() == 1) {
      return names.get(0) + " holds it";
    }
    return String.join(", ", names.subList(0, names.size() - 1))
        + " and "
        + names.get(names.size() - 1)
        + " hold it";
  }
}
