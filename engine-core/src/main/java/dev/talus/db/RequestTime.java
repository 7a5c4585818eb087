package dev.talus.db;

import java.util.function.Supplier;

/**
 * The seam for a request's own "now" ({@code TalusDb.atNowInSeconds}): the reads and writes that
 * {@code work} makes on the calling thread take {@code seconds} as the time TTLs and deletion times
 * count from ({@link dev.talus.runtime.DbContext#requestNowSeconds}). Stateless.
 */
public final class RequestTime {
  private RequestTime() {}

  /** Runs {@code work} with {@code seconds} as "now" for its reads and writes on {@code db}. */
  public static <T> T at(Database db, long seconds, Supplier<T> work) {
    db.checkOpen();
    return db.context().atNowSeconds(seconds, work);
  }
}
