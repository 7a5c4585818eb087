/**
 * The storage data model in bytes: tokens, byte-comparable clusterings, cells, rows, deletions and
 * the reconciling merge. Internal: not part of the Talus public API.
 */
package dev.talus.data;
