/**
 * The native protocol's bytes: frames, primitive notations, value serialization, result and error
 * messages. Internal to engine-server.
 */
package dev.talus.server.wire;
