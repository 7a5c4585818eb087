/**
 * What a running database hands its parts: {@link dev.talus.runtime.DbContext} (options, clock and
 * timestamps, file layer, chunk cache, compaction throttle and pause gate, metrics, open-check).
 * Internal: not part of the Talus public API.
 */
package dev.talus.runtime;
