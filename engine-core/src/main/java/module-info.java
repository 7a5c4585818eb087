/**
 * Talus, an embedded wide-column storage engine with Cassandra's data model. The public API is
 * package {@code dev.talus}; every other package is internal. The storage hook in {@code
 * dev.talus.db} is exported to the testkit only, for its fault injector.
 */
@SuppressWarnings("module") // dev.talus.testkit is built after this module
module dev.talus {
  requires dev.talus.sstable;
  requires dev.talus.compaction;
  requires org.slf4j;

  exports dev.talus;
  exports dev.talus.db to
      dev.talus.testkit;
}
