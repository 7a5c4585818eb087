/** Memtables: the in-memory, concurrently writable part of a table. Internal. */
package dev.talus.memtable;
