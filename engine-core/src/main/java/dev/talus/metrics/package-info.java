/**
 * Metrics: concurrent histograms and latency timing, and the forwarding of metric events to the
 * user's listener. The only internal package besides the commit log and compaction allowed to read
 * the wall clock, and only to measure durations. Internal.
 */
package dev.talus.metrics;
