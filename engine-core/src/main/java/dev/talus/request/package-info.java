/**
 * What the public API hands the engine: write and read requests as the user described them, before
 * validation, their restrictions, and the result of a read. Plain immutable records; the write and
 * read paths validate them.
 *
 * <p>Internal: not part of the Talus public API; it may change without notice.
 */
package dev.talus.request;
