/**
 * Validation and byte encodings of column values: the cell encoding of every {@link
 * dev.talus.DataType}, and the order-preserving, prefix-free key encoding of key types.
 *
 * <p>Internal: not part of the Talus public API; it may change without notice.
 */
package dev.talus.codec;
