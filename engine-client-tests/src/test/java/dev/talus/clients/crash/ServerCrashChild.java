package dev.talus.clients.crash;

import dev.talus.CommitLogSync;
import dev.talus.TalusDb;
import dev.talus.TalusOptions;
import dev.talus.server.TalusServer;
import java.nio.file.Path;

/**
 * The process {@link ServerKillNineTest} kills: a Talus database served on an ephemeral loopback
 * port, as {@code talus serve} runs it, with a small memtable so that flushes and compactions run
 * under the driver's writes. Prints {@code PORT n} once it listens, then serves until killed.
 *
 * <p>Arguments: data directory, commit-log sync mode.
 */
public final class ServerCrashChild {
  private ServerCrashChild() {}

  static TalusOptions options(Path dir, CommitLogSync sync) {
    return TalusOptions.builder(dir)
        .commitLogSync(sync)
        .commitLogSegmentBytes(1 << 20)
        .memtableSpaceBytes(1 << 20)
        .build();
  }

  public static void main(String[] args) throws Exception {
    TalusDb db = TalusDb.open(options(Path.of(args[0]), CommitLogSync.valueOf(args[1])));
    TalusServer server = TalusServer.start(db);
    System.out.println("PORT " + server.address().getPort());
    System.out.flush();
    Thread.sleep(Long.MAX_VALUE);
  }
}
