package dev.talus.cql.parse;

import dev.talus.cql.parse.ast.NativeType;
import java.util.HashMap;
import java.util.Locale;
import java.util.Map;

/**
 * The keywords of Cassandra 5.0's CQL (CQL 3.4.7), case-insensitive, and which of them may also be
 * used as names. Learned from Cassandra's {@code Lexer.g} and {@code Parser.g} (rules {@code
 * unreserved_keyword}, {@code unreserved_function_keyword}, {@code basic_unreserved_keyword}) and
 * its {@code reserved_keywords.txt}; 5.1's additions ({@code BETWEEN}, {@code NOT IN}, {@code
 * CHECK}, {@code GENERATED PASSWORD}, {@code CREATE TABLE ... LIKE}) are not part of this dialect.
 */
enum Keyword {
  ACCESS(Use.BASIC),
  ADD(Use.RESERVED),
  AGGREGATE(Use.BASIC),
  AGGREGATES(Use.BASIC),
  ALL(Use.BASIC),
  ALLOW(Use.RESERVED),
  ALTER(Use.RESERVED),
  AND(Use.RESERVED),
  ANN(Use.BASIC),
  APPLY(Use.RESERVED),
  AS(Use.BASIC),
  ASC(Use.RESERVED),
  ASCII(Use.TYPE),
  AUTHORIZE(Use.RESERVED),
  BATCH(Use.RESERVED),
  BEGIN(Use.RESERVED),
  BIGINT(Use.TYPE),
  BLOB(Use.TYPE),
  BOOLEAN(Use.TYPE),
  BY(Use.RESERVED),
  CALLED(Use.BASIC),
  CAST(Use.OTHER),
  CIDRS(Use.BASIC),
  CLUSTER(Use.BASIC),
  CLUSTERING(Use.BASIC),
  COLUMNFAMILIES(Use.BASIC),
  COLUMNFAMILY(Use.RESERVED),
  COMPACT(Use.BASIC),
  CONTAINS(Use.BASIC),
  COUNT(Use.OTHER),
  COUNTER(Use.TYPE),
  CREATE(Use.RESERVED),
  CUSTOM(Use.BASIC),
  DATACENTERS(Use.BASIC),
  DATE(Use.TYPE),
  DECIMAL(Use.TYPE),
  DEFAULT(Use.BASIC),
  DELETE(Use.RESERVED),
  DESC(Use.RESERVED),
  DESCRIBE(Use.RESERVED),
  DISTINCT(Use.OTHER),
  DOUBLE(Use.TYPE),
  DROP(Use.RESERVED),
  DURATION(Use.TYPE),
  ENTRIES(Use.RESERVED),
  EXECUTE(Use.RESERVED),
  EXISTS(Use.BASIC),
  FILTERING(Use.BASIC),
  FINALFUNC(Use.BASIC),
  FLOAT(Use.TYPE),
  FROM(Use.RESERVED),
  FROZEN(Use.BASIC),
  FULL(Use.RESERVED),
  FUNCTION(Use.BASIC),
  FUNCTIONS(Use.BASIC),
  GRANT(Use.RESERVED),
  GROUP(Use.BASIC),
  HASHED(Use.BASIC),
  IDENTITY(Use.BASIC),
  IF(Use.RESERVED),
  IN(Use.RESERVED),
  INDEX(Use.RESERVED),
  INET(Use.TYPE),
  INFINITY(Use.RESERVED),
  INITCOND(Use.BASIC),
  INPUT(Use.BASIC),
  INSERT(Use.RESERVED),
  INT(Use.TYPE),
  INTERNALS(Use.BASIC),
  INTO(Use.RESERVED),
  IS(Use.RESERVED),
  JSON(Use.OTHER),
  KEY(Use.OTHER),
  KEYS(Use.BASIC),
  KEYSPACE(Use.RESERVED),
  KEYSPACES(Use.BASIC),
  LANGUAGE(Use.BASIC),
  LIKE(Use.BASIC),
  LIMIT(Use.RESERVED),
  LIST(Use.BASIC),
  LOGIN(Use.BASIC),
  MAP(Use.BASIC),
  MASKED(Use.BASIC),
  MATERIALIZED(Use.RESERVED),
  MAXWRITETIME(Use.OTHER),
  MBEAN(Use.BASIC),
  MBEANS(Use.BASIC),
  MODIFY(Use.RESERVED),
  NAN(Use.RESERVED),
  NOLOGIN(Use.BASIC),
  NORECURSIVE(Use.RESERVED),
  NOSUPERUSER(Use.BASIC),
  NOT(Use.RESERVED),
  NULL(Use.RESERVED),
  OF(Use.RESERVED),
  ON(Use.RESERVED),
  ONLY(Use.BASIC),
  OPTIONS(Use.BASIC),
  OR(Use.RESERVED),
  ORDER(Use.RESERVED),
  PARTITION(Use.BASIC),
  PASSWORD(Use.BASIC),
  PER(Use.BASIC),
  PERMISSION(Use.BASIC),
  PERMISSIONS(Use.BASIC),
  PRIMARY(Use.RESERVED),
  RENAME(Use.RESERVED),
  REPLACE(Use.BASIC),
  RETURNS(Use.BASIC),
  REVOKE(Use.RESERVED),
  ROLE(Use.BASIC),
  ROLES(Use.BASIC),
  SCHEMA(Use.RESERVED),
  SELECT(Use.RESERVED),
  SELECT_MASKED(Use.BASIC),
  SET(Use.RESERVED),
  SFUNC(Use.BASIC),
  SMALLINT(Use.TYPE),
  STATIC(Use.BASIC),
  STORAGE(Use.BASIC),
  STYPE(Use.BASIC),
  SUPERUSER(Use.BASIC),
  SUPERUSERS(Use.BASIC),
  TABLE(Use.RESERVED),
  TABLES(Use.BASIC),
  TEXT(Use.TYPE),
  TIME(Use.TYPE),
  TIMESTAMP(Use.TYPE),
  TIMEUUID(Use.TYPE),
  TINYINT(Use.TYPE),
  TO(Use.RESERVED),
  TOKEN(Use.RESERVED),
  TRIGGER(Use.BASIC),
  TRUNCATE(Use.RESERVED),
  TTL(Use.OTHER),
  TUPLE(Use.BASIC),
  TYPE(Use.BASIC),
  TYPES(Use.BASIC),
  UNLOGGED(Use.RESERVED),
  UNMASK(Use.BASIC),
  UNSET(Use.BASIC),
  UPDATE(Use.RESERVED),
  USE(Use.RESERVED),
  USER(Use.BASIC),
  USERS(Use.BASIC),
  USING(Use.RESERVED),
  UUID(Use.TYPE),
  VALUES(Use.BASIC),
  VARCHAR(Use.TYPE),
  VARINT(Use.TYPE),
  VECTOR(Use.BASIC),
  VIEW(Use.RESERVED),
  WHERE(Use.RESERVED),
  WITH(Use.RESERVED),
  WRITETIME(Use.OTHER);

  /** Where a keyword may also serve as a name. */
  enum Use {
    /** Never a name unless quoted. */
    RESERVED,
    /**
     * Any name, including user type names and function names ({@code basic_unreserved_keyword}).
     */
    BASIC,
    /** A native type name: any name except a user type name. */
    TYPE,
    /** Any name except user type names and function names ({@code KEY} is also a type name). */
    OTHER
  }

  private static final Map<String, Keyword> BY_NAME = new HashMap<>();

  static {
    for (Keyword k : values()) {
      BY_NAME.put(k.name().toLowerCase(Locale.ROOT), k);
    }
  }

  private final Use use;

  Keyword(Use use) {
    this.use = use;
  }

  /**
   * Returns the keyword spelled by a word, case-insensitively, or null.
   *
   * @param lowerCaseWord the word in lower case
   * @return the keyword, or null when the word is a plain identifier
   */
  static Keyword lookup(String lowerCaseWord) {
    return BY_NAME.get(lowerCaseWord);
  }

  boolean isReserved() {
    return use == Use.RESERVED;
  }

  /** A column, table, keyspace, index, field, alias or property name ({@code ident}). */
  boolean usableAsName() {
    return use != Use.RESERVED;
  }

  /** A user type name ({@code non_type_ident}): basic unreserved keywords and {@code KEY}. */
  boolean usableAsTypeName() {
    return use == Use.BASIC || this == KEY;
  }

  /** A function name ({@code allowedFunctionName}). */
  boolean usableAsFunctionName() {
    return use == Use.BASIC || use == Use.TYPE || this == TOKEN || this == COUNT;
  }

  /** The native type this keyword names, or null. */
  NativeType nativeType() {
    return use == Use.TYPE ? NativeType.valueOf(name()) : null;
  }
}
