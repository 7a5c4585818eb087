package dev.talus.bench.ycsb;

import java.nio.file.Path;
import java.util.HashMap;
import java.util.Map;
import java.util.function.Function;

/**
 * One open engine per data directory per JVM, shared by reference count.
 *
 * <p>YCSB creates one {@link site.ycsb.DB} instance per client thread and calls {@code init()} and
 * {@code cleanup()} on each. An embedded engine locks its directory, and should be opened once and
 * shared by every thread (as an application would), so the bindings keep a static holder here:
 * {@link #acquire} opens the engine on first use of a directory and counts the users, {@link
 * #release} closes it when the last user of that directory releases it. This is benchmark plumbing,
 * not library code: the Talus library itself keeps no static state.
 *
 * <p>Thread-safe: every method synchronizes on the holder.
 */
final class SharedByDirectory<T extends AutoCloseable> {
  private static final class Entry<T> {
    final T value;
    int users;

    Entry(T value) {
      this.value = value;
    }
  }

  private final Map<Path, Entry<T>> open = new HashMap<>();

  /** The engine for {@code dir}, opened with {@code opener} if no one holds it; counts a user. */
  synchronized T acquire(Path dir, Function<Path, T> opener) {
    Path key = dir.toAbsolutePath().normalize();
    Entry<T> e = open.get(key);
    if (e == null) {
      e = new Entry<>(opener.apply(key));
      open.put(key, e);
    }
    e.users++;
    return e.value;
  }

  /** Drops one user of {@code dir}; the last one closes the engine. */
  synchronized void release(Path dir) throws Exception {
    Path key = dir.toAbsolutePath().normalize();
    Entry<T> e = open.get(key);
    if (e == null) {
      return;
    }
    if (--e.users == 0) {
      open.remove(key);
      e.value.close();
    }
  }

  /** How many users hold {@code dir} (0 if it is not open); for tests. */
  synchronized int users(Path dir) {
    Entry<T> e = open.get(dir.toAbsolutePath().normalize());
    return e == null ? 0 : e.users;
  }
}
