/**
 * Benchmarks of Talus: the JMH suite ({@code *Benchmark}) and the side-by-side runner against
 * RocksDB ({@link dev.talus.bench.Compare}). Not a library and not public API: everything here may
 * change with the engine it measures. Data goes under the directory named by the system property
 * {@code talus.bench.dir} (default: the system temp directory), so runs can target an NVMe mount.
 */
package dev.talus.bench;
