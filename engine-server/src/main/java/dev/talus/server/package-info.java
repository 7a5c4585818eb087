/**
 * The Cassandra native protocol (v4 and v5) in front of an embedded Talus: {@link
 * dev.talus.server.TalusServer} lets the Cassandra drivers run CQL against a {@link
 * dev.talus.TalusDb}. The protocol's codec lives in {@code dev.talus.server.wire}, internal to this
 * module.
 */
package dev.talus.server;
