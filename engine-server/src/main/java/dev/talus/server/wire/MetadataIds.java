package dev.talus.server.wire;

import dev.talus.cql.CqlColumn;
import java.nio.charset.StandardCharsets;
import java.security.MessageDigest;
import java.security.NoSuchAlgorithmException;
import java.util.List;

/**
 * The result metadata id of protocol v5: a digest of a result's columns (keyspace, table, name and
 * type of each, in order), so that a client holding the id of a prepared statement's columns learns
 * when they changed (a column added to the table of a {@code SELECT *}) and receives the new ones.
 * An MD5 digest, as Cassandra's {@code ResultSet.ResultMetadata} computes its own. Stateless.
 */
public final class MetadataIds {
  private MetadataIds() {}

  /** The id of {@code columns}: 16 bytes, equal for equal columns. */
  public static byte[] of(List<CqlColumn> columns) {
    MessageDigest md5;
    try {
      md5 = MessageDigest.getInstance("MD5");
    } catch (NoSuchAlgorithmException e) {
      throw new IllegalStateException("every JDK has MD5", e);
    }
    for (CqlColumn c : columns) {
      for (String part : List.of(c.keyspace(), c.table(), c.name(), String.valueOf(c.type()))) {
        byte[] b = part.getBytes(StandardCharsets.UTF_8);
        for (int shift = 24; shift >= 0; shift -= 8) {
          md5.update((byte) (b.length >>> shift));
        }
        md5.update(b);
      }
    }
    return md5.digest();
  }
}
