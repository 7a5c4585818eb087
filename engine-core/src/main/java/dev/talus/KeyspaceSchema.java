package dev.talus;

import java.util.ArrayList;
import java.util.Collections;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.Objects;
import java.util.Set;
import java.util.TreeMap;
import java.util.TreeSet;

/**
 * A keyspace: a namespace of tables in one {@link TalusDb}, with Cassandra's replication options
 * and {@code durable_writes}. One Talus process is one replica, so the replication options are
 * validated with Cassandra's rules and recorded (the drivers read them back), but place no data:
 * every table of every keyspace lives in this process. {@link #durableWrites()} is honoured: when
 * false, writes to the keyspace's tables skip the commit log, as in Cassandra — an unflushed write
 * is lost in a crash ({@link TalusDb#close()} flushes such tables first).
 *
 * <p>Built with {@link #builder(String)}, validated at {@code build()} ({@link
 * InvalidSchemaException} with Cassandra's wording). The replication map is kept in Cassandra's
 * normal form: {@code class} as the full class name ({@code
 * org.apache.cassandra.locator.SimpleStrategy}), replication factors as whole numbers, and {@code
 * NetworkTopologyStrategy}'s {@code replication_factor} expanded to this process's datacenter
 * {@value #LOCAL_DATACENTER}. Immutable and thread-safe.
 */
public final class KeyspaceSchema {
  /** The datacenter of this process, as {@code system.local} reports it (Cassandra's default). */
  public static final String LOCAL_DATACENTER = "datacenter1";

  /** Cassandra's {@code SimpleStrategy}, by its full class name. */
  public static final String SIMPLE_STRATEGY = "org.apache.cassandra.locator.SimpleStrategy";

  /** Cassandra's {@code NetworkTopologyStrategy}, by its full class name. */
  public static final String NETWORK_TOPOLOGY_STRATEGY =
      "org.apache.cassandra.locator.NetworkTopologyStrategy";

  private static final String LOCATOR = "org.apache.cassandra.locator.";
  private static final String CLASS = "class";
  private static final String REPLICATION_FACTOR = "replication_factor";

  /** Cassandra's own keyspaces: their names are reserved (compared in lower case, as Cassandra). */
  private static final Set<String> SYSTEM_KEYSPACES =
      Set.of(
          "system",
          "system_schema",
          "system_auth",
          "system_distributed",
          "system_traces",
          "system_views",
          "system_virtual_schema");

  private final String name;
  private final Map<String, String> replication;
  private final boolean durableWrites;

  private KeyspaceSchema(String name, Map<String, String> replication, boolean durableWrites) {
    this.name = name;
    this.replication = Collections.unmodifiableMap(replication);
    this.durableWrites = durableWrites;
  }

  /** Starts a keyspace named {@code name}: SimpleStrategy with one replica, durable writes. */
  public static Builder builder(String name) {
    return new Builder(name);
  }

  /** True if {@code name} is one of Cassandra's system keyspaces, which no user may create. */
  public static boolean isReserved(String name) {
    return name != null && SYSTEM_KEYSPACES.contains(name.toLowerCase(Locale.ROOT));
  }

  public String name() {
    return name;
  }

  /**
   * The replication options as Cassandra stores them ({@code system_schema.keyspaces.replication}):
   * {@code class} first, then the strategy's options.
   */
  public Map<String, String> replication() {
    return replication;
  }

  /** The strategy's full class name, e.g. {@value #SIMPLE_STRATEGY}. */
  public String replicationClass() {
    return replication.get(CLASS);
  }

  /** Whether writes to this keyspace's tables go through the commit log (default true). */
  public boolean durableWrites() {
    return durableWrites;
  }

  /** A builder holding everything in this keyspace. */
  public Builder toBuilder() {
    return new Builder(name).replication(replication).durableWrites(durableWrites);
  }

  /**
   * What looks wrong for a single process (a list to read, never an error): a replication factor
   * above one — this process is the only replica — or a datacenter other than {@value
   * #LOCAL_DATACENTER}.
   */
  public List<String> lint() {
    List<String> out = new ArrayList<>();
    for (Map.Entry<String, String> e : replication.entrySet()) {
      if (e.getKey().equals(CLASS)) {
        continue;
      }
      int rf = Integer.parseInt(e.getValue());
      boolean nts = replicationClass().equals(NETWORK_TOPOLOGY_STRATEGY);
      if (nts && !e.getKey().equals(LOCAL_DATACENTER)) {
        out.add(
            "datacenter "
                + e.getKey()
                + " of keyspace "
                + name
                + " is not this process's datacenter ("
                + LOCAL_DATACENTER
                + "): its replication factor is recorded, and the data is kept here, once");
      } else if (rf > 1) {
        out.add(
            "Your replication factor "
                + rf
                + " for keyspace "
                + name
                + " is higher than the number of nodes 1"
                + (nts ? " for datacenter " + e.getKey() : "")
                + " (Talus is one process: one replica)");
      }
    }
    return out;
  }

  @Override
  public boolean equals(Object o) {
    return o instanceof KeyspaceSchema k
        && k.name.equals(name)
        && k.replication.equals(replication)
        && k.durableWrites == durableWrites;
  }

  @Override
  public int hashCode() {
    return Objects.hash(name, replication, durableWrites);
  }

  @Override
  public String toString() {
    return "KeyspaceSchema{"
        + name
        + ", replication="
        + replication
        + ", durableWrites="
        + durableWrites
        + "}";
  }

  /** Collects a keyspace. Not thread-safe. */
  public static final class Builder {
    private final String name;
    private Map<String, String> replication =
        Map.of(CLASS, "SimpleStrategy", "replication_factor", "1");
    private boolean durableWrites = true;

    private Builder(String name) {
      this.name = name;
    }

    /**
     * Cassandra's replication map: {@code class} (a short or full class name) and the strategy's
     * options, as in {@code WITH replication = {...}}.
     */
    public Builder replication(Map<String, String> options) {
      this.replication = new LinkedHashMap<>(Objects.requireNonNull(options, "options"));
      return this;
    }

    /** {@code SimpleStrategy} with this replication factor. */
    public Builder simpleStrategy(int replicationFactor) {
      return replication(
          Map.of(CLASS, "SimpleStrategy", REPLICATION_FACTOR, Integer.toString(replicationFactor)));
    }

    /** {@code NetworkTopologyStrategy} with these datacenters and replication factors. */
    public Builder networkTopologyStrategy(Map<String, Integer> replicationFactors) {
      Map<String, String> m = new LinkedHashMap<>();
      m.put(CLASS, "NetworkTopologyStrategy");
      replicationFactors.forEach((dc, rf) -> m.put(dc, Integer.toString(rf)));
      return replication(m);
    }

    /** Whether writes go through the commit log (default true). */
    public Builder durableWrites(boolean durable) {
      this.durableWrites = durable;
      return this;
    }

    public KeyspaceSchema build() {
      if (!TableSchema.isValidName(name)) {
        throw new InvalidSchemaException(
            "Keyspace name must not be empty, more than 48 characters long, or contain"
                + " non-alphanumeric-underscore characters (got \""
                + name
                + "\")");
      }
      if (isReserved(name)) {
        throw new InvalidSchemaException(
            name
                + " keyspace is not user-modifiable (the names of Cassandra's system keyspaces"
                + " are reserved: "
                + String.join(", ", new TreeSet<>(SYSTEM_KEYSPACES))
                + ")");
      }
      return new KeyspaceSchema(name, normalise(name, replication), durableWrites);
    }
  }

  private static Map<String, String> normalise(String keyspace, Map<String, String> options) {
    Map<String, String> rest = new LinkedHashMap<>(options);
    String klass = rest.remove(CLASS);
    if (klass == null) {
      throw new InvalidSchemaException("Missing replication strategy class");
    }
    String full = klass.indexOf('.') < 0 ? LOCATOR + klass : klass;
    if (full.equals(LOCATOR + "LocalStrategy")) {
      throw new InvalidSchemaException(
          "Unable to use given strategy class: LocalStrategy is reserved for internal use.");
    }
    Map<String, String> out = new LinkedHashMap<>();
    out.put(CLASS, full);
    if (full.equals(SIMPLE_STRATEGY)) {
      for (String key : rest.keySet()) {
        if (!key.equals(REPLICATION_FACTOR)) {
          throw unrecognised(key, "SimpleStrategy", keyspace);
        }
      }
      String rf = rest.get(REPLICATION_FACTOR);
      if (rf == null) {
        throw new InvalidSchemaException(
            "SimpleStrategy requires a replication_factor strategy option.");
      }
      out.put(REPLICATION_FACTOR, replicationFactor(rf));
      return out;
    }
    if (full.equals(NETWORK_TOPOLOGY_STRATEGY)) {
      // As in Cassandra: replication_factor is the default of every datacenter; this process
      // knows one, and a datacenter given by name keeps its own value.
      String rf = rest.remove(REPLICATION_FACTOR);
      TreeMap<String, String> dcs = new TreeMap<>();
      rest.forEach((dc, v) -> dcs.put(dc, replicationFactor(v)));
      if (rf != null) {
        dcs.putIfAbsent(LOCAL_DATACENTER, replicationFactor(rf));
      }
      if (dcs.isEmpty()) {
        throw new InvalidSchemaException(
            "Configuration for at least one datacenter must be present");
      }
      out.putAll(dcs);
      return out;
    }
    throw new InvalidSchemaException(
        "Unable to find replication strategy class '"
            + full
            + "' (Talus knows SimpleStrategy and NetworkTopologyStrategy)");
  }

  private static InvalidSchemaException unrecognised(String key, String strategy, String ks) {
    return new InvalidSchemaException(
        "Unrecognized strategy option {" + key + "} passed to " + strategy + " for keyspace " + ks);
  }

  private static String replicationFactor(String text) {
    String s = text.trim();
    if (s.contains("/")) {
      throw new InvalidSchemaException(
          "Transient replication (replication factor "
              + text
              + ") is not supported by Talus: one process is one full replica; give a whole"
              + " number");
    }
    int rf;
    try {
      rf = Integer.parseInt(s);
    } catch (NumberFormatException e) {
      throw new InvalidSchemaException("Replication factor must be numeric; found " + text);
    }
    if (rf < 0) {
      throw new InvalidSchemaException("Replication factor must be non-negative; found " + text);
    }
    return Integer.toString(rf);
  }
}
