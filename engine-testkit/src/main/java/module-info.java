/**
 * Test Cassandra-style data models with Talus: JUnit 5 extensions, manual clock helpers, inspection
 * and AssertJ assertions, and the fault injector.
 */
module dev.talus.testkit {
  requires transitive dev.talus;
  requires transitive org.junit.jupiter.api;
  requires transitive org.assertj.core;
  requires dev.talus.testfs;
  requires dev.talus.sstable;

  exports dev.talus.testkit;
}
