/**
 * The storage data model in bytes and the on-disk SSTable format. Internal to Talus: its packages
 * are exported only to the modules of the engine and its test support.
 */
// "module": the test-support modules are built after this one; "requires-automatic": lz4-java
// names its automatic module (org.lz4.java) in its manifest, so the name is stable
@SuppressWarnings({"module", "requires-automatic"})
module dev.talus.sstable {
  requires org.slf4j;
  requires org.lz4.java;
  requires com.github.luben.zstd_jni;
  requires com.github.benmanes.caffeine;
  requires transitive roaringbitmap;

  exports dev.talus.data to
      dev.talus.compaction,
      dev.talus;
  exports dev.talus.io to
      dev.talus.compaction,
      dev.talus,
      dev.talus.testfs,
      dev.talus.testkit;
  exports dev.talus.sstable to
      dev.talus.compaction,
      dev.talus;
}
