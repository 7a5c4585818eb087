/**
 * The file layer: every write, fsync, rename and delete the engine makes passes through {@link
 * dev.talus.io.StorageFs}, so tests can inject faults (I/O errors, a full disk, torn writes, power
 * loss). Internal: not part of the Talus public API.
 */
package dev.talus.io;
