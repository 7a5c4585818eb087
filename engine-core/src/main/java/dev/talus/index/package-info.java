/**
 * Secondary indexes: the rules for defining them. Internal; the public side is {@link
 * dev.talus.IndexDef} and {@link dev.talus.Table#createIndex}.
 */
package dev.talus.index;
