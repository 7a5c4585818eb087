/**
 * The file layer: every write, fsync, rename and delete the engine makes passes through {@link
 * dev.talus.io.StorageFs}, so tests can install another implementation and inject faults (I/O
 * errors, a full disk, torn writes, power loss); and {@link dev.talus.io.FileFormat}, the header,
 * footer and checksum code every binary file shares. Internal: not part of the Talus public API.
 */
package dev.talus.io;
