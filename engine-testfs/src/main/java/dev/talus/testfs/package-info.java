/**
 * Test support for the file layer: {@link dev.talus.testfs.FaultInjectingFs}, a {@link
 * dev.talus.io.StorageFs} that injects I/O errors, full disks and torn writes and simulates power
 * loss (the role Lucene's {@code MockDirectoryWrapper} plays in its test framework), and {@link
 * dev.talus.testfs.StorageFsContract}, the conformance suite every {@code StorageFs} passes. Used
 * by the engine's own tests and by engine-testkit's {@code FaultInjector}; never part of a
 * production jar.
 */
package dev.talus.testfs;
