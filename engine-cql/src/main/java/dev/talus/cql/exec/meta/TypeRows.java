package dev.talus.cql.exec.meta;

import dev.talus.DataType;
import dev.talus.KeyspaceSchema;
import dev.talus.UserType;
import dev.talus.cql.exec.support.SessionState;
import java.util.ArrayList;
import java.util.List;

/**
 * The rows of {@code system_schema.types}: Talus's user types are database-wide, so each is listed
 * under every user keyspace (which is where a driver looks a column's user type up), with its field
 * names and field types as CQL writes them. Static, thread-safe.
 */
final class TypeRows {
  private TypeRows() {}

  static List<Object[]> rows(SessionState s) {
    List<Object[]> out = new ArrayList<>();
    List<UserType> types = s.db().types();
    if (types.isEmpty()) {
      return out;
    }
    List<String> keyspaces = new ArrayList<>();
    for (KeyspaceSchema k : s.db().keyspaces()) {
      keyspaces.add(k.name());
    }
    keyspaces.sort(null);
    for (String ks : keyspaces) {
      List<UserType> sorted = new ArrayList<>(types);
      sorted.sort((a, b) -> a.name().compareTo(b.name()));
      for (UserType t : sorted) {
        out.add(
            new Object[] {
              ks,
              t.name(),
              List.copyOf(t.fieldNames()),
              t.fieldTypes().stream().map(DataType::cqlName).toList()
            });
      }
    }
    return out;
  }
}
