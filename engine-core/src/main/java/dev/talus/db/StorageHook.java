package dev.talus.db;

import dev.talus.TalusOptions;
import dev.talus.io.StorageFs;
import java.util.Objects;

/**
 * The one non-public way to run a database over another {@link StorageFs} than the real file layer,
 * and to stop one as a killed process would: what test support (the testkit's fault injector, the
 * engine's own crash tests) needs and users of the API never see. Not part of the public API:
 * nothing in {@code dev.talus} names it, and the module exports this package only to the testkit.
 *
 * <p>The public handle type ({@code TalusDb}) lives above this package, so it is reached through an
 * {@link Api} that {@code TalusDb} installs once when its class is initialised (the JDK's {@code
 * SharedSecrets} pattern); the hook never names the type. Thread-safe; holds no per-database state.
 */
public final class StorageHook {
  /** How the public API wraps an open database as its handle, and unwraps it. */
  public interface Api<D> {
    D wrap(Database database);

    Database unwrap(D handle);
  }

  private static volatile Api<?> api;

  private StorageHook() {}

  /** Called once, by the public handle's class initialiser. */
  public static void install(Api<?> a) {
    Objects.requireNonNull(a, "api");
    synchronized (StorageHook.class) {
      if (api != null) {
        throw new IllegalStateException("the storage hook is installed already");
      }
      api = a;
    }
  }

  @SuppressWarnings("unchecked")
  private static <D> Api<D> api(Class<D> handleType) {
    if (api == null) {
      try {
        // initialising the handle class installs its Api
        Class.forName(handleType.getName(), true, handleType.getClassLoader());
      } catch (ClassNotFoundException e) {
        throw new IllegalStateException("cannot initialise " + handleType.getName(), e);
      }
    }
    Api<?> a = api;
    if (a == null) {
      throw new IllegalStateException(handleType.getName() + " installed no storage hook");
    }
    return (Api<D>) a;
  }

  /**
   * Opens the database in {@code options.dataDirectory()} with every file operation going through
   * {@code fs}; returns the public handle ({@code TalusDb.class}).
   */
  public static <D> D open(Class<D> handleType, TalusOptions options, StorageFs fs) {
    Api<D> a = api(handleType);
    return handleType.cast(a.wrap(Database.open(options, Objects.requireNonNull(fs, "fs"))));
  }

  /**
   * Stops {@code handle}'s database as a killed process would: background work cancelled, nothing
   * flushed or synced, the commit log abandoned, the directory unlocked. The data directory is left
   * as a crash leaves it; with a fault-injecting file layer underneath, a power loss can follow.
   */
  public static <D> void crash(Class<D> handleType, D handle) {
    api(handleType).unwrap(Objects.requireNonNull(handle, "handle")).crash();
  }
}
