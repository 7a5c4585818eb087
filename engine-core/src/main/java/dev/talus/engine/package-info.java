/**
 * The engine behind the public API: tables, the write and read paths, query validation, schema
 * persistence. Internal: not part of the Talus public API; may change without notice.
 */
package dev.talus.engine;
