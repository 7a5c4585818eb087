/**
 * Tables' schemas as the engine uses them: the catalogue of a data directory and its file ({@code
 * schema.db}), the codecs that turn key values into bytes and back ({@link
 * dev.talus.schema.KeyCodec}), the column resolution shared by write and read validation, and
 * clustering restrictions turned into slice bounds.
 *
 * <p>Internal: not part of the Talus public API; it may change without notice.
 */
package dev.talus.schema;
