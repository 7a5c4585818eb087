package dev.talus.db;

import dev.talus.DataType;
import dev.talus.InvalidSchemaException;
import dev.talus.StorageException;
import dev.talus.UserType;
import dev.talus.schema.Catalog;
import java.io.IOException;

/**
 * The user-defined types of a database: creating one, and checking that every type a schema names
 * is the one defined under its name. Called with the database's schema lock held.
 */
final class UserTypes {
  private UserTypes() {}

  /** Creates {@code type}; with {@code ifNotExists}, an identical existing one is returned. */
  static UserType create(Catalog catalog, UserType type, boolean ifNotExists) {
    UserType existing = catalog.types().get(type.name());
    if (existing != null) {
      if (ifNotExists && existing.equals(type)) {
        return existing;
      }
      throw new InvalidSchemaException(
          "A user type of name "
              + type.name()
              + " already exists"
              + (existing.equals(type) ? "" : ": " + existing));
    }
    for (DataType f : type.fieldTypes()) {
      checkDefined(catalog, f, "user type " + type.name());
    }
    try {
      catalog.putType(type);
    } catch (IOException e) {
      throw new StorageException("cannot create type " + type.name() + ": " + e.getMessage(), e);
    }
    return type;
  }

  /** Every user type {@code t} mentions must be the one defined under its name. */
  static void checkDefined(Catalog catalog, DataType t, String where) {
    if (t.kind() == DataType.Kind.UDT) {
      UserType defined = catalog.types().get(t.userType().name());
      if (defined == null) {
        throw new InvalidSchemaException(
            "Unknown type "
                + t.userType().name()
                + " in "
                + where
                + ": create it first with TalusDb.createType");
      }
      if (!defined.equals(t.userType())) {
        throw new InvalidSchemaException(
            "user type "
                + t.userType().name()
                + " in "
                + where
                + " differs from the one defined on the database: "
                + defined);
      }
    }
    for (DataType c : t.componentTypes()) {
      checkDefined(catalog, c, where);
    }
  }
}
