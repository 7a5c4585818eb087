/**
 * {@code GROUP BY}: the rows of a read folded into groups of the partition key or a clustering
 * prefix, streamed in bounded memory and paged by whole groups.
 *
 * <p>Internal: not part of the Talus public API; it may change without notice.
 */
package dev.talus.read.group;
