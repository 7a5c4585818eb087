/** Test support for the file layer: the fault-injecting StorageFs and its conformance suite. */
module dev.talus.testfs {
  requires transitive dev.talus.sstable;
  requires transitive org.junit.jupiter.api;
  requires org.assertj.core;

  exports dev.talus.testfs;
}
