package dev.talus.cql.exec.term;

import static dev.talus.DataType.BIGINT;
import static dev.talus.DataType.BLOB;
import static dev.talus.DataType.DATE;
import static dev.talus.DataType.TIME;
import static dev.talus.DataType.TIMESTAMP;
import static dev.talus.DataType.TIMEUUID;
import static dev.talus.DataType.UUID;

import dev.talus.DataType;
import dev.talus.ResultRow;
import dev.talus.TimeUuidGenerator;
import dev.talus.cql.ColumnType;
import dev.talus.cql.exec.support.ExecContext;
import dev.talus.cql.exec.support.PrepareContext;
import dev.talus.cql.exec.support.Receiver;
import dev.talus.cql.parse.ast.QualifiedName;
import dev.talus.cql.parse.ast.SourcePosition;
import java.time.Instant;
import java.time.LocalDate;
import java.time.LocalTime;
import java.time.ZoneOffset;
import java.time.temporal.ChronoUnit;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.Set;

/**
 * Cassandra 5.0's native scalar functions that Talus runs: {@code now()}, {@code uuid()}, {@code
 * currentTimestamp()} and its siblings, {@code toTimestamp}, {@code toDate}, {@code
 * toUnixTimestamp}, {@code minTimeuuid}/{@code maxTimeuuid}, and the {@code typeAsBlob}/{@code
 * blobAsType} conversions — each under its camel-case and its snake-case (5.0) name. Names are
 * case-insensitive and may be qualified with {@code system}. Resolution picks the one signature
 * whose argument types fit, as Cassandra does, and a call of a deterministic function with constant
 * arguments is computed once, when the statement is prepared. Static, thread-safe.
 */
final class Functions {
  /** How a function computes its value from its arguments (none of which is null). */
  interface Impl {
    Object apply(ExecContext ctx, Object[] args);
  }

  /** One signature. */
  record Fn(String name, List<DataType> args, DataType returns, boolean pure, Impl impl) {
    String signature() {
      return name
          + "("
          + String.join(", ", args.stream().map(DataType::cqlName).toList())
          + ") -> "
          + returns.cqlName();
    }
  }

  private static final Map<String, List<Fn>> BY_NAME = new HashMap<>();

  /** Cassandra 5.0 functions Talus does not run yet, and what they need. */
  private static final Map<String, String> NOT_YET = new HashMap<>();

  /** Removed from Cassandra before 5.0, with what replaces them. */
  private static final Map<String, String> REMOVED =
      Map.of(
          "dateof", "toTimestamp",
          "unixtimestampof", "toUnixTimestamp");

  static {
    fn(
        names("now", "currentTimeUUID", "current_timeuuid"),
        List.of(),
        TIMEUUID,
        false,
        (c, a) -> c.db().timeUuids().next());
    fn(names("uuid"), List.of(), UUID, false, (c, a) -> java.util.UUID.randomUUID());
    fn(
        names("currentTimestamp", "current_timestamp"),
        List.of(),
        TIMESTAMP,
        false,
        (c, a) -> nowMillis(c));
    fn(
        names("currentDate", "current_date"),
        List.of(),
        DATE,
        false,
        (c, a) -> LocalDate.ofInstant(nowMillis(c), ZoneOffset.UTC));
    fn(
        names("currentTime", "current_time"),
        List.of(),
        TIME,
        false,
        (c, a) -> LocalTime.ofInstant(c.db().clock().instant(), ZoneOffset.UTC));
    fn(
        names("toTimestamp", "to_timestamp"),
        List.of(TIMEUUID),
        TIMESTAMP,
        true,
        (c, a) -> millisOf(a[0]));
    fn(
        names("toTimestamp", "to_timestamp"),
        List.of(DATE),
        TIMESTAMP,
        true,
        (c, a) -> ((LocalDate) a[0]).atStartOfDay().toInstant(ZoneOffset.UTC));
    fn(
        names("toDate", "to_date"),
        List.of(TIMEUUID),
        DATE,
        true,
        (c, a) -> LocalDate.ofInstant(millisOf(a[0]), ZoneOffset.UTC));
    fn(
        names("toDate", "to_date"),
        List.of(TIMESTAMP),
        DATE,
        true,
        (c, a) -> LocalDate.ofInstant((Instant) a[0], ZoneOffset.UTC));
    fn(
        names("toUnixTimestamp", "to_unix_timestamp"),
        List.of(TIMEUUID),
        BIGINT,
        true,
        (c, a) -> millisOf(a[0]).toEpochMilli());
    fn(
        names("toUnixTimestamp", "to_unix_timestamp"),
        List.of(TIMESTAMP),
        BIGINT,
        true,
        (c, a) -> ((Instant) a[0]).toEpochMilli());
    fn(
        names("toUnixTimestamp", "to_unix_timestamp"),
        List.of(DATE),
        BIGINT,
        true,
        (c, a) -> ((LocalDate) a[0]).atStartOfDay().toInstant(ZoneOffset.UTC).toEpochMilli());
    fn(
        names("minTimeuuid", "min_timeuuid"),
        List.of(TIMESTAMP),
        TIMEUUID,
        true,
        (c, a) -> TimeUuidGenerator.minFor((Instant) a[0]));
    fn(
        names("maxTimeuuid", "max_timeuuid"),
        List.of(TIMESTAMP),
        TIMEUUID,
        true,
        (c, a) -> TimeUuidGenerator.maxFor((Instant) a[0]));
    for (DataType t : DataType.values()) {
      if (t == BLOB) {
        continue;
      }
      for (String n : t == DataType.TEXT ? List.of("text", "varchar") : List.of(t.cqlName())) {
        fn(
            names(n + "AsBlob", n + "_as_blob"),
            List.of(t),
            BLOB,
            true,
            (c, a) -> Bytes.encode(t, a[0]));
        fn(
            names("blobAs" + n, "blob_as_" + n),
            List.of(BLOB),
            t,
            true,
            (c, a) -> Bytes.decode(t, (byte[]) a[0]));
      }
    }
    Floors.register();
    for (String f : List.of("abs", "exp", "log", "log10", "round")) {
      NOT_YET.put(f, "the math functions of Cassandra 5.0");
    }
    for (String f :
        List.of(
            "map_keys",
            "map_values",
            "collection_count",
            "collection_min",
            "collection_max",
            "collection_sum",
            "collection_avg")) {
      NOT_YET.put(f, "collection functions (compute them in the application)");
    }
    for (String f :
        List.of(
            "mask_null", "mask_default", "mask_replace", "mask_inner", "mask_outer", "mask_hash")) {
      NOT_YET.put(f, "masking functions (Talus does not mask columns)");
    }
    for (String f :
        List.of("similarity_cosine", "similarity_euclidean", "similarity_dot_product")) {
      NOT_YET.put(f, "vector similarity functions (Talus has no vectors yet)");
    }
  }

  private Functions() {}

  private static Instant millisOf(Object timeuuid) {
    return TimeUuidGenerator.timestampOf((java.util.UUID) timeuuid).truncatedTo(ChronoUnit.MILLIS);
  }

  private static Instant nowMillis(ExecContext c) {
    return c.db().clock().instant().truncatedTo(ChronoUnit.MILLIS);
  }

  /** Registers a function under each of its names (camel case, snake case, aliases). */
  static void fn(String[] names, List<DataType> args, DataType returns, boolean pure, Impl impl) {
    for (String n : Set.of(names)) {
      BY_NAME
          .computeIfAbsent(n.toLowerCase(Locale.ROOT), k -> new ArrayList<>())
          .add(new Fn(names[0].toLowerCase(Locale.ROOT), args, returns, pure, impl));
    }
  }

  static String[] names(String... names) {
    return names;
  }

  /** True if {@code name} is a function Talus knows (runs, or refuses for now). */
  static boolean known(String name) {
    String n = name.toLowerCase(Locale.ROOT);
    return BY_NAME.containsKey(n)
        || NOT_YET.containsKey(n)
        || REMOVED.containsKey(n)
        || Aggregates.isAggregate(n);
  }

  /** The lower-case function name of a call, without a {@code system.} qualifier. */
  static String nameOf(QualifiedName q, PrepareContext pc) {
    if (q.keyspace() != null && !q.keyspace().name().equals("system")) {
      throw pc.source()
          .never(
              q.position(),
              q.toString().length(),
              "user-defined functions",
              "Unknown function '"
                  + q
                  + "': user-defined functions are not supported by Talus (it runs no user code"
                  + " inside the engine); the built-in functions are in keyspace system");
    }
    return q.name().name().toLowerCase(Locale.ROOT);
  }

  /**
   * Prepares a call.
   *
   * @param call the function's name as written
   * @param at where the call starts
   * @param args its arguments
   * @param expected the type the result is assigned to, or null when free
   */
  static Operand call(
      QualifiedName call, SourcePosition at, List<Arg> args, DataType expected, PrepareContext pc) {
    String name = nameOf(call, pc);
    int width = call.toString().length();
    if (REMOVED.containsKey(name)) {
      throw pc.source()
          .invalid(
              at,
              width,
              "Unknown function '"
                  + name
                  + "': Cassandra 5.0 removed it; use "
                  + REMOVED.get(name)
                  + "() instead");
    }
    if (Aggregates.isAggregate(name)) {
      throw pc.source()
          .invalid(
              at,
              width,
              "Aggregate function system."
                  + name
                  + "() can only be used in the selection of a SELECT, not in a term");
    }
    if (NOT_YET.containsKey(name)) {
      throw pc.source().notYet(at, width, name + "()", NOT_YET.get(name));
    }
    List<Fn> all = BY_NAME.get(name);
    if (all == null) {
      throw pc.source().invalid(at, width, "Unknown function '" + call + "'");
    }
    List<Fn> arity = all.stream().filter(f -> f.args().size() == args.size()).toList();
    if (arity.isEmpty()) {
      throw pc.source()
          .invalid(
              at,
              width,
              "Invalid number of arguments in call to function "
                  + name
                  + ": "
                  + all.get(0).args().size()
                  + " required but "
                  + args.size()
                  + " provided");
    }
    List<Fn> fit = new ArrayList<>();
    for (Fn f : arity) {
      if (fits(f, args)) {
        fit.add(f);
      }
    }
    if (fit.size() > 1 && expected != null) {
      List<Fn> byReturn = fit.stream().filter(f -> f.returns() == expected).toList();
      if (!byReturn.isEmpty()) {
        fit = byReturn;
      }
    }
    if (fit.isEmpty()) {
      throw pc.source()
          .invalid(
              at,
              width,
              "Invalid call to function "
                  + name
                  + ", none of its type signatures match (known type signatures: "
                  + String.join(", ", arity.stream().map(Fn::signature).toList())
                  + ")");
    }
    if (fit.size() > 1) {
      throw pc.source()
          .invalid(
              at,
              width,
              "Ambiguous call to function "
                  + name
                  + " (can be matched by more than one signature: "
                  + String.join(", ", fit.stream().map(Fn::signature).toList())
                  + "); use type casts to disambiguate");
    }
    Fn f = fit.get(0);
    if (expected != null && !Terms.assignable(f.returns(), expected)) {
      throw pc.source()
          .invalid(
              at,
              width,
              "Type error: cannot assign result of function system."
                  + name
                  + " (type "
                  + f.returns().cqlName()
                  + ") to a value of type "
                  + expected.cqlName());
    }
    Operand[] prepared = new Operand[args.size()];
    boolean constant = f.pure();
    for (int i = 0; i < prepared.length; i++) {
      prepared[i] = args.get(i).prepare(Receiver.of("arg" + i + "(" + name + ")", f.args().get(i)));
      constant &= prepared[i].isConstant();
    }
    Operand op = new Call(f, prepared, pc.source(), at, width);
    if (constant) {
      return Operand.constant(op.eval(null, null), op.type());
    }
    return op;
  }

  private static boolean fits(Fn f, List<Arg> args) {
    for (int i = 0; i < args.size(); i++) {
      DataType want = f.args().get(i);
      ColumnType known = args.get(i).knownType();
      if (known != null) {
        if (!(known instanceof ColumnType.Native n) || !Terms.assignable(n.type(), want)) {
          return false;
        }
      } else if (!args.get(i).accepts(want)) {
        return false;
      }
    }
    return true;
  }

  /** The return type of {@code name} with {@code arity} arguments if it has only one, else null. */
  static DataType returnType(String name, int arity) {
    List<Fn> all = BY_NAME.get(name.toLowerCase(Locale.ROOT));
    if (all == null) {
      return null;
    }
    List<DataType> returns =
        all.stream().filter(f -> f.args().size() == arity).map(Fn::returns).distinct().toList();
    return returns.size() == 1 ? returns.get(0) : null;
  }

  /** A function's refusal of its arguments, reported as it words it (not as a failure). */
  static final class Refusal extends IllegalArgumentException {
    private static final long serialVersionUID = 1L;

    Refusal(String message) {
      super(message);
    }
  }

  /** A call of a native function; null in, null out. */
  private record Call(
      Fn fn, Operand[] args, dev.talus.cql.exec.support.Source source, SourcePosition at, int width)
      implements Operand {
    @Override
    public Object eval(ExecContext ctx, ResultRow row) {
      Object[] values = new Object[args.length];
      for (int i = 0; i < args.length; i++) {
        Object v = args[i].eval(ctx, row);
        if (v == ExecContext.UNSET) {
          throw source.invalid(
              at, width, "Invalid unset value for argument in call to function " + fn.name());
        }
        if (v == null) {
          return null;
        }
        values[i] = v;
      }
      try {
        return fn.impl().apply(ctx, values);
      } catch (Refusal e) {
        throw source.invalid(at, width, e.getMessage());
      } catch (IllegalArgumentException | ArithmeticException e) {
        throw source.invalid(
            at, width, "execution of 'system." + fn.name() + "' failed: " + e.getMessage());
      }
    }

    @Override
    public ColumnType type() {
      return ColumnType.of(fn.returns());
    }
  }
}
