package dev.talus;

import java.util.Locale;

/**
 * What {@link DataType}'s factories check (counters stay out of other types, nested collections and
 * user types are frozen, set elements and map keys have an order) and how a type is named in CQL.
 * Stateless.
 */
final class DataTypeRules {
  private DataTypeRules() {}

  static void checkInside(String where, DataType t) {
    java.util.Objects.requireNonNull(t, "type");
    if (t.kind() == DataType.Kind.COUNTER) {
      throw new InvalidSchemaException("counters are not allowed inside a " + where);
    }
  }

  static void checkElement(String where, DataType t, boolean ordered) {
    checkInside(where, t);
    if (t.isMultiCell()) {
      throw new InvalidSchemaException(
          "non-frozen "
              + t.cqlName()
              + " is not allowed as a "
              + where
              + "; wrap it in frozen(...)");
    }
    if (ordered && !t.canBeKey()) {
      throw new InvalidSchemaException(
          t.cqlName() + " values have no order, so they cannot be a " + where);
    }
  }

  static String cqlName(DataType t, UserType userType) {
    var c = t.componentTypes();
    String inner =
        switch (t.kind()) {
          case LIST -> "list<" + c.get(0).cqlName() + ">";
          case SET -> "set<" + c.get(0).cqlName() + ">";
          case MAP -> "map<" + c.get(0).cqlName() + ", " + c.get(1).cqlName() + ">";
          case TUPLE ->
              "tuple<" + String.join(", ", c.stream().map(DataType::cqlName).toList()) + ">";
          case UDT -> userType.name();
          case VECTOR -> "vector<" + c.get(0).cqlName() + ", " + t.dimension() + ">";
          default -> t.kind().name().toLowerCase(Locale.ROOT);
        };
    return t.isFrozen() && t.isMultiCellKind() ? "frozen<" + inner + ">" : inner;
  }
}
