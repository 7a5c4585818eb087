/** Compaction strategies and tasks. Internal to Talus: exported only to the engine. */
@SuppressWarnings("module") // dev.talus is built after this module
module dev.talus.compaction {
  requires dev.talus.sstable;
  requires org.slf4j;

  exports dev.talus.compaction to
      dev.talus;
}
